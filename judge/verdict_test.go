package judge_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
)

func TestParseVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		pass      bool
		score     float64
		reasoning string
		caps      []judge.CapabilityVerdict
	}{
		{"plain json", `{"pass": true, "score": 0.9, "reasoning": "good"}`, true, 0.9, "good", nil},
		{"code fence", "Here you go:\n```json\n{\"pass\": false, \"score\": 0.2, \"reasoning\": \"bad\"}\n```\nThanks", false, 0.2, "bad", nil},
		{"leading prose", `After careful thought, my verdict is {"pass": true, "score": 1, "reasoning": "ok"}.`, true, 1, "ok", nil},
		{"trailing commas", "{\"pass\": true, \"score\": 0.7, \"capabilities\": [{\"capability\": \"A\", \"achieved\": true,},],}", true, 0.7, "",
			[]judge.CapabilityVerdict{{Capability: "A", Achieved: true}}},
		{"keys in any case", `{"PASS": "yes", "Score": "0.8", "Reasoning": "fine"}`, true, 0.8, "fine", nil},
		{"eliza enhanced schema", `{"qualitative_summary": "solid", "capability_checklist": [{"capability": "X", "achieved": false, "reasoning": "r"}], "confidence": 0.6, "overall_success": true}`,
			true, 0.6, "solid", []judge.CapabilityVerdict{{Capability: "X", Achieved: false, Reasoning: "r"}}},
		{"eliza legacy schema", `{"judgment": "no", "confidence": 0.3, "reasoning": "nope"}`, false, 0.3, "nope", nil},
		{"camelCase", `{"overallSuccess": false, "rating": "30%"}`, false, 0.3, "", nil},
		{"score only", `{"score": 0.75}`, true, 0.75, "", nil},
		{"score below half only", `{"score": "2/10"}`, false, 0.2, "", nil},
		{"percent scale", `{"pass": true, "score": 85}`, true, 0.85, "", nil},
		{"pass only", `{"verdict": "PASS"}`, true, 1, "", nil},
		{"wrapped", `{"evaluation": {"passed": false, "explanation": "missing"}}`, false, 0, "missing", nil},
		{"braces in strings", `{"reasoning": "used {curly} and \"quotes\"", "pass": true}`, true, 1, `used {curly} and "quotes"`, nil},
		{"prose braces before json", `I considered {maybe} things. {"pass": false}`, false, 0, "", nil},
		{"capabilities as map", `{"pass": true, "capabilities": {"B": {"achieved": false}, "A": true}}`, true, 1, "",
			[]judge.CapabilityVerdict{{Capability: "A", Achieved: true}, {Capability: "B", Achieved: false}}},
		{"plain yes", "Yes. The agent listed the issues.", true, 1, "Yes. The agent listed the issues.", nil},
		{"plain no", "no", false, 0, "no", nil},
		{"labelled", "The agent tried hard.\nVerdict: FAIL", false, 0, "The agent tried hard.\nVerdict: FAIL", nil},
		{"closing word", "Considering everything, the answer is yes.", true, 1, "Considering everything, the answer is yes.", nil},
		{"markdown bold", "**Pass** - all good", true, 1, "**Pass** - all good", nil},
		{"fenced plain answer", "```\nno\n```", false, 0, "```\nno\n```", nil},
		{"bom", "\ufeff{\"pass\": true}", true, 1, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, err := judge.ParseVerdict(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.pass, v.Pass)
			assert.InDelta(t, tt.score, v.Score, 1e-9)
			assert.Equal(t, tt.reasoning, v.Reasoning)
			assert.Equal(t, tt.caps, v.Capabilities)
			assert.Equal(t, 1, v.Samples)
		})
	}
}

func TestParseVerdictErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "   ", "empty"},
		{"prose", "The agent did some things and others.", "neither a JSON object"},
		{"json without verdict", `{"note": "hello"}`, "no pass, answer or score"},
		{"score out of range", `{"score": 250}`, "outside 0..1"},
		{"score not a number", `{"score": "high"}`, "not a number"},
		{"truncated json", `{"pass": tr`, "truncated or malformed"},
		{"fenced garbage", "```json\n{\"pass\": \n```", "truncated or malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := judge.ParseVerdict(tt.in)
			require.ErrorIs(t, err, judge.ErrUnparseableVerdict)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func FuzzParseVerdict(f *testing.F) {
	seeds := []string{
		`{"pass": true, "score": 0.9, "reasoning": "good"}`,
		"```json\n{\"pass\": false,}\n```",
		`{"judgment": "no", "confidence": "0.3"}`,
		`{"score": "85%", "capabilities": [{"name": "a", "met": "yes"}]}`,
		`{"a": {"b": {"pass": 1}}}`,
		"Verdict: pass",
		"no",
		`{"reasoning": "\"}{", "pass": false}`,
		`{{{{`,
		`}"{`,
		"",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := judge.ParseVerdict(in)
		if err != nil {
			if !assert.ErrorIs(t, err, judge.ErrUnparseableVerdict) {
				t.FailNow()
			}
			return
		}
		if math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1 {
			t.Fatalf("score %v outside [0, 1] for %q", v.Score, in)
		}
		if v.Samples != 1 || v.Passes != map[bool]int{true: 1, false: 0}[v.Pass] {
			t.Fatalf("inconsistent counts %+v for %q", v, in)
		}
	})
}

func TestParseVerdictDuplicateKeysAreDeterministic(t *testing.T) {
	t.Parallel()
	for range 50 {
		v, err := judge.ParseVerdict(`{"pass": true, "Pass": false, "PASS": false}`)
		require.NoError(t, err)
		assert.False(t, v.Pass, `"PASS" sorts first and wins`)
	}
}

// TestParseVerdictLenient: fenced JSON with sloppy keys and values, a plain
// answer, and prose without a verdict.
func TestParseVerdictLenient(t *testing.T) {
	t.Parallel()
	v, err := judge.ParseVerdict("Sure! ```json\n{\"Pass\": \"yes\", \"score\": \"0.8\", \"reasoning\": \"ok\",}\n```")
	require.NoError(t, err)
	assert.Equal(t, judge.Verdict{Pass: true, Score: 0.8, Reasoning: "ok", Samples: 1, Passes: 1}, v)
	v, err = judge.ParseVerdict("No. The agent never opened the file.")
	require.NoError(t, err)
	assert.False(t, v.Pass)
	assert.Zero(t, v.Score)
	_, err = judge.ParseVerdict("The agent did several things.")
	assert.ErrorIs(t, err, judge.ErrUnparseableVerdict)
}
