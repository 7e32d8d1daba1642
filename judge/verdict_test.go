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

func TestParseExpectation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want judge.Expectation
		met  []float64 // scores that satisfy a score expectation
		not  []float64 // scores that do not
	}{
		{in: "yes", want: judge.Expectation{Kind: judge.ExpectYesNo, Yes: true, Text: "yes"}},
		{in: " NO ", want: judge.Expectation{Kind: judge.ExpectYesNo, Text: "NO"}},
		{in: "0.8+", want: judge.Expectation{Kind: judge.ExpectScore, Op: ">=", Threshold: 0.8, Text: "0.8+"}, met: []float64{0.8, 1}, not: []float64{0.79}},
		{in: "0.3-", want: judge.Expectation{Kind: judge.ExpectScore, Op: "<=", Threshold: 0.3, Text: "0.3-"}, met: []float64{0.3, 0}, not: []float64{0.31}},
		{in: "<0.3", want: judge.Expectation{Kind: judge.ExpectScore, Op: "<", Threshold: 0.3, Text: "<0.3"}, met: []float64{0.29}, not: []float64{0.3}},
		{in: ">=0.7", want: judge.Expectation{Kind: judge.ExpectScore, Op: ">=", Threshold: 0.7, Text: ">=0.7"}, met: []float64{0.7}, not: []float64{0.69}},
		{in: "> .5", want: judge.Expectation{Kind: judge.ExpectScore, Op: ">", Threshold: 0.5, Text: "> .5"}, met: []float64{0.51}, not: []float64{0.5}},
		{in: "<=0.2", want: judge.Expectation{Kind: judge.ExpectScore, Op: "<=", Threshold: 0.2, Text: "<=0.2"}, met: []float64{0.2}, not: []float64{0.21}},
		{in: "≥0.9", want: judge.Expectation{Kind: judge.ExpectScore, Op: ">=", Threshold: 0.9, Text: "≥0.9"}, met: []float64{0.95}, not: []float64{0.5}},
		{in: "0.6-0.9", want: judge.Expectation{Kind: judge.ExpectScore, Op: "range", Min: 0.6, Max: 0.9, Text: "0.6-0.9"}, met: []float64{0.6, 0.9}, not: []float64{0.59, 0.91}},
		{in: "The agent lists three open issues", want: judge.Expectation{Kind: judge.ExpectText, Text: "The agent lists three open issues"}},
		{in: "3 issues listed", want: judge.Expectation{Kind: judge.ExpectText, Text: "3 issues listed"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := judge.ParseExpectation(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			for _, s := range tt.met {
				assert.True(t, got.MetBy(s), "%v should meet %s", s, got)
			}
			for _, s := range tt.not {
				assert.False(t, got.MetBy(s), "%v should not meet %s", s, got)
			}
		})
	}
}

func TestParseExpectationErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "1.5+", ">2", "0.9-0.1"} {
		_, err := judge.ParseExpectation(in)
		assert.Error(t, err, "%q", in)
	}
}

func TestParseVerdictDuplicateKeysAreDeterministic(t *testing.T) {
	t.Parallel()
	for range 50 {
		v, err := judge.ParseVerdict(`{"pass": true, "Pass": false, "PASS": false}`)
		require.NoError(t, err)
		assert.False(t, v.Pass, `"PASS" sorts first and wins`)
	}
}

// FuzzParseExpectation: any expected text parses or errors, never panics,
// and a parsed score expectation answers MetBy for any score.
func FuzzParseExpectation(f *testing.F) {
	for _, s := range []string{"yes", "no", "0.8+", "<0.3", ">=0.7", "0.3-", "0.6-0.9", "≥0.5", "the agent apologises", "", "1e309+", "-0.1+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := judge.ParseExpectation(s)
		if err != nil {
			return
		}
		for _, score := range []float64{0, 0.5, 1} {
			_ = e.MetBy(score)
		}
		_ = e.String()
	})
}
