// Package agenteval is the root of a library and CLI for evaluating AI
// agents against scenario files, and the one place a host program wires
// it: [New] returns a [Kit] holding every registry (evaluation types,
// judgment strategies, condition types and scorers, termination, agent and
// environment types) with the built-ins registered; a host registers its
// own on it, and the kit's loader, schema and runner all see them;
// [Kit.Run] runs files with a [RunConfig] whose zero value with an Agent is
// valid. The work happens in the sub-packages, which read like the data
// flow:
//
//   - scenario: the schema. Go types for agent scenarios (*.scenario.yaml),
//     GitHub eval scenarios (ghx JSON), matrices and fixture manifests;
//     strict loading with file:line:col diagnostics and did-you-mean; JSON
//     Schema generated from the same types.
//   - matrix: parameter paths (run[0].conversation.max_turns,
//     setup.virtual_fs["a.json"]), lazy cartesian expansion, content-addressed
//     combination ids, filters and shards.
//   - fixture: fixture manifests, {{placeholder}} binding on parsed values,
//     and the Manager interface.
//   - checkpoint: checks on live state after a session: the condition
//     registry, Checker.Score, and the Executor interface.
//   - github: GitHub, in one place: the client (endpoints, token, retries),
//     the checkpoint executor (the capability tasks on GitHub's GraphQL and
//     REST APIs) and the fixture manager (seed, status, reset, cleanup).
//   - evaluate: the Evaluator interface, the registry of the 13 evaluation
//     types, and Trace, the evidence a run leaves.
//   - llm: the chat Model interface, an OpenAI-compatible client, caches and
//     record/replay: the model layer agents, the simulated user and the
//     judge share.
//   - judge: the LLM judge and the judgment strategies.
//   - runner: the driver and the interfaces agents implement (Agent,
//     Session, AgentFunc, Reply, RunScopedAgent), environments, mocks,
//     conversations with a simulated user, jobs at scale, progress.
//   - agent/echo, agent/exec, agent/openai, agent/eliza: the built-in
//     agents, one package each (exec: any program speaking the exec
//     protocol, and Serve for an agent written in Go; eliza: a real ElizaOS
//     runtime behind a Node bridge).
//   - results: the results record (plan and job records), written safely
//     (folder lock, resume check, redaction; Write is safe for concurrent
//     use); report reads it back.
//   - agentevaltest: the go test helper: each job a subtest, failures at the
//     caller's line.
//   - report: statistics over results (Wilson intervals, pass@k, pass^k,
//     flakiness, per-parameter rates), comparisons, and JUnit, Markdown, JSON
//     and HTML output.
//   - plan: the forecast of a run before it runs (jobs, model calls, tokens,
//     cost, wall time), from the scenarios' limits and past results.
//   - registry: the one shape every extension point has.
//   - redact: the one mechanism that keeps the process's secrets (tokens and
//     keys from the environment and flags, URL user-info, Authorization
//     headers) out of every file and stream it writes.
//   - github/githubtest and llm/llmtest: in-process fakes for tests.
//   - examples: runnable examples; `go run ./examples/demo` runs them all.
//
// Package cli is the command line that puts these together (validate,
// schema, types, matrix, plan, run, report, checkpoint and fixture) on one
// Kit: the agenteval command (cmd/agenteval) is cli.Main with New's kit,
// and a host builds its own with its plugins registered
// (examples/plugins/host). Its run command turns flags into one RunConfig
// and calls Kit.Run, as a library program does.
package agenteval
