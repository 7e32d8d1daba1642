// Package elizarun converts between agenteval's job records and the run
// files of the ElizaOS CLI (`elizaos scenario run` and `scenario matrix`,
// version 1.7): ScenarioRunResult, MatrixRunResult and the matrix's
// summary.json (MatrixExecutionSummary), as the CLI's schema.ts and
// matrix-orchestrator.ts define them.
//
// Export: Scenario and Matrix turn one job record into each shape, Export
// writes a folder of them (summary.json streamed, the runs not held).
// Import: Decode reads one run file, Records turns many into the records of
// one results file, IsRunFile says whether a file is one by its name.
//
// Where upstream's files differ from what its documentation promises, the
// shapes stay upstream's (a reader such as `elizaos report generate` must
// accept them) and the numbers are honest: metrics count what the run
// recorded (upstream writes llm_calls 1 and total_tokens 500 for every
// single run), and a summary counts passed runs beside upstream's
// "successful" (completed) runs, which are all its success rates count.
package elizarun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// Evaluation is upstream's EnhancedEvaluationResult.
type Evaluation struct {
	EvaluatorType string         `json:"evaluator_type"`
	Success       bool           `json:"success"`
	Summary       string         `json:"summary"`
	Details       map[string]any `json:"details"`
}

// Step is one trajectory step: "thought", "action" or "observation", an
// ISO timestamp, and its content (text, or an action's name and
// parameters).
type Step struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Content   any    `json:"content"`
}

// Metrics are a run's metrics: the three upstream requires, and further
// numbers it allows.
type Metrics struct {
	ExecutionTimeSeconds float64 `json:"execution_time_seconds"`
	LLMCalls             int     `json:"llm_calls"`
	TotalTokens          int     `json:"total_tokens"`
	PromptTokens         int     `json:"prompt_tokens,omitempty"`
	CompletionTokens     int     `json:"completion_tokens,omitempty"`
	Score                float64 `json:"score"`
	Attempts             int     `json:"attempts,omitempty"`
}

// ScenarioRun is upstream's ScenarioRunResult, the file `scenario run`
// writes and `report generate` reads.
type ScenarioRun struct {
	RunID              string         `json:"run_id"`
	CombinationID      string         `json:"matrix_combination_id"`
	Parameters         map[string]any `json:"parameters"`
	Metrics            Metrics        `json:"metrics"`
	FinalAgentResponse *string        `json:"final_agent_response,omitempty"`
	Evaluations        []Evaluation   `json:"evaluations"`
	Trajectory         []Step         `json:"trajectory"`
	Error              *string        `json:"error"`
	// Success is the judged verdict, which upstream's ScenarioRunResult
	// lacks (its scenario run prints it and exits with it): agenteval
	// writes it so that reading the file back keeps the verdict, and
	// readers that do not know it ignore it.
	Success             *bool   `json:"success,omitempty"`
	startTime, duration float64 // read from a MatrixRunResult (ms since epoch, ms)
}

// MatrixResult is a MatrixRunResult's scenarioResult: the judged verdict
// and what the steps did.
type MatrixResult struct {
	Success          bool         `json:"success"`
	Evaluations      []Evaluation `json:"evaluations"`
	ExecutionResults []Execution  `json:"executionResults"`
	TokenCount       int          `json:"tokenCount"`
	Duration         float64      `json:"duration"`
}

// Execution is upstream's ExecutionResult of one step.
type Execution struct {
	ExitCode    int     `json:"exitCode"`
	Stdout      string  `json:"stdout"`
	Stderr      string  `json:"stderr"`
	StartedAtMs float64 `json:"startedAtMs"`
	EndedAtMs   float64 `json:"endedAtMs"`
	DurationMs  float64 `json:"durationMs"`
	Trajectory  []Step  `json:"trajectory"`
}

// MatrixRun is upstream's MatrixRunResult (runs/<runId>.json of a matrix
// run, and the runs of summary.json's combinations).
type MatrixRun struct {
	RunID          string         `json:"runId"`
	CombinationID  string         `json:"combinationId"`
	Parameters     map[string]any `json:"parameters"`
	StartTime      string         `json:"startTime"`
	EndTime        string         `json:"endTime"`
	Duration       float64        `json:"duration"`
	Success        bool           `json:"success"`
	ScenarioResult *MatrixResult  `json:"scenarioResult,omitempty"`
	Error          string         `json:"error,omitempty"`
	Metrics        MatrixMetrics  `json:"metrics"`
}

// MatrixMetrics are a matrix run's resource figures. agenteval measures
// tokens; the resource percentages upstream samples from the machine are 0.
type MatrixMetrics struct {
	MemoryUsage float64 `json:"memoryUsage"`
	DiskUsage   float64 `json:"diskUsage"`
	TokenCount  int     `json:"tokenCount"`
	CPUUsage    float64 `json:"cpuUsage"`
}

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func iso(t time.Time) string { return t.UTC().Format(timeLayout) }

// Scenario returns the ScenarioRunResult of one job record. The run id is
// the job's id; the combination id its combination (a scenario outside a
// matrix is "single-" and its scenario's id, as upstream's single runs);
// parameters its matrix parameters, or {"scenario.file": id} outside a
// matrix as upstream writes them; the trajectory is the transcript as
// observations ("User message: …", "Agent message: …") with each action
// before the message it led to; error is null for a completed job and its
// reason otherwise; success the verdict of a completed job.
func Scenario(j *results.Job) ScenarioRun {
	s := ScenarioRun{
		RunID:         j.ID,
		CombinationID: combinationID(j),
		Parameters:    parameters(j),
		Metrics: Metrics{
			ExecutionTimeSeconds: j.DurationMS / 1000,
			LLMCalls:             llmCalls(j),
			TotalTokens:          totalTokens(j.Usage),
			PromptTokens:         j.Usage.PromptTokens,
			CompletionTokens:     j.Usage.CompletionTokens,
			Score:                j.Score,
			Attempts:             j.Attempts,
		},
		Evaluations: evaluations(j),
		Trajectory:  trajectory(j),
	}
	if j.Completed {
		passed := j.Passed
		s.Success = &passed
	}
	if reply, ok := finalReply(j); ok {
		s.FinalAgentResponse = &reply
	}
	if !j.Completed {
		why := j.Reason
		if j.Error != "" && !strings.Contains(why, j.Error) {
			why += ": " + j.Error
		}
		s.Error = &why
	}
	return s
}

// Matrix returns the MatrixRunResult of one job record: success is
// upstream's "the run completed", scenarioResult.success the verdict.
func Matrix(j *results.Job) MatrixRun {
	s := Scenario(j)
	m := MatrixRun{
		RunID:         j.ID,
		CombinationID: s.CombinationID,
		Parameters:    s.Parameters,
		StartTime:     iso(j.Started),
		EndTime:       iso(j.Started.Add(time.Duration(j.DurationMS * float64(time.Millisecond)))),
		Duration:      j.DurationMS,
		Success:       j.Completed,
		Metrics:       MatrixMetrics{TokenCount: s.Metrics.TotalTokens},
	}
	if s.Error != nil {
		m.Error = *s.Error
	}
	if j.Completed {
		reply, _ := finalReply(j)
		start := float64(j.Started.UnixMilli())
		m.ScenarioResult = &MatrixResult{
			Success:     j.Passed,
			Evaluations: s.Evaluations,
			ExecutionResults: []Execution{{
				Stdout: reply, StartedAtMs: start, EndedAtMs: start + j.DurationMS,
				DurationMs: j.DurationMS, Trajectory: s.Trajectory,
			}},
			TokenCount: s.Metrics.TotalTokens,
			Duration:   j.DurationMS,
		}
	}
	return m
}

func combinationID(j *results.Job) string {
	if j.Combination == "" || j.Combination == "-" {
		return "single-" + j.Scenario
	}
	return j.Combination
}

func parameters(j *results.Job) map[string]any {
	if len(j.Params) == 0 {
		return map[string]any{"scenario.file": j.Scenario}
	}
	return maps.Clone(j.Params)
}

func totalTokens(u llm.Usage) int {
	if u.TotalTokens > 0 {
		return u.TotalTokens
	}
	return u.PromptTokens + u.CompletionTokens
}

// llmCalls counts the agent's model calls as its replies: one a message of
// the assistant in the transcript (a reply is at least one call; an agent
// that made more does not say so).
func llmCalls(j *results.Job) int {
	n := 0
	for _, t := range j.Transcript {
		if t.Role == "assistant" {
			n++
		}
	}
	return n
}

func finalReply(j *results.Job) (string, bool) {
	for i := len(j.Transcript) - 1; i >= 0; i-- {
		if j.Transcript[i].Role == "assistant" {
			return j.Transcript[i].Text, true
		}
	}
	return "", false
}

func evaluations(j *results.Job) []Evaluation {
	out := make([]Evaluation, 0, len(j.Evaluations)+len(j.Checkpoints))
	for _, e := range j.Evaluations {
		d := maps.Clone(e.Details)
		if d == nil {
			d = map[string]any{}
		}
		d["where"] = e.Where()
		d["score"] = e.Score
		if e.Description != "" {
			d["description"] = e.Description
		}
		if e.Error != "" {
			d["error"] = e.Error
		}
		out = append(out, Evaluation{EvaluatorType: e.Type, Success: e.Passed, Summary: e.Message, Details: d})
	}
	for _, c := range j.Checkpoints {
		d := map[string]any{"checkpoint": c.ID, "task": c.Task, "expected": c.Expected}
		if c.Error != "" {
			d["error"] = c.Error
		}
		out = append(out, Evaluation{EvaluatorType: "checkpoint", Success: c.Passed, Summary: c.Description, Details: d})
	}
	return out
}

// trajectory lays the transcript out as upstream reconstructs it from the
// agent's memories: each message an observation (after the agent's
// thought, a thought step, when it reported one), each action an action
// step with its name and parameters (and what it returned, or its error).
func trajectory(j *results.Job) []Step {
	var out []Step
	for _, t := range j.Transcript {
		who := "User"
		if t.Role == "assistant" {
			who = "Agent"
		}
		for _, a := range t.Actions {
			c := map[string]any{"name": a.Name, "parameters": a.Args}
			if a.Args == nil {
				c["parameters"] = map[string]any{}
			}
			if a.Result != nil {
				c["result"] = a.Result
			}
			if a.Error != "" {
				c["error"] = a.Error
			}
			at := a.Start
			if at.IsZero() {
				at = t.At
			}
			out = append(out, Step{Type: "action", Timestamp: iso(at), Content: c})
		}
		if t.Thought != "" {
			out = append(out, Step{Type: "thought", Timestamp: iso(t.At), Content: t.Thought})
		}
		out = append(out, Step{Type: "observation", Timestamp: iso(t.At), Content: who + " message: " + t.Text})
	}
	if out == nil {
		out = []Step{}
	}
	return out
}

// Summary accumulates a matrix's summary.json (upstream's
// MatrixExecutionSummary) one run at a time. Its combinations hold counts,
// not runs: Export streams each combination's runs into the file.
type Summary struct {
	TotalRuns      int     `json:"totalRuns"`
	SuccessfulRuns int     `json:"successfulRuns"`
	FailedRuns     int     `json:"failedRuns"`
	PassedRuns     int     `json:"passedRuns"`
	TotalDuration  float64 `json:"totalDuration"`
	AverageRunTime float64 `json:"averageRunTime"`
	SuccessRate    float64 `json:"successRate"`
	PassRate       float64 `json:"passRate"`
	StartTime      string  `json:"startTime"`
	EndTime        string  `json:"endTime"`
	// ResourceUsage is upstream's machine sampling (memory, disk and CPU
	// percentages), which agenteval does not do: all 0.
	ResourceUsage struct {
		PeakMemoryUsage    float64 `json:"peakMemoryUsage"`
		PeakDiskUsage      float64 `json:"peakDiskUsage"`
		PeakCPUUsage       float64 `json:"peakCpuUsage"`
		AverageMemoryUsage float64 `json:"averageMemoryUsage"`
		AverageDiskUsage   float64 `json:"averageDiskUsage"`
		AverageCPUUsage    float64 `json:"averageCpuUsage"`
	} `json:"resourceUsage"`
	start, end time.Time
}

// Combination is one combination's counts in summary.json (its id,
// parameters and runs are written before them, in the same object).
type Combination struct {
	CombinationID   string         `json:"-"`
	Parameters      map[string]any `json:"-"`
	TotalRuns       int            `json:"totalRuns"`
	SuccessfulRuns  int            `json:"successfulRuns"`
	FailedRuns      int            `json:"failedRuns"`
	PassedRuns      int            `json:"passedRuns"`
	SuccessRate     float64        `json:"successRate"`
	PassRate        float64        `json:"passRate"`
	AverageDuration float64        `json:"averageDuration"`
}

// Add counts one run of c, started at started, into c and s.
func (s *Summary) Add(c *Combination, m *MatrixRun, started time.Time) {
	s.TotalRuns++
	c.TotalRuns++
	if m.Success {
		s.SuccessfulRuns++
		c.SuccessfulRuns++
	} else {
		s.FailedRuns++
		c.FailedRuns++
	}
	if m.ScenarioResult != nil && m.ScenarioResult.Success {
		s.PassedRuns++
		c.PassedRuns++
	}
	s.TotalDuration += m.Duration
	c.AverageDuration += (m.Duration - c.AverageDuration) / float64(c.TotalRuns)
	c.SuccessRate = float64(c.SuccessfulRuns) / float64(c.TotalRuns)
	c.PassRate = float64(c.PassedRuns) / float64(c.TotalRuns)
	end := started.Add(time.Duration(m.Duration * float64(time.Millisecond)))
	if s.start.IsZero() || started.Before(s.start) {
		s.start = started
	}
	if end.After(s.end) {
		s.end = end
	}
}

// Finish computes the summary's averages and rates.
func (s *Summary) Finish() {
	if s.TotalRuns > 0 {
		s.AverageRunTime = s.TotalDuration / float64(s.TotalRuns)
		s.SuccessRate = float64(s.SuccessfulRuns) / float64(s.TotalRuns)
		s.PassRate = float64(s.PassedRuns) / float64(s.TotalRuns)
	}
	if !s.start.IsZero() {
		s.StartTime, s.EndTime = iso(s.start), iso(s.end)
	}
}

// IsRunFile says whether name is an ElizaOS run file by its name, as
// `elizaos report generate` globs them: run-….json (scenario run's
// centralised result in _logs_, a matrix folder's runs/run-….json), not the
// per-step -execution.json and -evaluation.json files beside them.
func IsRunFile(name string) bool {
	base := filepath.Base(name)
	return strings.HasPrefix(base, "run-") && strings.HasSuffix(base, ".json") &&
		!strings.HasSuffix(base, "-execution.json") && !strings.HasSuffix(base, "-evaluation.json")
}

// ErrNotRunFile is returned by Read for JSON that is neither a
// ScenarioRunResult nor a MatrixRunResult.
var ErrNotRunFile = errors.New("not an ElizaOS run file")

// Decode reads one ElizaOS run file's bytes: a ScenarioRunResult, or a
// MatrixRunResult (converted as `report generate` does, keeping the judged
// verdict and every step's trajectory it drops). Errors name the field
// that is wrong, and a syntax error its line and column.
func Decode(name string, data []byte) (ScenarioRun, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return ScenarioRun{}, fmt.Errorf("%s: %w", name, jsonError(data, err))
	}
	_, scen := probe["run_id"]
	_, mat := probe["runId"]
	switch {
	case scen:
		var s ScenarioRun
		if err := json.Unmarshal(data, &s); err != nil {
			return ScenarioRun{}, fmt.Errorf("%s: %w", name, jsonError(data, err))
		}
		return s, checkScenario(name, &s)
	case mat:
		var m MatrixRun
		if err := json.Unmarshal(data, &m); err != nil {
			return ScenarioRun{}, fmt.Errorf("%s: %w", name, jsonError(data, err))
		}
		return fromMatrix(name, &m)
	}
	return ScenarioRun{}, fmt.Errorf("%s: %w: want a ScenarioRunResult (with run_id, matrix_combination_id, metrics, evaluations, trajectory, error) or a MatrixRunResult (with runId, combinationId, startTime, endTime)", name, ErrNotRunFile)
}

func checkScenario(name string, s *ScenarioRun) error {
	switch {
	case s.RunID == "":
		return fmt.Errorf("%s: run_id: want a non-empty string", name)
	case s.CombinationID == "":
		return fmt.Errorf("%s: matrix_combination_id: want a non-empty string", name)
	case s.Metrics.ExecutionTimeSeconds < 0 || math.IsNaN(s.Metrics.ExecutionTimeSeconds):
		return fmt.Errorf("%s: metrics.execution_time_seconds: want a number ≥ 0, got %v", name, s.Metrics.ExecutionTimeSeconds)
	}
	kinds := []string{"thought", "action", "observation"}
	for i, st := range s.Trajectory {
		if !slices.Contains(kinds, st.Type) {
			msg := fmt.Sprintf("%s: trajectory[%d].type: want thought, action or observation, got %q", name, i, st.Type)
			if near := textdist.Suggest(st.Type, kinds); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			return errors.New(msg)
		}
	}
	return nil
}

func fromMatrix(name string, m *MatrixRun) (ScenarioRun, error) {
	switch {
	case m.RunID == "":
		return ScenarioRun{}, fmt.Errorf("%s: runId: want a non-empty string", name)
	case m.CombinationID == "":
		return ScenarioRun{}, fmt.Errorf("%s: combinationId: want a non-empty string", name)
	}
	start, err := time.Parse(time.RFC3339Nano, m.StartTime)
	if err != nil {
		return ScenarioRun{}, fmt.Errorf("%s: startTime: want an ISO time, got %q", name, m.StartTime)
	}
	s := ScenarioRun{
		RunID: m.RunID, CombinationID: m.CombinationID, Parameters: m.Parameters,
		Metrics:    Metrics{ExecutionTimeSeconds: m.Duration / 1000, TotalTokens: m.Metrics.TokenCount},
		startTime:  float64(start.UnixMilli()),
		duration:   m.Duration,
		Trajectory: []Step{},
	}
	if m.Error != "" || !m.Success {
		why := m.Error
		if why == "" {
			why = "the run did not complete"
		}
		s.Error = &why
	}
	if r := m.ScenarioResult; r != nil {
		ok := r.Success
		s.Success = &ok
		s.Evaluations = r.Evaluations
		for i, e := range r.ExecutionResults {
			s.Trajectory = append(s.Trajectory, e.Trajectory...)
			if i == len(r.ExecutionResults)-1 {
				out := e.Stdout
				s.FinalAgentResponse = &out
			}
		}
	}
	return s, nil
}

// jsonError adds the line and column of a syntax error's offset.
func jsonError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 {
		return err
	}
	before := data[:min(int(off), len(data))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if te != nil && te.Field != "" {
		return fmt.Errorf("line %d, column %d: %s: want %s, got %s", line, col, te.Field, te.Type, te.Value)
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

// Job turns a decoded run into agenteval's job record: id
// scenario/combination/run-N (the caller numbers the runs of one
// combination), completed when error is null, passed when the judged
// verdict (a matrix run's scenarioResult.success) says so or, for a
// ScenarioRunResult that does not carry it, when every evaluation passed
// (the all_pass judgment upstream defaults to), score the fraction of
// evaluations that passed.
func (s *ScenarioRun) Job(scenario, combination string, run int, index int64) *results.Job {
	params := maps.Clone(s.Parameters)
	delete(params, "scenario.file")
	if len(params) == 0 {
		params = nil
	}
	j := &results.Job{
		Record:      results.RecordJob,
		ID:          scenario + "/" + combination + "/run-" + fmt.Sprint(run),
		Index:       index,
		Scenario:    scenario,
		Combination: combination,
		Params:      params,
		Run:         run,
		Attempts:    1,
		Completed:   s.Error == nil,
		Strategy:    "all_pass",
		Agent:       "elizaos",
		DurationMS:  s.Metrics.ExecutionTimeSeconds * 1000,
		Usage:       llm.Usage{TotalTokens: s.Metrics.TotalTokens, PromptTokens: s.Metrics.PromptTokens, CompletionTokens: s.Metrics.CompletionTokens},
	}
	j.Started = s.started()
	passed := 0
	for _, e := range s.Evaluations {
		ev := results.Evaluation{Type: e.EvaluatorType, Scope: results.ScopeStep, Passed: e.Success, Message: e.Summary, Details: e.Details, Weight: 1}
		// What Export keeps in details (upstream has no field for them).
		ev.Description, _ = e.Details["description"].(string)
		ev.Error, _ = e.Details["error"].(string)
		if e.Success {
			ev.Score = 1
			passed++
		}
		j.Evaluations = append(j.Evaluations, ev)
	}
	if j.Evaluations == nil {
		j.Evaluations = []results.Evaluation{}
	}
	if len(s.Evaluations) > 0 {
		j.Score = float64(passed) / float64(len(s.Evaluations))
	}
	switch {
	case !j.Completed:
		j.Reason = *s.Error
		j.Error = *s.Error
	case s.Success != nil:
		j.Passed = *s.Success
		j.Strategy = "recorded"
	default:
		j.Passed = passed == len(s.Evaluations)
	}
	if j.Completed {
		switch {
		case j.Passed:
			j.Reason = fmt.Sprintf("%d of %d evaluations passed", passed, len(s.Evaluations))
		default:
			j.Reason = fmt.Sprintf("%d of %d evaluations failed", len(s.Evaluations)-passed, len(s.Evaluations))
		}
		if len(s.Evaluations) == 0 && s.Success == nil {
			j.Passed, j.Completed = false, false
			j.Reason = "the run file holds no evaluation: no verdict"
			j.Cause = results.CauseNoVerdict
		}
	}
	j.Transcript = transcript(s)
	return j
}

// started is when the run began: a matrix run's startTime, else its first
// trajectory step's time (zero when neither says).
func (s *ScenarioRun) started() time.Time {
	if s.startTime > 0 {
		return time.UnixMilli(int64(s.startTime)).UTC()
	}
	if len(s.Trajectory) > 0 {
		if t, err := time.Parse(time.RFC3339Nano, s.Trajectory[0].Timestamp); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// transcript rebuilds the messages, thoughts and actions from a
// trajectory's observations ("User message: …", "Agent message: …"),
// thought and action steps (each kept for the agent message after it);
// a run with no messages keeps its final response as the agent's one.
func transcript(s *ScenarioRun) []results.Turn {
	var out []results.Turn
	var pending []results.Action
	var thought []string
	for _, st := range s.Trajectory {
		at, _ := time.Parse(time.RFC3339Nano, st.Timestamp)
		switch st.Type {
		case "thought":
			if text, ok := st.Content.(string); ok && text != "" {
				thought = append(thought, text)
			}
		case "action":
			a := results.Action{Start: at, End: at}
			switch c := st.Content.(type) {
			case map[string]any:
				a.Name, _ = c["name"].(string)
				if p, ok := c["parameters"].(map[string]any); ok && len(p) > 0 {
					a.Args = p
				}
				a.Result = c["result"]
				a.Error, _ = c["error"].(string)
			default:
				a.Name = fmt.Sprint(c)
			}
			pending = append(pending, a)
		case "observation":
			text, _ := st.Content.(string)
			switch {
			case strings.HasPrefix(text, "User message: "):
				out = append(out, results.Turn{Role: "user", Text: strings.TrimPrefix(text, "User message: "), At: at})
			case strings.HasPrefix(text, "Agent message: "):
				out = append(out, results.Turn{Role: "assistant", Text: strings.TrimPrefix(text, "Agent message: "), At: at,
					Thought: strings.Join(thought, "\n"), Actions: pending})
				pending, thought = nil, nil
			}
		}
	}
	if len(pending) > 0 || len(thought) > 0 || (len(out) == 0 && s.FinalAgentResponse != nil) {
		t := results.Turn{Role: "assistant", Thought: strings.Join(thought, "\n"), Actions: pending}
		if s.FinalAgentResponse != nil {
			t.Text = *s.FinalAgentResponse
		}
		out = append(out, t)
	}
	return out
}
