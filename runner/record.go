package runner

import (
	"encoding/json"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/llm"
)

// Record kinds in a results JSONL file.
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
	// Version is the results format, set by OpenResults: 2 since a matrix
	// job's id names its matrix file; job ids of one version are not those
	// of another.
	Version int `json:"version,omitempty"`
	// Inputs are the files the run read (sources, matrix bases, manifest,
	// seed file) with a digest of their content, so that --resume can tell
	// that the inputs changed.
	Inputs []PlanInput `json:"inputs,omitempty"`
	// Settings are the other options that change what jobs do or how they
	// are judged (filters, runs, models, strictness), by name.
	Settings map[string]string `json:"settings,omitempty"`
}

// resultsVersion is the results format OpenResults writes.
const resultsVersion = 2

// PlanInput is one file a run read.
type PlanInput struct {
	// Path is the file as the run named it.
	Path string `json:"path"`
	// SHA256 is the hex SHA-256 of its content.
	SHA256 string `json:"sha256"`
}

// JobResult is one finished job: the source of truth every report reads.
type JobResult struct {
	Record string `json:"record"` // always "job"
	// ID is source/combination/run-N: source is the scenario's id or the
	// matrix file's; combination is "-" outside a matrix.
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
	// Attempts is how many attempts were made (1 + retries used).
	Attempts int `json:"attempts"`
	// Completed is true when the run reached the judgment (no infrastructure error or timeout).
	Completed bool `json:"completed"`
	// Passed is the verdict; never true when Completed is false.
	Passed bool `json:"passed"`
	// Score is the strategy's score in [0,1].
	Score float64 `json:"score"`
	// Reason explains the verdict.
	Reason string `json:"reason"`
	// Strategy is the judgment strategy used.
	Strategy string `json:"strategy"`
	// Evaluations are every evaluation result (step, turn and final).
	Evaluations []evaluate.Result `json:"evaluations"`
	// Checkpoints are the checkpoint results.
	Checkpoints []CheckpointResult `json:"checkpoints,omitempty"`
	// TerminationReasons are the conversations' termination reasons, one per conversation step.
	TerminationReasons []string `json:"termination_reasons,omitempty"`
	// Transcript is the run's messages (every step's input and reply, every
	// conversation turn); kept for failing and incomplete jobs, and for all
	// jobs with Config.KeepTranscripts.
	Transcript []evaluate.Turn `json:"transcript,omitempty"`
	// Started is when the job's last attempt began.
	Started time.Time `json:"started"`
	// DurationMS is the wall time of the job's last attempt.
	DurationMS float64 `json:"duration_ms"`
	// Usage totals tokens reported by the agent.
	Usage llm.Usage `json:"usage"`
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
}

// CheckpointResult is one checkpoint's outcome in a job result.
type CheckpointResult struct {
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
