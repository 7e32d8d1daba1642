// Package llm is the model client layer: [Model], a minimal
// chat-completion interface (one method, so a test double or another
// provider fits in a few lines), its [Request], [Response], [Message],
// [Tool], [ToolCall] and [Usage], and [NewOpenAI], an implementation for any
// OpenAI-compatible HTTP endpoint (retries bounded by a deadline, with
// full-jitter waits under the server's Retry-After; per-attempt timeouts;
// [Limits], one adaptive rate limiter per endpoint shared by a run's
// model clients, learning from 429s and x-ratelimit headers; typed
// [*APIError], the key masked in every error). The LLM judge, the simulated
// user of a conversation and the "openai:MODEL" agent under test all talk
// through it.
//
// [Recorded] records every answer in a [Cache] ([NewDirCache] on disk,
// [NewMemoryCache] in memory) and replays a run offline. The subpackage
// llmtest serves a scripted, in-process OpenAI-compatible endpoint for
// tests.
package llm
