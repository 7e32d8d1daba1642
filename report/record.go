package report

import (
	"encoding/json"
	"fmt"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// lineRecord is what the first pass decodes from every line of a results
// file (results.Plan and results.Job, as the results package writes them):
// the plan's fields and the job's that statistics need, nothing bulky (no
// transcript, no evaluation messages or details), so reading 10^5 records
// costs their counts, not their text.
type lineRecord struct {
	Record string `json:"record"`
	// reviewed is set when a person's review gave the record its verdict.
	reviewed bool

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
	// Estimate is a plan's forecast (plans of runs with a budget).
	Estimate *results.Estimate `json:"estimate"`

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
	Usage              llm.Usage    `json:"usage"`
	// Cost is the job's cost by role (results.Cost), absent when the run
	// priced nothing.
	Cost costRecord `json:"cost"`
	// Agent (a job's suite agent; a plan's agent spec, above), Model and
	// the efficiency totals (not the categories) of a suite's job.
	Model      string `json:"model"`
	Efficiency struct {
		Turns     int `json:"turns"`
		ToolCalls struct {
			Total      int            `json:"total"`
			Failed     int            `json:"failed"`
			ByCategory results.Counts `json:"by_category"`
		} `json:"tool_calls"`
	} `json:"efficiency"`
}

// evalRecord is the part of an evaluation result the statistics need.
type evalRecord struct {
	Type        string `json:"type"`
	Description string `json:"description"`
	Passed      bool   `json:"passed"`
	Error       string `json:"error"`
}

// plan returns the plan fields; it fails like decoding a results.Plan would.
func (r *lineRecord) plan() (results.Plan, error) {
	p := results.Plan{RunID: r.RunID, TotalJobs: r.TotalJobs, Shard: r.Shard,
		ShardJobs: r.ShardJobs, Agent: r.Agent, Sources: r.Sources, Seed: r.Seed, Estimate: r.Estimate}
	if err := decodeOptional(r.Started, &p.Started); err != nil {
		return results.Plan{}, fmt.Errorf("plan started: %w", err)
	}
	return p, nil
}

// params decodes the job's parameters: their values one by one with
// jsonl (a matrix's values are mostly scalars), else, with its error, by
// encoding/json.
func (r *lineRecord) params() (map[string]any, error) {
	m, err := decodeParams(r.Params)
	if err != nil {
		return nil, fmt.Errorf("job params: %w", err)
	}
	return m, nil
}

// decodeParams decodes a job's params as encoding/json decodes them into a
// map[string]any (absent or null: nil).
func decodeParams(raw []byte) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	m := map[string]any{}
	err := jsonl.EachField(raw, func(key []byte, v jsonl.Value) error {
		x, err := v.Any()
		m[jsonl.Key(key)] = x
		return err
	})
	if err == nil {
		return m, nil
	}
	m = nil
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
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

// job converts the statistics fields to a Job: for a record whose details
// do not decode (decodeErr set), or when the details are not needed.
func (r *lineRecord) job(decodeErr error) *results.Job {
	j := &results.Job{ID: r.ID, Index: r.Index, Scenario: r.Scenario, ScenarioName: r.ScenarioName, Matrix: r.Matrix,
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
		j.Evaluations = append(j.Evaluations, results.Evaluation{Type: e.Type, Description: e.Description, Passed: e.Passed, Error: e.Error})
	}
	return j
}
