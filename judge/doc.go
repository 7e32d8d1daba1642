// Package judge holds everything agenteval needs to reach a verdict.
//
// It has three parts that share one small vocabulary:
//
//   - [Model], a minimal chat-completion interface, and [NewOpenAI], an
//     implementation for any OpenAI-compatible HTTP endpoint (retries with
//     backoff, Retry-After, per-request timeouts, typed [*APIError]). The same
//     interface serves the LLM judge, the simulated user of a conversation and
//     an "openai:MODEL" agent under test.
//   - [Judge], the LLM-as-judge: it builds the evaluation prompt, asks for a
//     structured verdict, parses what comes back robustly ([ParseVerdict]),
//     applies the scenario's expected form (yes/no, score threshold or free
//     text), samples several times when asked and caches verdicts
//     ([DirCache], [MemoryCache]).
//   - [Strategy], the judgment strategies that turn many [Outcome] values into
//     one [Decision]. They live in an explicit registry ([NewStrategies],
//     [DefaultStrategies]) that a host program extends exactly as the built-ins
//     are registered; nothing is registered by package initialisation.
//
// The subpackage judgetest serves a scripted, in-process OpenAI-compatible
// endpoint so that all of this can be tested without the network.
package judge
