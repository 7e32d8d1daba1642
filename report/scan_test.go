package report

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// requireReadsAsJSON checks that decode reads line as encoding/json does:
// the same error or none, and the same record.
func requireReadsAsJSON(t *testing.T, name, line string) {
	t.Helper()
	var want, got lineRecord
	werr := json.Unmarshal([]byte(line), &want)
	gerr := got.decode([]byte(line))
	if werr != nil {
		require.Error(t, gerr, "%s: encoding/json refuses it: %v", name, werr)
		return
	}
	require.NoError(t, gerr, name)
	assert.Equal(t, want, got, name)
}

// TestScanRecordReadsWhatJSONReads: the statistics fields the first pass
// picks out of a job record line are those encoding/json decodes, whatever
// the line's escapes, nesting, field order, nulls and look-alike keys; what
// it does not read plainly (a field of another kind, a repeated field, a
// key that matches a field only case-folded) is decoded by encoding/json,
// with its error.
func TestScanRecordReadsWhatJSONReads(t *testing.T) {
	t.Parallel()
	usd, agentUSD := 0.25, 0.2
	full := results.Job{Record: results.RecordJob, ID: "s/c-1/run-2", Index: 41, Scenario: "s", ScenarioName: "S \"q\" \u2028",
		Matrix: "m \\ é", Combination: "c-1", Agent: "openai:gpt\u001bx", Model: "m/1", Run: 2, Attempts: 3, Completed: true,
		Passed: false, DurationMS: 12.345, Started: t0, TerminationReasons: []string{"done", "tab\there"},
		Usage:  llm.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7, ReasoningTokens: 1, CacheReadTokens: 2, CacheWriteTokens: 1},
		Params: map[string]any{"run[0].input": "Q \"1\"", "n": 2.5, "nested": map[string]any{"a": []any{1.0, "x", nil}}},
		Cost:   &results.Cost{USD: &usd, Agent: &agentUSD, Unpriced: []string{"judge: x"}, AsOf: []string{"2026-11-01"}},
		Efficiency: results.Efficiency{Turns: 4, ToolCalls: results.ToolCalls{Total: 5, Failed: 1,
			ByCategory: results.Counts{{Name: "write", N: 2}, {Name: "read", N: 3}}}},
		Transcript: []results.Turn{{Role: "user", Text: `{"id": "not this", "usage": {"total_tokens": 99}}`}},
		Evaluations: []results.Evaluation{{Type: "string_contains", Description: "says \"hi\"", Passed: true, Message: `"passed": false`},
			{Type: "llm_judge", Passed: false, Error: "judge: 500", Details: map[string]any{"type": "not this"}}}}
	line, err := json.Marshal(full)
	require.NoError(t, err)
	plain := map[string]string{
		"as written": string(line),
		"fields reordered": `{"usage":{"total_tokens":7,"prompt_tokens":3},"transcript":[{"role":"user","text":"{\"id\":1}"}],` +
			`"params":{"k":"v"},"passed":true,"completed":true,"id":"a\/b\u0041/run-1","index":0,"attempts":1,"record":"job"}`,
		"nulls": `{"record":"job","id":"x/run-1","index":3,"reason":null,"termination_reasons":null,"usage":null,"params":null,` +
			`"cost":null,"efficiency":null,"evaluations":null,"started":null,"completed":null,"duration_ms":null}`,
		"null members": `{"record":"job","id":"x/run-1","cost":{"usd":null,"agent_usd":1e-3},"evaluations":[null,{"type":null}],` +
			`"efficiency":{"turns":null,"tool_calls":{"total":1,"by_category":{"a":null,"b":2}}}}`,
		"empty lists":   `{"record":"job","id":"x/run-1","evaluations":[],"termination_reasons":[],"cost":{"unpriced":[]}}`,
		"bare":          `{"record":"job","id":"x/run-1"}`,
		"spaces":        " \t{ \"record\" : \"job\" , \"id\" : \"x/run-1\" , \"index\" : 2 }\r\n",
		"invalid utf-8": "{\"record\":\"job\",\"id\":\"x\xff\xfey/run-1\",\"scenario\":\"\\u00e9\xc3\"}",
		"other keys":    `{"record":"job","id":"x/run-1","identity":1,"scores":[1,{"id":"no"}],"usage_x":{"total_tokens":"no"}}`,
	}
	for name, line := range plain {
		var rec lineRecord
		require.NoError(t, scanRecord([]byte(line), &rec), "%s is read plainly", name)
		requireReadsAsJSON(t, name, line)
	}
	for name, line := range map[string]string{
		// Left to encoding/json (and read the same).
		"case-folded key":    `{"record":"job","ID":"x/run-1","Passed":true}`,
		"kelvin-folded key":  "{\"record\":\"job\",\"id\":\"x/run-1\",\"usage\":{\"total_to\u212aens\":5}}",
		"case-folded nested": `{"record":"job","id":"x/run-1","usage":{"Total_Tokens":5},"evaluations":[{"TYPE":"t"}]}`,
		"repeated key":       `{"record":"job","id":"x/run-1","id":"y/run-2","usage":{"prompt_tokens":1},"usage":{"completion_tokens":2}}`,
		"repeated nested":    `{"record":"job","id":"x/run-1","usage":{"prompt_tokens":1,"prompt_tokens":2}}`,
		"a plan":             `{"record":"plan","run_id":"r","total_jobs":3,"sources":["a"],"seed":2,"estimate":{"jobs":3}}`,
		"no record kind":     `{"id":"x/run-1"}`,
		// Refused by both.
		"index a string":   `{"record":"job","id":"x/run-1","index":"3"}`,
		"index a fraction": `{"record":"job","id":"x/run-1","index":1.5}`,
		"index too big":    `{"record":"job","id":"x/run-1","index":99999999999999999999}`,
		"id a number":      `{"record":"job","id":7}`,
		"passed a string":  `{"record":"job","id":"x/run-1","passed":"yes"}`,
		"bad usage":        `{"record":"job","id":"x/run-1","usage":{"total_tokens":"many"}}`,
		"usage a list":     `{"record":"job","id":"x/run-1","usage":[1]}`,
		"bad reason":       `{"record":"job","id":"x/run-1","termination_reasons":[1]}`,
		"bad cost":         `{"record":"job","id":"x/run-1","cost":{"usd":"1"}}`,
		"bad evaluation":   `{"record":"job","id":"x/run-1","evaluations":[{"passed":1}]}`,
		"evaluation text":  `{"record":"job","id":"x/run-1","evaluations":["x"]}`,
		"bad category":     `{"record":"job","id":"x/run-1","efficiency":{"tool_calls":{"by_category":{"a":1.5}}}}`,
		"bad escape":       `{"record":"job","id":"x\q/run-1"}`,
		"truncated":        `{"record":"job","id":"x/run-1","usage":{"total_tokens":1}`,
		"a list":           `[{"record":"job"}]`,
		"not json":         `not json`,
	} {
		requireReadsAsJSON(t, name, line)
	}
}

// FuzzScanRecord: whatever the line, decode does not panic, and on valid
// JSON it reads what encoding/json reads, error for error.
func FuzzScanRecord(f *testing.F) {
	s1, s2 := sampleLines(f)
	for _, l := range append(s1, s2...) {
		f.Add(l)
	}
	f.Add(`{"record":"job","id":"a/b/run-2","params":{"x":[1,{"y":null}]},"completed":true,"cost":{"usd":null},"efficiency":{"tool_calls":{"by_category":{"w":1}}}}`)
	f.Add(`{"record":"job","evaluations":[{"type":"t","Description":"d","passed":true,"error":"e"}],"usage":{"prompt_tokens":1}}`)
	f.Fuzz(func(t *testing.T, line string) {
		var got lineRecord
		gerr := got.decode([]byte(line))
		if !json.Valid([]byte(line)) {
			return
		}
		var want lineRecord
		werr := json.Unmarshal([]byte(line), &want)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("encoding/json: %v, decode: %v", werr, gerr)
		}
		if werr == nil {
			assert.Equal(t, want, got)
		}
	})
}

// TestParamsReadAsJSON: a job's params decode as encoding/json decodes
// them into a map, value kinds, escapes, repeated and invalid keys alike,
// and what it refuses is refused.
func TestParamsReadAsJSON(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		``, `null`, `{}`,
		`{"run[0].input":"Question 1: what is \"x\"?","n":2.5,"big":1e300,"neg":-0,"ok":true,"none":null}`,
		`{"nested":{"a":[1,"x",null,{"b":false}]},"list":[]}`,
		`{"k\u00e9y":1,"k\/2":"\ud83d\ude00","dup":1,"dup":2}`,
		"{\"bad \xff key\":\"bad \xfe value\"}",
		`{"n":1e400}`, `[1]`, `"x"`, `{"a":1`, `{"a":[1,]}`, `{"a":tru}`,
	} {
		var want map[string]any
		werr := error(nil)
		if raw != "" && raw != "null" {
			werr = json.Unmarshal([]byte(raw), &want)
		}
		got, gerr := decodeParams([]byte(raw))
		if werr != nil {
			assert.Error(t, gerr, raw)
			continue
		}
		require.NoError(t, gerr, raw)
		assert.Equal(t, want, got, raw)
	}
}
