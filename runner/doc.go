// Package runner runs agents through scenarios and says, honestly, what
// passed.
//
// # Jobs
//
// A Job is one run of one scenario variant: scenario × matrix combination ×
// run number, with a deterministic Index and an id source/combination/run-N
// (source: the scenario's id, or the matrix file's; see scenario.Loader.LoadPaths)
// that results, resume and shards key on. agenteval.Kit.Jobs turns loaded
// files into the jobs of one run (a scenario runs Runs times; a matrix
// expands lazily through package matrix), keeping the jobs a Shard owns
// (index mod n == i-1). Run executes them on Config.Concurrency
// workers and streams each results.Job to Config.Results the moment it is
// finished; memory does not grow with the number of jobs.
//
// # One attempt
//
// Fixtures are bound (reset first, for reseed_per_iteration scenarios, or
// seeded afresh and removed after the attempt, for seed_per_iteration ones)
// through Config.Fixtures (a fixture.Binder); the scenario's environment (an
// environment.Type from Registries.Environments: local is built in) prepares
// a directory only when something needs one, writing virtual_fs inside it;
// the agent's Session starts with the character, enabled plugins, directory
// and the scenario's Mocks; each step sends its input, runs its code, or holds
// a conversation with a simulated user (package conversation: a
// llm.Model plays it, conversation.ScriptedUser offline) until a termination
// condition holds, max_turns is reached or time runs out. Evaluations run
// after each step, each agent turn and each conversation's end; checkpoints
// are scored after the session (Config.Checkpoints, a checkpoint.Checker).
//
// # The verdict
//
// Every evaluation result counts: step evaluations, turn evaluations (one
// result per agent turn) and final evaluations, and every checkpoint result
// after them. The scenario's judgment strategy (a judge.Strategy from the
// strategy registry: judge.NewRegistry's built-ins or a host's) decides
// over these outcomes with each one's weight (its own weight, else the
// judgment.weights entry for its description, type or checkpoint id, else
// 1; an explicit 0 counts nothing) and critical flag (a failed critical outcome fails the
// verdict under every strategy). With Config.StrictMocks, a call no mock
// answered fails the run as well.
//
// A run that could not reach the verdict (the agent failed or timed out, a
// fixture could not be reset, an evaluation or checkpoint could not judge,
// nothing was checked at all) is recorded as not Completed, and never as
// passed or failed: completion and success are separate numbers. A job this
// configuration cannot run (Config.Unrunnable: an environment with no
// provider, commands not allowed, no judge or user model, no fixture
// manifest, no checkpoint executor) is recorded incomplete with the reasons
// before anything of it starts, and the other jobs run. An attempt that did
// not pass is retried up to the scenario's allowed_retries; one lost to the
// infrastructure (results.Cause.Infrastructure: a timeout, an agent crash,
// 429s, 5xx, a lost connection) first gets up to Config.InfraRetries more
// (default 2). The job passed if any attempt passed, else failed if any
// completed, else it is incomplete, with its cause; its record keeps every
// attempt (AttemptLog).
//
// # Commands and processes
//
// Code steps and command_exit_code_is run only with Config.AllowCommands.
// Every process a job starts (code steps, command checks, the exec agent)
// leads its own process group, which is killed whole when its step,
// command or session ends or times out; the result's Notes and errors say
// what was killed and why.
//
// # Failures stay local
//
// Step, turn, conversation and scenario timeouts hold even when an agent
// ignores its context (the call is abandoned); a panic in an agent,
// evaluator or the runner's own step code fails that run only. A job
// interrupted by cancellation is not recorded, so --resume runs it again.
//
// # Agents
//
// An Agent starts Sessions; AgentFunc makes a Go function one. The runner
// holds the interfaces (and the optional ones: Cooperative, RunScopedAgent),
// not the agents: those live in their own packages under agent/, and
// Registries.Agents holds the agent types the CLI's --agent flag and
// agenteval.Kit.Agent build from a spec. Package agentevaltest runs jobs as
// subtests of a Go test.
package runner
