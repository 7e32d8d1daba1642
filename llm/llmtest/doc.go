// Package llmtest serves a scripted, in-process OpenAI-compatible
// chat-completions endpoint, in the spirit of net/http/httptest, so that code
// built on llm.Model (LLM judges, simulated users, model-backed agents) can
// be tested without the network or an API key. The same script answers the
// Responses API (POST /v1/responses, not streamed), which programs built on
// the Vercel AI SDK send (ElizaOS's plugin-openai); POST /v1/embeddings
// answers with deterministic vectors and GET /v1/models lists one model.
//
// A test scripts replies in order with [Server.Enqueue] (canned text, JSON,
// tool calls, error statuses with Retry-After, delays), or answers from the
// request itself with [Server.EnqueueFunc] and [Server.Handle], then asserts
// on what was sent with [Server.Requests] (in llm's terms, with the raw
// body beside them). The package depends only on the standard library and
// agenteval's llm package (and the wire format the two share), so it fits
// any test suite. A request with "stream": true is answered as OpenAI
// streams (server-sent chunks, the usage last when stream_options asks),
// which is how coding-agent CLIs such as OpenCode call a model; the same
// scripted replies answer OpenAI's Responses API (POST /v1/responses,
// streamed as events when asked), which Codex speaks, Anthropic's Messages
// API (POST /v1/messages, streamed as message_start, content_block_* and
// message_delta events; Claude Code with ANTHROPIC_BASE_URL at the
// server's root, URL without /v1) and Gemini's generateContent and
// streamGenerateContent (POST /v1beta/models/MODEL:METHOD, alt=sse; Gemini
// CLI with GOOGLE_GEMINI_BASE_URL at the root), each request in the same
// log (Requests) in llm's terms.
package llmtest
