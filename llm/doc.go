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
// A [Cassette] records every answer a run's jobs receive, each under its
// [Site] (job, attempt, role, sample, ordinal), and replays the run offline
// call for call; [Recorded] puts a model's calls through one. The caches
// ([NewDirCache] on disk, [NewMemoryCache] in memory) hold the judge's
// answers and cassettes. The subpackage
// llmtest serves a scripted, in-process OpenAI-compatible endpoint for
// tests.
package llm
