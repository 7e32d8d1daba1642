package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agenteval/agenteval/llm"
)

// Record kinds in a results JSONL file (the record field of each line).
const (
	// RecordPlan opens a results file: what the run (or shard) was asked to do.
	RecordPlan = "plan"
	// RecordJob is one finished job.
	RecordJob = "job"
)

// Plan is the first record of a results file. Job indexes run from 0 to
// TotalJobs-1 over the whole run (all shards), so a report can say which
// jobs no shard recorded.
type Plan struct {
	// Record is always "plan".
	Record string `json:"record"`
	// RunID names the run; a resumed run keeps it.
	RunID string `json:"run_id"`
	// Started is when this invocation started.
	Started time.Time `json:"started"`
	// TotalJobs is the number of jobs of the whole run, all shards together.
	TotalJobs int64 `json:"total_jobs"`
	// Shard is "i/n" when the invocation ran one shard.
	Shard string `json:"shard,omitempty"`
	// ShardJobs is the number of jobs this shard owns.
	ShardJobs int64 `json:"shard_jobs"`
	// Agent is the agent under test, as given to --agent.
	Agent string `json:"agent"`
	// Sources are the scenario and matrix files of the run.
	Sources []string `json:"sources"`
	// Seed is the run's seed.
	Seed int64 `json:"seed"`
	// Version is the results format, set by Open: 2 since a matrix
	// job's id names its matrix file; job ids of one version are not those
	// of another.
	Version int `json:"version,omitempty"`
	// Inputs are the files the run read (sources, matrix bases, manifest,
	// seed file) with a digest of their content, so that --resume can tell
	// that the inputs changed.
	Inputs []Input `json:"inputs,omitempty"`
	// Settings are the other options that change what jobs do or how they
	// are judged (filters, runs, models, strictness), by name.
	Settings map[string]string `json:"settings,omitempty"`
	// Estimate is what the run was expected to use (agenteval plan's
	// forecast), when the run was given a budget; resume does not compare it.
	Estimate *Estimate `json:"estimate,omitempty"`
}

// resultsVersion is the results format Open writes.
const resultsVersion = 2

// Input is one file a run read.
type Input struct {
	// Path is the file as the run named it.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of its content.
	SHA256 string `json:"sha256"`
}

// Job is one finished job: the source of truth every report reads.
type Job struct {
	Record string `json:"record"` // always "job"
	// ID is source/combination/run-N: source is the scenario's id or the
	// matrix file's (the id the file writes, else its file name without
	// suffix, prefixed by its folders under their deepest common directory
	// only when two files of the run share a name); combination is "-"
	// outside a matrix. It depends on the file and combination only, not on
	// the other paths of the run nor where it ran from: resume, the shard
	// merge and report compare match jobs by it.
	ID string `json:"id"`
	// Index is the job's deterministic number within the whole run.
	Index int64 `json:"index"`
	// Scenario and ScenarioName identify the scenario.
	Scenario     string `json:"scenario"`
	ScenarioName string `json:"scenario_name,omitempty"`
	// Matrix names the matrix the job came from, if any.
	Matrix string `json:"matrix,omitempty"`
	// Combination is the content-addressed combination id ("" outside a matrix).
	Combination string `json:"combination,omitempty"`
	// Params are the matrix parameters of the combination, path → value.
	Params map[string]any `json:"params,omitempty"`
	// Run is the 1-based run number within the combination.
	Run int `json:"run"`
	// Attempts is how many attempts were made (1 + retries used). The
	// verdict is over all of them: the job passed if any attempt passed,
	// else it is failed (Completed) if any attempt completed, else
	// incomplete; the record's details (evaluations, score, usage, ...)
	// are those of the attempt that decided it, and AttemptLog lists
	// every attempt.
	Attempts int `json:"attempts"`
	// Completed is true when an attempt reached the judgment (no infrastructure error or timeout).
	Completed bool `json:"completed"`
	// Passed is the verdict; never true when Completed is false.
	Passed bool `json:"passed"`
	// Score is the strategy's score in [0,1].
	Score float64 `json:"score"`
	// Reason explains the verdict.
	Reason string `json:"reason"`
	// Cause says, when the job did not pass, why: CauseChecks when the
	// agent failed the checks, an infrastructure cause (CauseTimeout,
	// CauseAgentCrash, CauseRateLimited, CauseServerError,
	// CauseConnectionLost) or CauseNoVerdict when no verdict was reached
	// for another reason. Empty for a pass.
	Cause Cause `json:"cause,omitempty"`
	// Strategy is the judgment strategy used.
	Strategy string `json:"strategy"`
	// Evaluations are every evaluation result (step, turn and final).
	Evaluations []Evaluation `json:"evaluations"`
	// Checkpoints are the checkpoint results.
	Checkpoints []Checkpoint `json:"checkpoints,omitempty"`
	// TerminationReasons are the conversations' termination reasons, one per conversation step.
	TerminationReasons []string `json:"termination_reasons,omitempty"`
	// Transcript is the run's messages (every step's input and reply, every
	// conversation turn, each tool call with its arguments, result, error
	// and times); kept for every job by default, for failing and incomplete
	// ones only or for none as the run's Transcripts setting says. Each
	// message and tool result is cut to its bound (a note says so).
	Transcript []Turn `json:"transcript,omitempty"`
	// Started is when the job's last attempt began.
	Started time.Time `json:"started"`
	// DurationMS is the wall time of the job's last attempt, less
	// AgentStartupMS.
	DurationMS float64 `json:"duration_ms"`
	// AgentStartupMS is the time the attempt spent waiting for the agent's
	// program to start (a persistent exec agent's first session on a new
	// program), left out of DurationMS and of its steps' and turns'
	// durations so that latency compares agents, not interpreters' start-up.
	AgentStartupMS float64 `json:"agent_startup_ms,omitempty"`
	// Usage totals tokens reported by the agent.
	Usage llm.Usage `json:"usage"`
	// UserUsage totals the tokens of the simulated user's model calls, and
	// JudgeUsage those of the judge's (llm_judge evaluations, judged
	// satisfaction and termination conditions; a sample answered from the
	// judge's cache spent none). Both count the last attempt, as Usage does.
	UserUsage  llm.Usage `json:"user_usage,omitzero"`
	JudgeUsage llm.Usage `json:"judge_usage,omitzero"`
	// Cost is what the job's model calls cost, each role priced by its own
	// model; nil when the run priced nothing (a host that set no pricing).
	Cost *Cost `json:"cost,omitempty"`
	// Agent names the agent of a suite that ran the job ("" outside a
	// suite: the plan's agent).
	Agent string `json:"agent,omitempty"`
	// Model is the suite's model the agent ran with ("" outside a suite or
	// when the suite names no models).
	Model string `json:"model,omitempty"`
	// Efficiency is what the job's last attempt cost besides tokens and
	// time: the agent's turns and tool calls.
	Efficiency Efficiency `json:"efficiency,omitzero"`
	// MockCalls are the calls the agent made to mocked services.
	MockCalls []MockCall `json:"mock_calls,omitempty"`
	// Error is set when the job could not complete.
	Error string `json:"error,omitempty"`
	// Environment is the environment the job ran in ("local"), which may
	// differ from the scenario's when Config.EnvFallback stood in for it.
	Environment string `json:"environment,omitempty"`
	// Notes are what a reader of the result should know that is not a
	// verdict: an environment that stood in for another, processes killed
	// because a step or session left them running, output cut to its bound.
	Notes []string `json:"notes,omitempty"`
	// AttemptLog is every attempt of a retried job (Attempts > 1), in
	// order; nil when the first attempt was the only one.
	AttemptLog []Attempt `json:"attempt_log,omitempty"`
	// CodeSteps are the output of each code step the job ran, in order:
	// stdout and stderr (each cut to its first 16 KiB, a note says so), exit
	// code and duration. Kept as Transcript is.
	CodeSteps []CodeStep `json:"code_steps,omitempty"`
	// AgentLog is the last 8 KiB the agent's program wrote on stderr during
	// the job (exec agents: its log). Kept as Transcript is.
	AgentLog string `json:"agent_log,omitempty"`
	// Crash is the agent's traceback when it failed rather than answer: a
	// Python or Node kit agent's exception with its stack, a Go agent's
	// panic with its goroutine's stack (at most 16 KiB). Always kept.
	Crash string `json:"crash,omitempty"`
	// DecodeError is set by a reader, never written, when the record's
	// details (transcript, messages) could not be decoded; the Job then
	// holds only the fields statistics read.
	DecodeError string `json:"-"`
}

// CodeStep is what one code step of a job printed and how it ended.
type CodeStep struct {
	// Step is the step's index in the scenario's run.
	Step int `json:"step"`
	// ExitCode is the command's exit status (-1 when it did not exit).
	ExitCode int `json:"exit_code"`
	// DurationMS is how long it ran.
	DurationMS float64 `json:"duration_ms"`
	// Stdout and Stderr are its output, each cut to its bound.
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
}

// Attempt is one attempt of a retried job, as its record keeps it.
type Attempt struct {
	// N is the attempt's number, from 1.
	N int `json:"n"`
	// Status is "passed", "failed" (completed, not passed) or "incomplete".
	Status string `json:"status"`
	// Cause says why the attempt did not pass (see Job.Cause).
	Cause Cause `json:"cause,omitempty"`
	// Reason explains the attempt's verdict.
	Reason string `json:"reason"`
	// Evidence summarises what decided it: the failed evaluations and
	// checkpoints, or the error that kept it from a verdict.
	Evidence string `json:"evidence,omitempty"`
	// Score is the attempt's strategy score.
	Score float64 `json:"score"`
	// Started and DurationMS time the attempt.
	Started    time.Time `json:"started"`
	DurationMS float64   `json:"duration_ms"`
	// Usage is the attempt's tokens.
	Usage llm.Usage `json:"usage"`
}

// Cause says why a job or attempt did not pass. Infrastructure causes are
// failures of what the agent ran on, not of the agent: the runner retries
// them (runner.Config.InfraRetries) before it records them, and a report
// never counts them as the agent failing its checks.
type Cause string

// The causes of a job that did not pass.
const (
	// CauseChecks: the run reached its verdict and the agent failed the checks.
	CauseChecks Cause = "checks"
	// CauseTimeout: a step, turn, conversation or the scenario ran out of time.
	CauseTimeout Cause = "timeout"
	// CauseAgentCrash: the agent failed (an error, a panic, its program
	// exited) rather than answer.
	CauseAgentCrash Cause = "agent_crash"
	// CauseRateLimited: a model call was refused with 429 until the client gave up.
	CauseRateLimited Cause = "rate_limited"
	// CauseServerError: a model call got 5xx answers until the client gave up.
	CauseServerError Cause = "server_error"
	// CauseConnectionLost: a model call lost its connection (refused, reset, cut short).
	CauseConnectionLost Cause = "connection_lost"
	// CauseNoVerdict: no verdict for another reason (the job cannot run
	// here, nothing was checked, an evaluation or checkpoint could not
	// decide, a replayed call was not recorded).
	CauseNoVerdict Cause = "no_verdict"
)

// Infrastructure reports whether c is a failure of the infrastructure
// (timeouts, agent crashes, 429s, 5xx, lost connections), not of the agent.
func (c Cause) Infrastructure() bool {
	switch c {
	case CauseTimeout, CauseAgentCrash, CauseRateLimited, CauseServerError, CauseConnectionLost:
		return true
	}
	return false
}

// Cost is what one job's model calls cost in US dollars: the agent's, the
// simulated user's and the judge's, each its role's usage priced by the
// price of the model that role used (list prices per million prompt and
// completion tokens, from a dated table or a prices file). A role that
// spent no tokens costs 0. A role that spent tokens with a model that has
// no price costs unknown: its field is null, never 0, and so is USD, the
// total. Amounts are rounded to a billionth of a dollar.
type Cost struct {
	// USD is the total of the three, null when any is unknown.
	USD *float64 `json:"usd"`
	// Agent, User and Judge are each role's cost, null when unknown.
	Agent *float64 `json:"agent_usd"`
	User  *float64 `json:"user_usd"`
	Judge *float64 `json:"judge_usd"`
	// Unpriced names each role that spent tokens with a model without a
	// price, as "judge: my-model" ("agent: ?" when the model is not known).
	Unpriced []string `json:"unpriced,omitempty"`
	// AsOf are the dates of the prices used, distinct, in order.
	AsOf []string `json:"as_of,omitempty"`
}

// Efficiency is the effort an agent spent on a job, as ghx's profiler
// counts it: the wall time is the job's duration_ms and the tokens its usage.
type Efficiency struct {
	// Turns is how many replies the agent gave: one per input step, one
	// per assistant turn of a conversation.
	Turns int `json:"turns"`
	// ToolCalls counts the agent's tool calls (actions).
	ToolCalls ToolCalls `json:"tool_calls"`
}

// ToolCalls counts tool calls: all, failed, and by category.
type ToolCalls struct {
	// Total is the number of calls.
	Total int `json:"total"`
	// Failed is the number of calls that reported an error.
	Failed int `json:"failed"`
	// ByCategory counts calls per category (ghx's ghx, mcp, gh_cli, bash,
	// file_ops, other and a suite's own), categories without calls left out.
	ByCategory Counts `json:"by_category,omitempty"`
}

// Counts are counts by name, in order; in JSON an object of name to count.
type Counts []Count

// Count is one name's count.
type Count struct {
	Name string
	N    int
}

// MarshalJSON writes the counts as a JSON object, in order.
func (c Counts) MarshalJSON() ([]byte, error) {
	return appendCounts(nil, c), nil
}

// UnmarshalJSON reads a JSON object of counts, keeping its order.
func (c *Counts) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*c = nil
		return nil
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("results: counts: want an object, got %v", tok)
	}
	out := Counts{}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return err
		}
		var n int
		if err := d.Decode(&n); err != nil {
			return fmt.Errorf("results: count of %v: %w", k, err)
		}
		out = append(out, Count{Name: k.(string), N: n})
	}
	*c = out
	return nil
}

// Checkpoint is one checkpoint's outcome in a job record.
type Checkpoint struct {
	// ID, Description and Task are the checkpoint's.
	ID          string `json:"id"`
	Description string `json:"description"`
	Task        string `json:"task"`
	// Passed is true when the task ran and its data met the condition.
	Passed bool `json:"passed"`
	// Actual is the data the task returned.
	Actual json.RawMessage `json:"actual,omitempty"`
	// Expected says what the condition wants, in words ("count >= 2").
	Expected string `json:"expected,omitempty"`
	// Error says why the checkpoint failed or could not be decided.
	Error string `json:"error,omitempty"`
}

// Evaluation is one evaluation's outcome: what an evaluator returns
// (Evaluation is this type) and what a job record holds.
type Evaluation struct {
	// Type is the evaluation type.
	Type string `json:"type"`
	// Description is the evaluation's description from the file.
	Description string `json:"description,omitempty"`
	// Scope, Step and Turn say which evaluation of the scenario this is.
	Scope Scope `json:"scope"`
	Step  int   `json:"step"`
	Turn  int   `json:"turn"`
	// Passed is the verdict of this evaluation.
	Passed bool `json:"passed"`
	// Score is in [0,1]; 1 for a pass of a pass/fail check.
	Score float64 `json:"score"`
	// Message explains the outcome.
	Message string `json:"message"`
	// Details holds machine-readable evidence. It is this result's own: an
	// evaluator builds it per result and shares none of it with another
	// result or with its scenario, so whoever holds the result may change it.
	Details map[string]any `json:"details,omitempty"`
	// Weight and Critical come from the file and feed the judgment.
	Weight   float64 `json:"weight"`
	Critical bool    `json:"critical,omitempty"`
	// Error is set when the evaluation could not judge.
	Error string `json:"error,omitempty"`
	// Usage is the tokens the evaluation's judge calls spent (a judge's
	// cached answers spent none); the job's judge_usage totals them. An
	// evaluation type that asks Env.Judge sets it from the verdict's usage.
	Usage llm.Usage `json:"usage,omitzero"`
}

// Scope says when an evaluation runs.
type Scope string

const (
	// ScopeStep evaluations run once after their step.
	ScopeStep Scope = "step"
	// ScopeTurn evaluations run after every agent turn of a conversation.
	ScopeTurn Scope = "turn"
	// ScopeFinal evaluations run once when a conversation ends.
	ScopeFinal Scope = "final"
)

// Where says which step (and turn) an evaluation is about: "step 0",
// "step 1, turn 3", "step 1, at the end".
func (e Evaluation) Where() string {
	switch e.Scope {
	case ScopeTurn:
		return fmt.Sprintf("step %d, turn %d", e.Step, e.Turn)
	case ScopeFinal:
		return fmt.Sprintf("step %d, at the end", e.Step)
	}
	return fmt.Sprintf("step %d", e.Step)
}

// Turn is one message of a conversation or of a transcript.
type Turn struct {
	// Role is "user" or "assistant".
	Role string `json:"role"`
	// Text is the message.
	Text string `json:"text"`
	// At is when the message was produced.
	At time.Time `json:"at"`
	// Duration is how long producing it took.
	Duration time.Duration `json:"duration"`
	// Thought is the reasoning the agent reported for this turn (assistant
	// turns; an ElizaOS agent's thought, the exec protocol's reply
	// "thought"), which ElizaOS's trajectories show as thought steps.
	// A coding-agent CLI's reasoning (Claude Code's thinking, OpenCode's
	// reasoning parts, Codex's reasoning items) is kept here too.
	Thought string `json:"thought,omitempty"`
	// EndReason is why the agent's reply ended, as the agent reported it
	// (assistant turns): a coding-agent CLI's stop reason or result status,
	// such as Claude Code's "end_turn" or "error_max_turns", OpenCode's
	// "stop", Codex's "completed" or "failed", Gemini CLI's "success".
	EndReason string `json:"end_reason,omitempty"`
	// Usage is what the agent reported this turn spent (assistant turns):
	// its tokens, and its cost when it reported one (a coding-agent CLI's
	// own figure); the job's usage totals them.
	Usage llm.Usage `json:"usage,omitzero"`
	// Actions are the actions the agent made in this turn (assistant turns only).
	Actions []Action `json:"actions,omitempty"`
}

// Action is one action or tool call the agent made.
type Action struct {
	// Name is the action or tool name.
	Name string `json:"name"`
	// Args are its arguments.
	Args map[string]any `json:"args,omitempty"`
	// Result is what it returned.
	Result any `json:"result,omitempty"`
	// Error is set when it failed.
	Error string `json:"error,omitempty"`
	// Start and End bound the call.
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// MockCall is one call the agent made to a mocked service.
type MockCall struct {
	Service string `json:"service"`
	Method  string `json:"method"`
	Args    []any  `json:"args,omitempty"`
	// Mock is the index in setup.mocks of the mock that answered, or -1.
	Mock  int    `json:"mock"`
	Error string `json:"error,omitempty"`
	// At is when the call was made.
	At time.Time `json:"at"`
}

// Explain says why a job did not pass: the verdict's reason, then each
// failed evaluation and checkpoint with its message.
func (j *Job) Explain() string {
	var b strings.Builder
	b.WriteString(j.Reason)
	if j.Cause != "" {
		fmt.Fprintf(&b, " [%s]", j.Cause)
	}
	if j.Error != "" && !strings.Contains(j.Reason, j.Error) {
		fmt.Fprintf(&b, "\nerror: %s", j.Error)
	}
	for _, a := range j.AttemptLog {
		fmt.Fprintf(&b, "\n  attempt %d: %s", a.N, a.Status)
		if a.Cause != "" {
			fmt.Fprintf(&b, " (%s)", a.Cause)
		}
		if a.Evidence != "" {
			fmt.Fprintf(&b, ": %s", a.Evidence)
		}
	}
	for _, e := range j.Evaluations {
		if e.Passed {
			continue
		}
		fmt.Fprintf(&b, "\n  %s: %s", e.Where(), e.Type)
		if e.Description != "" {
			fmt.Fprintf(&b, " (%s)", e.Description)
		}
		fmt.Fprintf(&b, ": %s", e.Message)
		if e.Error != "" {
			fmt.Fprintf(&b, " [error: %s]", e.Error)
		}
	}
	for _, c := range j.Checkpoints {
		if !c.Passed {
			fmt.Fprintf(&b, "\n  checkpoint %s: want %s", c.ID, c.Expected)
			if c.Error != "" {
				fmt.Fprintf(&b, " [error: %s]", c.Error)
			}
		}
	}
	return b.String()
}
