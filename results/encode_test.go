package results

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/jsonstr"
	"github.com/agenteval/agenteval/llm"
)

func stdEncode(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestAppendJobResultMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	started := time.Date(2026, 11, 22, 1, 2, 3, 456789000, time.UTC)
	full := &Job{Record: RecordJob, ID: "s/c-1/run-2", Index: 41, Scenario: "s", ScenarioName: "S <&> \"quoted\"", Matrix: "m",
		Combination: "c-1", Params: map[string]any{"run[0].input": "Q\u2028\t\x01é\xff", "n": json.Number("3"), "f": 0.1, "obj": map[string]any{"b": []any{true, nil, 1e21, 1e-7}}},
		Run: 2, Attempts: 3, Completed: true, Passed: false, Score: 2.0 / 3, Reason: "2 of 3", Strategy: "majority_pass",
		Evaluations: []Evaluation{
			{Type: "string_contains", Scope: ScopeStep, Turn: -1, Passed: true, Score: 1, Message: "ok", Details: map[string]any{"value": "x", "case_sensitive": false}, Weight: 1},
			{Type: "llm_judge", Description: "judge", Scope: ScopeTurn, Step: 1, Turn: 3, Score: 0.25, Message: "no", Weight: 2.5, Critical: true, Error: "e", Usage: llm.Usage{PromptTokens: 7, CompletionTokens: 1, TotalTokens: 8}},
		},
		Checkpoints:        []Checkpoint{{ID: "c", Description: "d", Task: "pr.view", Passed: true, Actual: json.RawMessage(`{"a":1}`), Expected: "non-empty"}},
		TerminationReasons: []string{"max_turns_reached"},
		Transcript:         []Turn{{Role: "user", Text: "hi", At: started, Duration: time.Second}},
		Started:            started, DurationMS: 12.345, Usage: llm.Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3, ReasoningTokens: 4, CacheReadTokens: 5, CacheWriteTokens: 6},
		UserUsage:  llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12},
		JudgeUsage: llm.Usage{PromptTokens: 7, CompletionTokens: 1, TotalTokens: 8},
		Cost:       &Cost{Agent: ptr(0.000123), User: ptr(0), Unpriced: []string{"judge: my \"model\""}, AsOf: []string{"2026-03-21"}},
		Agent:      "good", Model: "openai/gpt-4o-mini",
		Efficiency: Efficiency{Turns: 2, ToolCalls: ToolCalls{Total: 3, Failed: 1, ByCategory: Counts{{"ghx", 1}, {"bash", 1}, {"my \"cat\"", 1}}}},
		MockCalls:  []MockCall{{Service: "s", Method: "m", Mock: -1, At: started}}, Error: "boom",
		Environment: "local", Notes: []string{"ran in local", "killed <1> process"}, Cause: CauseChecks,
		AttemptLog: []Attempt{{N: 1, Status: "incomplete", Cause: CauseRateLimited, Reason: "not completed: 429", Evidence: "model API: 429", Started: started, DurationMS: 1.5},
			{N: 2, Status: "failed", Cause: CauseChecks, Reason: "2 of 3", Evidence: "failed: judge", Score: 2.0 / 3, Started: started, Usage: llm.Usage{TotalTokens: 3}}}}
	tests := map[string]*Job{
		"full":              full,
		"minimal":           {Record: RecordJob, ID: "a/-/run-1", Scenario: "a", Run: 1, Attempts: 1, Started: started},
		"empty evaluations": {Record: RecordJob, Evaluations: []Evaluation{}, Started: started},
		"turns only":        {Record: RecordJob, Started: started, Efficiency: Efficiency{Turns: 1}},
		"known cost":        {Record: RecordJob, Started: started, Cost: &Cost{USD: ptr(1.5e-9), Agent: ptr(1.5e-9), User: ptr(0), Judge: ptr(0)}},
	}
	for name, r := range tests {
		got, err := AppendJob(nil, r)
		require.NoError(t, err, name)
		assert.Equal(t, string(stdEncode(t, r)), string(got), name)
	}
}

func TestAppendFloatMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{0, 1, -1, 0.1, 1.0 / 3, 1e-6, 1e-7, 9.99e-7, 1e20, 1e21, 1.5e300, -2.5e-10, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		assert.Equal(t, string(stdEncode(t, f)), string(appendFloat(nil, f)), "%v", f)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "quote\"back\\slash", "\x00\x1f\x7f", "é\u2028\u2029", "\xff\xfe", "<html>&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := stdEncode(t, s)
		got := jsonstr.Append(nil, s)
		if !bytes.Equal(want, got) {
			t.Fatalf("jsonstr.Append(%q) = %s, encoding/json gives %s", s, got, want)
		}
	})
}

func FuzzAppendValue(f *testing.F) {
	f.Add(`{"a":[1,2.5,"x",true,null,{"b":"c"}],"n":-0.000001}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		d := json.NewDecoder(bytes.NewReader([]byte(doc)))
		d.UseNumber()
		if d.Decode(&v) != nil {
			return
		}
		got, err := appendValue(nil, v)
		if err != nil {
			return
		}
		if want := stdEncode(t, v); !bytes.Equal(want, got) {
			t.Fatalf("appendValue(%s) = %s, encoding/json gives %s", doc, got, want)
		}
	})
}

func TestCountsKeepTheirOrder(t *testing.T) {
	t.Parallel()
	var j struct {
		C Counts `json:"c"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"c":{"other":2,"ghx":1,"bash":0}}`), &j))
	assert.Equal(t, Counts{{"other", 2}, {"ghx", 1}, {"bash", 0}}, j.C)
	b, err := json.Marshal(j.C)
	require.NoError(t, err)
	assert.Equal(t, `{"other":2,"ghx":1,"bash":0}`, string(b))
	require.NoError(t, json.Unmarshal([]byte(`{"c":null}`), &j))
	assert.Nil(t, j.C)
	assert.Error(t, json.Unmarshal([]byte(`{"c":[1]}`), &j))
	assert.Error(t, json.Unmarshal([]byte(`{"c":{"a":"x"}}`), &j))
}

// FuzzCounts decodes arbitrary JSON as counts: it never panics, and what
// it decodes encodes back to the same counts.
func FuzzCounts(f *testing.F) {
	for _, s := range []string{`{"ghx":1,"bash":2}`, `null`, `{}`, `{"a":-1,"a":2}`, `[1]`, `{"\u00e9":3}`, `{"x":1.5}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var c Counts
		if json.Unmarshal([]byte(doc), &c) != nil {
			return
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var again Counts
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("%s encodes as %s, which does not decode: %v", doc, b, err)
		}
		if len(c) != len(again) || (len(c) > 0 && !slices.Equal(c, again)) {
			t.Fatalf("%s: %v, then %v", doc, c, again)
		}
	})
}

// FuzzAppendFloat checks scores, weights and durations against
// encoding/json, the integral fast path included.
func FuzzAppendFloat(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.5, 1e15, -1e15, 999999999999999, 1e21, 1e-7, math.Copysign(0, -1), 12.75} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		want, err := json.Marshal(x)
		require.NoError(t, err)
		if got := appendFloat(nil, x); !bytes.Equal(want, got) {
			t.Fatalf("appendFloat(%v) = %s, encoding/json gives %s", x, got, want)
		}
	})
}

// benchJob is a typical echo-workload record (three passing checks, the
// usage and efficiency blocks), the record every job of a big run writes.
func benchJob() *Job {
	msg := "reply matches /^Question [0-9]+: what is topic-[0-9]+\\?$/ (case-insensitive) at \"Question 17: what is topic-17?\""
	return &Job{ID: "m/c-44b05dbc1c5d0f7e/run-1", Index: 17, Scenario: "base", ScenarioName: "echo throughput", Matrix: "m",
		Combination: "c-44b05dbc1c5d0f7e", Params: map[string]any{"run[0].input": "Question 17: what is topic-17?"}, Run: 1, Attempts: 1,
		Completed: true, Passed: true, Score: 1, Reason: "all 3 evaluations passed", Strategy: "all_pass",
		Evaluations: []Evaluation{
			{Type: "string_contains", Scope: ScopeStep, Turn: -1, Passed: true, Score: 1, Message: `reply contains "topic-" (case-insensitive)`, Weight: 1,
				Details: map[string]any{"value": "topic-", "case_sensitive": false, "evidence": "reply"}},
			{Type: "regex_match", Scope: ScopeStep, Turn: -1, Passed: true, Score: 1, Message: msg, Weight: 1,
				Details: map[string]any{"pattern": "^Question [0-9]+: what is topic-[0-9]+\\?$", "case_sensitive": false, "evidence": "reply",
					"match": "Question 17: what is topic-17?", "match_index": 0}},
			{Type: "string_contains", Scope: ScopeStep, Turn: -1, Passed: true, Score: 1, Message: `reply contains "Question" (case-sensitive)`, Weight: 1,
				Details: map[string]any{"value": "Question", "case_sensitive": true, "evidence": "reply"}}},
		Started: time.Date(2026, 11, 24, 22, 57, 12, 56485625, time.UTC), DurationMS: 0.017, Environment: "local"}
}

// BenchmarkEncodeJob compares the hand-written encoder with encoding/json
// on the same record (one of the echo workload's): the measurement behind
// keeping the hand encoder.
func BenchmarkEncodeJob(b *testing.B) {
	job := benchJob()
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			var err error
			if buf, err = AppendJob(buf[:0], job); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(job); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func ptr(f float64) *float64 { return &f }
