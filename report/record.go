package report

import (
	"encoding/json"
	"fmt"
	"time"
)

// Record kinds in a results file, as the runner writes them.
const (
	recordPlan = "plan"
	recordJob  = "job"
)

// Plan mirrors the runner's plan record: what a run (or one shard of it) was
// asked to do. Job indexes run from 0 to TotalJobs−1 over all shards.
type Plan struct {
	RunID     string    `json:"run_id"`
	Started   time.Time `json:"started"`
	TotalJobs int64     `json:"total_jobs"`
	Shard     string    `json:"shard,omitempty"`
	ShardJobs int64     `json:"shard_jobs"`
	Agent     string    `json:"agent"`
	Sources   []string  `json:"sources"`
	Seed      int64     `json:"seed"`
}

// Job mirrors the runner's job record: one finished job with everything a
// report shows about it.
type Job struct {
	ID                 string             `json:"id"`
	Index              int64              `json:"index"`
	Scenario           string             `json:"scenario"`
	ScenarioName       string             `json:"scenario_name,omitempty"`
	Matrix             string             `json:"matrix,omitempty"`
	Combination        string             `json:"combination,omitempty"`
	Params             map[string]any     `json:"params,omitempty"`
	Run                int                `json:"run"`
	Attempts           int                `json:"attempts"`
	Completed          bool               `json:"completed"`
	Passed             bool               `json:"passed"`
	Score              float64            `json:"score"`
	Reason             string             `json:"reason"`
	Strategy           string             `json:"strategy"`
	Evaluations        []Evaluation       `json:"evaluations"`
	Checkpoints        []CheckpointResult `json:"checkpoints,omitempty"`
	TerminationReasons []string           `json:"termination_reasons,omitempty"`
	Transcript         []Turn             `json:"transcript,omitempty"`
	Started            time.Time          `json:"started"`
	DurationMS         float64            `json:"duration_ms"`
	Usage              Usage              `json:"usage"`
	Error              string             `json:"error,omitempty"`
	// DecodeError is set by this package, never by the runner, when the
	// record's details (transcript, messages) could not be decoded; the Job
	// then holds only the fields the statistics read.
	DecodeError string `json:"-"`
}

// CheckpointResult mirrors one checkpoint's outcome in a job record.
type CheckpointResult struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Task        string          `json:"task"`
	Passed      bool            `json:"passed"`
	Actual      json.RawMessage `json:"actual,omitempty"`
	Expected    string          `json:"expected,omitempty"`
	Error       string          `json:"error,omitempty"`
}

// lineRecord is what the first pass decodes from every line: the plan
// fields and the job fields statistics need, nothing bulky (no transcript,
// no evaluation messages or details).
type lineRecord struct {
	Record string `json:"record"`

	RunID     string   `json:"run_id"`
	TotalJobs int64    `json:"total_jobs"`
	Shard     string   `json:"shard"`
	ShardJobs int64    `json:"shard_jobs"`
	Agent     string   `json:"agent"`
	Sources   []string `json:"sources"`
	Seed      int64    `json:"seed"`
	// Started and Params are decoded only when needed (a plan; the first
	// record of a combination), which keeps the per-line cost down.
	Started json.RawMessage `json:"started"`
	Params  json.RawMessage `json:"params"`

	ID                 string       `json:"id"`
	Index              int64        `json:"index"`
	Scenario           string       `json:"scenario"`
	ScenarioName       string       `json:"scenario_name"`
	Matrix             string       `json:"matrix"`
	Combination        string       `json:"combination"`
	Run                int          `json:"run"`
	Attempts           int          `json:"attempts"`
	Completed          bool         `json:"completed"`
	Passed             bool         `json:"passed"`
	Evaluations        []evalRecord `json:"evaluations"`
	TerminationReasons []string     `json:"termination_reasons"`
	DurationMS         float64      `json:"duration_ms"`
	Usage              Usage        `json:"usage"`
}

// evalRecord is the part of an evaluation result the statistics need.
type evalRecord struct {
	Type        string `json:"type"`
	Description string `json:"description"`
	Passed      bool   `json:"passed"`
	Error       string `json:"error"`
}

// plan returns the plan fields; it fails like decoding a Plan would.
func (r *lineRecord) plan() (Plan, error) {
	p := Plan{RunID: r.RunID, TotalJobs: r.TotalJobs, Shard: r.Shard,
		ShardJobs: r.ShardJobs, Agent: r.Agent, Sources: r.Sources, Seed: r.Seed}
	if err := decodeOptional(r.Started, &p.Started); err != nil {
		return Plan{}, fmt.Errorf("plan started: %w", err)
	}
	return p, nil
}

// params decodes the job's parameters.
func (r *lineRecord) params() (map[string]any, error) {
	var m map[string]any
	if err := decodeOptional(r.Params, &m); err != nil {
		return nil, fmt.Errorf("job params: %w", err)
	}
	return m, nil
}

// decodeOptional decodes raw into v unless it is absent or null.
func decodeOptional(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// Evaluation mirrors one evaluation result (evaluate.Result) in a job record.
type Evaluation struct {
	Type        string         `json:"type"`
	Description string         `json:"description,omitempty"`
	Scope       string         `json:"scope"`
	Step        int            `json:"step"`
	Turn        int            `json:"turn"`
	Passed      bool           `json:"passed"`
	Score       float64        `json:"score"`
	Message     string         `json:"message"`
	Details     map[string]any `json:"details,omitempty"`
	Weight      float64        `json:"weight"`
	Critical    bool           `json:"critical,omitempty"`
	Error       string         `json:"error,omitempty"`
}

// Turn mirrors one transcript message (evaluate.Turn) in a job record.
type Turn struct {
	Role     string        `json:"role"`
	Text     string        `json:"text"`
	At       time.Time     `json:"at"`
	Duration time.Duration `json:"duration"`
	Actions  []Action      `json:"actions,omitempty"`
}

// Action mirrors one agent action (evaluate.Action) in a transcript.
type Action struct {
	Name   string         `json:"name"`
	Args   map[string]any `json:"args,omitempty"`
	Result any            `json:"result,omitempty"`
	Error  string         `json:"error,omitempty"`
	Start  time.Time      `json:"start"`
	End    time.Time      `json:"end"`
}

// Usage mirrors the token counts (llm.Usage) in a job record.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// job converts the statistics fields to a Job: for a record whose details
// do not decode (decodeErr set), or when the details are not needed.
func (r *lineRecord) job(decodeErr error) *Job {
	j := &Job{ID: r.ID, Index: r.Index, Scenario: r.Scenario, ScenarioName: r.ScenarioName, Matrix: r.Matrix,
		Combination: r.Combination, Run: r.Run, Attempts: r.Attempts, Completed: r.Completed,
		Passed: r.Passed, TerminationReasons: r.TerminationReasons, DurationMS: r.DurationMS,
		Usage: r.Usage}
	// Both decoded once already when the record was first read.
	j.Params, _ = r.params()
	_ = decodeOptional(r.Started, &j.Started)
	if decodeErr != nil {
		j.DecodeError = decodeErr.Error()
	}
	for _, e := range r.Evaluations {
		j.Evaluations = append(j.Evaluations, Evaluation{Type: e.Type, Description: e.Description, Passed: e.Passed, Error: e.Error})
	}
	return j
}
