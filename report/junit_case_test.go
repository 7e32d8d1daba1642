package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// junitFields is what a JUnit testcase and suite show of a passing job.
func junitFields(j *results.Job) results.Job {
	return results.Job{ID: j.ID, Index: j.Index, Matrix: j.Matrix, Combination: j.Combination, Agent: j.Agent, Model: j.Model,
		Attempts: j.Attempts, Completed: j.Completed, Passed: j.Passed, DurationMS: j.DurationMS, Score: j.Score, Reason: j.Reason,
		Strategy: j.Strategy, Cause: j.Cause, TerminationReasons: j.TerminationReasons, Usage: j.Usage, Params: j.Params}
}

// TestCaseJobReadsWhatJSONReads: the fields caseJob picks out of a record
// line are those encoding/json decodes, whatever the line's escapes,
// nesting and field order; what it cannot read plainly it leaves to a full
// decode.
func TestCaseJobReadsWhatJSONReads(t *testing.T) {
	t.Parallel()
	full := results.Job{ID: "s/c-1/run-2", Index: 41, Scenario: "s", Matrix: "m \"quoted\" \\ é", Combination: "c-1",
		Agent: "openai:gpt\u2028x", Model: "m/1", Run: 2, Attempts: 1, Completed: true, Passed: true, Score: 0.75,
		Reason: "all 3 evaluations passed\nline two \u001b[31m", Strategy: "all_pass", DurationMS: 12.345,
		TerminationReasons: []string{"done", "tab\there"}, Usage: llm.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7},
		Params:      map[string]any{"run[0].input": "Q \"1\"", "n": 2.5, "nested": map[string]any{"a": []any{1.0, "x", nil}}},
		Transcript:  []results.Turn{{Role: "user", Text: `{"id": "not this", "usage": {"total_tokens": 99}}`}},
		Evaluations: []results.Evaluation{{Type: "string_contains", Passed: true, Message: `"passed": false, "score": 0`}}}
	line, err := json.Marshal(full)
	require.NoError(t, err)
	for name, line := range map[string]string{
		"as written": string(line),
		"fields reordered": `{"usage":{"total_tokens":7,"prompt_tokens":3,"completion_tokens":4},"transcript":[{"role":"user","text":"{\"id\":1}"}],` +
			`"params":{"k":"v"},"passed":true,"completed":true,"id":"a\/b\u0041/run-1","index":0,"attempts":1,"record":"job"}`,
		"nulls": `{"id":"x/run-1","index":3,"reason":null,"termination_reasons":null,"usage":null,"params":null,"passed":true,"completed":true,"attempts":1}`,
		"bare":  `{"id":"x/run-1","index":3,"passed":true,"completed":true}`,
	} {
		got, ok := caseJob([]byte(line))
		require.True(t, ok, name)
		var want results.Job
		require.NoError(t, json.Unmarshal([]byte(line), &want), name)
		assert.Equal(t, junitFields(&want), junitFields(got), name)
	}
	for name, line := range map[string]string{
		"attempt log":    `{"id":"x/run-1","index":3,"attempts":2,"attempt_log":[{"n":1,"status":"failed"}],"passed":true,"completed":true}`,
		"index a string": `{"id":"x/run-1","index":"3","passed":true,"completed":true}`,
		"id a number":    `{"id":7,"index":3,"passed":true,"completed":true}`,
		"params a list":  `{"id":"x/run-1","index":3,"params":[1],"passed":true,"completed":true}`,
		"bad usage":      `{"id":"x/run-1","index":3,"usage":{"total_tokens":"many"},"passed":true,"completed":true}`,
		"bad reason":     `{"id":"x/run-1","index":3,"termination_reasons":[1],"passed":true,"completed":true}`,
	} {
		_, ok := caseJob([]byte(line))
		assert.False(t, ok, name)
	}
}

// FuzzCaseJob: no line makes caseJob panic, and a valid line it reads
// gives the index and id encoding/json gives.
func FuzzCaseJob(f *testing.F) {
	f.Add(`{"id":"x/run-1","index":3,"passed":true,"completed":true,"params":{"a":[1,{"b":"c"}]}}`)
	f.Add(`{"id":"x\u0041","termination_reasons":["a","b"],"usage":{"total_tokens":1}}`)
	f.Add(`{"id":`)
	f.Add(`[{"id":"x"}]`)
	f.Fuzz(func(t *testing.T, line string) {
		j, ok := caseJob([]byte(line))
		if !ok {
			return
		}
		var want struct {
			ID    *string `json:"id"`
			Index *int64  `json:"index"`
		}
		var top map[string]json.RawMessage
		// Only lines whose fields occur once say the same to both readers
		// (encoding/json keeps the last of a repeated field).
		if json.Unmarshal([]byte(line), &top) != nil || json.Unmarshal([]byte(line), &want) != nil || repeatsAKey(line) {
			return
		}
		if want.ID != nil {
			assert.Equal(t, *want.ID, j.ID)
		}
		if want.Index != nil {
			assert.Equal(t, *want.Index, j.Index)
		}
	})
}

// repeatsAKey says whether the line's top-level object names a key twice.
func repeatsAKey(line string) bool {
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return true
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		k, _ := tok.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return true
		}
	}
	return false
}
