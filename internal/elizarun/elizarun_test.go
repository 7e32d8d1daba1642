package elizarun

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 29, 1, 2, 3, 4_000_000, time.UTC)

// job builds a job record of the weather matrix: passed, failed or
// incomplete, with a step, a message each way and one action.
func job(combination string, run int, status string) *results.Job {
	j := &results.Job{
		Record: results.RecordJob, ID: "weather/" + combination + "/run-" + string(rune('0'+run)),
		Scenario: "weather", Combination: combination, Run: run, Attempts: 1,
		Params:     map[string]any{"character.llm.model": "gpt-" + combination},
		Started:    t0,
		DurationMS: 1500,
		Usage:      llm.Usage{PromptTokens: 30, CompletionTokens: 12, TotalTokens: 42},
		Transcript: []results.Turn{
			{Role: "user", Text: "Weather in Paris?", At: t0},
			{Role: "assistant", Text: "Sunny, 21 °C.", At: t0.Add(time.Second), Thought: "Paris: ask the weather service.", Actions: []results.Action{{
				Name: "GET_WEATHER", Args: map[string]any{"city": "Paris"}, Result: map[string]any{"temp_c": 21.0},
				Start: t0.Add(500 * time.Millisecond), End: t0.Add(900 * time.Millisecond),
			}}},
		},
		Evaluations: []results.Evaluation{
			{Type: "string_contains", Scope: results.ScopeStep, Passed: true, Score: 1, Message: `reply contains "sunny"`, Weight: 1},
			{Type: "trajectory_contains_action", Scope: results.ScopeStep, Passed: status == "pass", Message: "GET_WEATHER", Weight: 1,
				Details: map[string]any{"action": "GET_WEATHER"}},
		},
	}
	switch status {
	case "pass":
		j.Completed, j.Passed, j.Score, j.Reason = true, true, 1, "all evaluations passed"
	case "fail":
		j.Completed, j.Score, j.Reason = true, 0.5, "1 of 2 evaluations failed"
	case "incomplete":
		j.Reason, j.Error, j.Cause = "the agent crashed", "exit status 2", results.CauseAgentCrash
		j.Evaluations = nil
	}
	return j
}

func TestScenarioShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status      string
		wantError   *string
		wantSuccess *bool
	}{
		{status: "pass", wantSuccess: new(true)},
		{status: "fail", wantSuccess: new(false)},
		{status: "incomplete", wantError: new("the agent crashed: exit status 2")},
	} {
		t.Run(tc.status, func(t *testing.T) {
			t.Parallel()
			j := job("a", 1, tc.status)
			s := Scenario(j)
			assert.Equal(t, j.ID, s.RunID)
			assert.Equal(t, "a", s.CombinationID)
			assert.Equal(t, map[string]any{"character.llm.model": "gpt-a"}, s.Parameters)
			assert.Equal(t, tc.wantError, s.Error)
			assert.Equal(t, tc.wantSuccess, s.Success)
			assert.Equal(t, Metrics{ExecutionTimeSeconds: 1.5, LLMCalls: 1, TotalTokens: 42, PromptTokens: 30, CompletionTokens: 12, Score: j.Score, Attempts: 1}, s.Metrics)
			require.NotNil(t, s.FinalAgentResponse)
			assert.Equal(t, "Sunny, 21 °C.", *s.FinalAgentResponse)
			require.Len(t, s.Trajectory, 4)
			assert.Equal(t, Step{Type: "observation", Timestamp: "2026-11-29T01:02:03.004Z", Content: "User message: Weather in Paris?"}, s.Trajectory[0])
			assert.Equal(t, Step{Type: "action", Timestamp: "2026-11-29T01:02:03.504Z",
				Content: map[string]any{"name": "GET_WEATHER", "parameters": map[string]any{"city": "Paris"}, "result": map[string]any{"temp_c": 21.0}}}, s.Trajectory[1])
			assert.Equal(t, Step{Type: "thought", Timestamp: "2026-11-29T01:02:04.004Z", Content: "Paris: ask the weather service."}, s.Trajectory[2])
			assert.Equal(t, "Agent message: Sunny, 21 °C.", s.Trajectory[3].Content)
			assert.Len(t, s.Evaluations, len(j.Evaluations))
			// The host's record is not shared with the shape.
			s.Parameters["x"] = 1
			assert.NotContains(t, j.Params, "x")
		})
	}
}

func TestSingleScenarioParametersAsUpstream(t *testing.T) {
	t.Parallel()
	j := job("-", 1, "pass")
	j.Combination, j.Params = "", nil
	s := Scenario(j)
	assert.Equal(t, "single-weather", s.CombinationID)
	assert.Equal(t, map[string]any{"scenario.file": "weather"}, s.Parameters)
}

func TestMatrixShape(t *testing.T) {
	t.Parallel()
	m := Matrix(job("a", 1, "fail"))
	assert.True(t, m.Success, "upstream's success is: the run completed")
	require.NotNil(t, m.ScenarioResult)
	assert.False(t, m.ScenarioResult.Success, "the verdict")
	assert.Equal(t, "2026-11-29T01:02:03.004Z", m.StartTime)
	assert.Equal(t, "2026-11-29T01:02:04.504Z", m.EndTime)
	assert.Equal(t, 42, m.Metrics.TokenCount)
	require.Len(t, m.ScenarioResult.ExecutionResults, 1)
	assert.Equal(t, "Sunny, 21 °C.", m.ScenarioResult.ExecutionResults[0].Stdout)

	inc := Matrix(job("a", 2, "incomplete"))
	assert.False(t, inc.Success)
	assert.Nil(t, inc.ScenarioResult)
	assert.Equal(t, "the agent crashed: exit status 2", inc.Error)
}

// seq yields jobs as report's Jobs does.
func seq(jobs ...*results.Job) func(func(*results.Job, error) bool) {
	return func(yield func(*results.Job, error) bool) {
		for _, j := range jobs {
			if !yield(j, nil) {
				return
			}
		}
	}
}

func TestExportThenReadKeepsVerdicts(t *testing.T) {
	t.Parallel()
	jobs := []*results.Job{job("a", 1, "pass"), job("a", 2, "fail"), job("b", 1, "pass"), job("b", 2, "incomplete")}
	dir := filepath.Join(t.TempDir(), "eliza")
	n, err := Export(dir, seq(jobs...))
	require.NoError(t, err)
	require.Equal(t, 4, n)

	var sum struct {
		Summary
		Combinations []struct {
			Combination
			CombinationID string         `json:"combinationId"`
			Parameters    map[string]any `json:"parameters"`
			Runs          []MatrixRun    `json:"runs"`
		} `json:"combinations"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &sum))
	assert.Equal(t, 4, sum.TotalRuns)
	assert.Equal(t, 3, sum.SuccessfulRuns, "upstream's successful: completed")
	assert.Equal(t, 1, sum.FailedRuns)
	assert.Equal(t, 2, sum.PassedRuns)
	assert.Equal(t, 0.75, sum.SuccessRate)
	assert.Equal(t, 0.5, sum.PassRate)
	assert.Equal(t, 1500.0, sum.AverageRunTime)
	require.Len(t, sum.Combinations, 2)
	assert.Equal(t, "b", sum.Combinations[1].CombinationID)
	assert.Equal(t, map[string]any{"character.llm.model": "gpt-b"}, sum.Combinations[1].Parameters)
	assert.Equal(t, 2, sum.Combinations[1].TotalRuns)
	assert.Equal(t, 1, sum.Combinations[1].PassedRuns)
	require.Len(t, sum.Combinations[1].Runs, 2)
	assert.Equal(t, jobs[3].ID, sum.Combinations[1].Runs[1].RunID)

	var files []File
	names, err := filepath.Glob(filepath.Join(dir, "run-*.json"))
	require.NoError(t, err)
	require.Len(t, names, 4)
	for _, name := range names {
		require.True(t, IsRunFile(name))
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		files = append(files, File{Name: name, Data: data})
	}
	recs, err := Records(files)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(recs)), "\n")
	require.Len(t, lines, 5)
	var plan results.Plan
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &plan))
	assert.Equal(t, int64(4), plan.TotalJobs)
	assert.Equal(t, "elizaos", plan.Agent)
	got := map[string][3]bool{}
	for _, line := range lines[1:] {
		var j results.Job
		require.NoError(t, json.Unmarshal([]byte(line), &j))
		got[j.Combination+"/"+j.Params["character.llm.model"].(string)+"/"+string(rune('0'+j.Run))] = [3]bool{j.Completed, j.Passed, len(j.Transcript) == 2}
		if j.Completed {
			require.Len(t, j.Transcript, 2)
			assert.Equal(t, "GET_WEATHER", j.Transcript[1].Actions[0].Name)
			assert.Equal(t, "Paris: ask the weather service.", j.Transcript[1].Thought, "the thought step comes back as the turn's thought")
			assert.Equal(t, map[string]any{"city": "Paris"}, j.Transcript[1].Actions[0].Args)
			assert.Equal(t, 42, j.Usage.TotalTokens)
			assert.Equal(t, 1500.0, j.DurationMS)
		}
	}
	assert.Equal(t, map[string][3]bool{
		"a/gpt-a/1": {true, true, true}, "a/gpt-a/2": {true, false, true},
		"b/gpt-b/1": {true, true, true}, "b/gpt-b/2": {false, false, true},
	}, got)

	_, err = Export(dir, seq(jobs...))
	require.ErrorContains(t, err, "already holds run files")
}

// An upstream single run (no verdict in the file: all evaluations must
// pass) and matrix runs (the verdict in scenarioResult.success), as the
// ElizaOS CLI 1.7.2 writes them.
const upstreamSingle = `{
  "run_id": "run-2025-09-18-001-10-42-07",
  "matrix_combination_id": "single-1758217327000-k3x9qa",
  "parameters": {"scenario.file": "examples/nl-smoke.scenario.yaml"},
  "metrics": {"execution_time_seconds": 4.2, "llm_calls": 1, "total_tokens": 500},
  "final_agent_response": "Hello! How can I help?",
  "evaluations": [
    {"evaluator_type": "string_contains", "success": true, "summary": "Assertion PASSED", "details": {}},
    {"evaluator_type": "llm_judge", "success": false, "summary": "judge said no", "details": {"qualitative_summary": "meh"}}
  ],
  "trajectory": [
    {"type": "thought", "timestamp": "2025-09-18T17:42:05.100Z", "content": "greet back"},
    {"type": "action", "timestamp": "2025-09-18T17:42:05.200Z", "content": {"name": "REPLY", "parameters": {}}},
    {"type": "observation", "timestamp": "2025-09-18T17:42:05.300Z", "content": "Agent message: Hello! How can I help?"}
  ],
  "error": null
}`

func matrixRun(id, combo string, success bool, verdict string) string {
	sr := ""
	if verdict != "" {
		sr = `,"scenarioResult":{"success":` + verdict + `,"evaluations":[{"evaluator_type":"string_contains","success":true,"summary":"ok","details":{}}],
		"executionResults":[{"exitCode":0,"stdout":"first","trajectory":[]},{"exitCode":0,"stdout":"last","trajectory":[{"type":"action","timestamp":"2025-09-18T17:42:06Z","content":{"name":"GET_WEATHER","parameters":{"city":"Oslo"}}}]}],"tokenCount":0,"duration":900}`
	}
	return `{"runId":"` + id + `","combinationId":"` + combo + `","parameters":{"character.llm.model":"` + combo + `"},
	"startTime":"2025-09-18T17:42:0` + id[len(id)-1:] + `.000Z","endTime":"2025-09-18T17:42:09.000Z","duration":900,"success":` +
		map[bool]string{true: "true", false: "false"}[success] + sr + `,"metrics":{"memoryUsage":0,"diskUsage":0,"tokenCount":77,"cpuUsage":0}}`
}

func TestReadUpstreamFiles(t *testing.T) {
	t.Parallel()
	files := []File{
		{Name: "_logs_/run-2025-09-18-001-10-42-07.json", Data: []byte(upstreamSingle)},
		{Name: "matrix-2025-09-18-001-10-42-00/runs/run-2.json", Data: []byte(matrixRun("run-2", "combo-001", true, "false"))},
		{Name: "matrix-2025-09-18-001-10-42-00/runs/run-1.json", Data: []byte(matrixRun("run-1", "combo-001", true, "true"))},
		{Name: "matrix-2025-09-18-001-10-42-00/runs/run-3.json", Data: []byte(matrixRun("run-3", "combo-002", false, ""))},
	}
	for _, f := range files {
		assert.True(t, IsRunFile(f.Name), f.Name)
	}
	recs, err := Records(files)
	require.NoError(t, err)
	var jobs []results.Job
	for i, line := range strings.Split(strings.TrimSpace(string(recs)), "\n") {
		if i == 0 {
			continue
		}
		var j results.Job
		require.NoError(t, json.Unmarshal([]byte(line), &j))
		jobs = append(jobs, j)
	}
	require.Len(t, jobs, 4)
	ids := slices.Collect(func(yield func(string) bool) {
		for _, j := range jobs {
			if !yield(j.ID) {
				return
			}
		}
	})
	assert.Equal(t, []string{
		"examples/nl-smoke.scenario.yaml/-/run-1",
		"matrix-2025-09-18-001-10-42-00/combo-001/run-1",
		"matrix-2025-09-18-001-10-42-00/combo-001/run-2",
		"matrix-2025-09-18-001-10-42-00/combo-002/run-1",
	}, ids, "runs numbered in time order within their combination")

	single := jobs[0]
	assert.True(t, single.Completed)
	assert.False(t, single.Passed, "without a verdict in the file, every evaluation must pass")
	assert.Equal(t, 0.5, single.Score)
	assert.Nil(t, single.Params, "scenario.file names the scenario, it is no parameter")
	require.Len(t, single.Transcript, 1)
	assert.Equal(t, "Hello! How can I help?", single.Transcript[0].Text)
	require.Len(t, single.Transcript[0].Actions, 1)
	assert.Equal(t, "greet back", single.Transcript[0].Thought, "upstream's thought step")
	assert.Equal(t, "REPLY", single.Transcript[0].Actions[0].Name)

	assert.True(t, jobs[1].Passed, "run-1: scenarioResult.success true")
	assert.Equal(t, "recorded", jobs[1].Strategy)
	assert.False(t, jobs[2].Passed, "run-2: scenarioResult.success false though every evaluation passed")
	assert.True(t, jobs[2].Completed)
	assert.Equal(t, "last", jobs[1].Transcript[0].Text, "the last step's output is the final reply")
	assert.Equal(t, "GET_WEATHER", jobs[1].Transcript[0].Actions[0].Name, "every step's trajectory is kept")
	assert.Equal(t, 77, jobs[1].Usage.TotalTokens)
	assert.False(t, jobs[3].Completed)
	assert.Equal(t, "the run did not complete", jobs[3].Reason)
	assert.Equal(t, map[string]any{"character.llm.model": "combo-002"}, maps.Clone(jobs[3].Params))
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, data, want string }{
		{"syntax", "{\n  \"run_id\": \"x\",\n  oops\n}", "f.json: line 3, column 3"},
		{"type", `{"run_id": 7}`, "f.json: line 1, column 12: run_id: want string, got number"},
		{"neither", `{"hello": 1}`, "not an ElizaOS run file: want a ScenarioRunResult"},
		{"empty run id", `{"run_id": "", "matrix_combination_id": "c"}`, "run_id: want a non-empty string"},
		{"no combination", `{"run_id": "r"}`, "matrix_combination_id: want a non-empty string"},
		{"negative time", `{"run_id": "r", "matrix_combination_id": "c", "metrics": {"execution_time_seconds": -1}}`, "metrics.execution_time_seconds: want a number ≥ 0"},
		{"step type", `{"run_id": "r", "matrix_combination_id": "c", "trajectory": [{"type": "thougth"}]}`, `trajectory[0].type: want thought, action or observation, got "thougth" (did you mean "thought"?)`},
		{"matrix time", `{"runId": "r", "combinationId": "c", "startTime": "yesterday"}`, `startTime: want an ISO time, got "yesterday"`},
		{"matrix id", `{"runId": "", "combinationId": "c"}`, "runId: want a non-empty string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode("f.json", []byte(tc.data))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestIsRunFile(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"_logs_/run-2025-09-18-001-10-42-07.json":                   true,
		"_logs_/run-2025-09-18-001-10-42-07-step-0-execution.json":  false,
		"_logs_/run-2025-09-18-001-10-42-07-step-0-evaluation.json": false,
		"matrix-x/runs/a1b2.json":                                   false,
		"matrix-x/runs/run-a1b2.json":                               true,
		"matrix-x/summary.json":                                     false,
		"out/results.jsonl":                                         false,
		"run-1.jsonl":                                               false,
	} {
		assert.Equal(t, want, IsRunFile(name), name)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(upstreamSingle))
	f.Add([]byte(matrixRun("run-1", "c", true, "true")))
	f.Add([]byte(`{"runId":"r","combinationId":"c","startTime":"2025-01-01T00:00:00Z","scenarioResult":{"executionResults":[{}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode("f.json", data)
		if err != nil {
			return
		}
		// Whatever decodes becomes a record that encodes.
		j := s.Job("s", "c", 1, 0)
		_, err = json.Marshal(j)
		require.NoError(t, err)
	})
}

// BenchmarkExport writes n jobs as ElizaOS run files: time and
// allocations per job stay flat as n grows (summary.json is streamed).
func BenchmarkExport(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("jobs=%d", n), func(b *testing.B) {
			jobs := make([]*results.Job, n)
			for i := range jobs {
				jobs[i] = job(fmt.Sprintf("c%d", i/10), i%10+1, "pass")
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Export(b.TempDir(), seq(jobs...)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/job")
		})
	}
}
