package judge_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/registry"
)

func P(name string) judge.Outcome { return judge.Outcome{Name: name, Passed: true, Score: 1} }
func F(name string) judge.Outcome { return judge.Outcome{Name: name} }

func weight(o judge.Outcome, w float64) judge.Outcome { o.Weight = &w; return o }
func critical(o judge.Outcome) judge.Outcome          { o.Critical = true; return o }

func TestStrategiesTruthTable(t *testing.T) {
	t.Parallel()
	type want struct{ all, anyP, majority, weighted bool }
	tests := []struct {
		name      string
		outcomes  []judge.Outcome
		threshold *float64
		want      want
	}{
		{"no outcomes", nil, nil, want{false, false, false, false}},
		{"P", []judge.Outcome{P("a")}, nil, want{true, true, true, true}},
		{"F", []judge.Outcome{F("a")}, nil, want{false, false, false, false}},
		{"PF", []judge.Outcome{P("a"), F("b")}, nil, want{false, true, false, true}},
		{"PPF", []judge.Outcome{P("a"), P("b"), F("c")}, nil, want{false, true, true, true}},
		{"PFF", []judge.Outcome{P("a"), F("b"), F("c")}, nil, want{false, true, false, false}},
		{"PPP", []judge.Outcome{P("a"), P("b"), P("c")}, nil, want{true, true, true, true}},
		{"FFF", []judge.Outcome{F("a"), F("b"), F("c")}, nil, want{false, false, false, false}},
		{"PPFF", []judge.Outcome{P("a"), P("b"), F("c"), F("d")}, nil, want{false, true, false, true}},
		{"heavy pass", []judge.Outcome{weight(P("a"), 3), F("b")}, nil, want{false, true, false, true}},
		{"heavy fail", []judge.Outcome{P("a"), weight(F("b"), 3)}, nil, want{false, true, false, false}},
		{"threshold met exactly", []judge.Outcome{P("a"), P("b"), P("c"), P("d"), F("e")}, ptr(0.8), want{false, true, true, true}},
		{"threshold missed", []judge.Outcome{P("a"), P("b"), P("c"), P("d"), F("e")}, ptr(0.9), want{false, true, true, false}},
		{"float weights", []judge.Outcome{weight(P("a"), 0.1), weight(P("b"), 0.2), weight(F("c"), 0.3)}, nil, want{false, true, true, true}},
		{"no weight means 1", []judge.Outcome{P("a"), F("b")}, nil, want{false, true, false, true}},
		{"explicit zero weight counts nothing", []judge.Outcome{weight(P("a"), 1), weight(F("b"), 0)}, nil, want{false, true, false, true}},
		{"negative weight counts 0", []judge.Outcome{weight(P("a"), -1), F("b")}, nil, want{false, true, false, false}},
		{"only negative weights", []judge.Outcome{weight(P("a"), -1)}, nil, want{true, true, true, false}},
		{"critical failure vetoes", []judge.Outcome{P("a"), P("b"), P("c"), critical(F("d"))}, nil, want{false, false, false, false}},
		{"critical pass does not force", []judge.Outcome{critical(P("a")), F("b")}, nil, want{false, true, false, true}},
		{"critical pass alone", []judge.Outcome{critical(P("a"))}, nil, want{true, true, true, true}},
		{"threshold zero", []judge.Outcome{F("a")}, ptr(0.0), want{false, false, false, true}},
	}
	reg := judge.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := map[string]bool{}
			for _, name := range []string{"all_pass", "any_pass", "majority_pass", "weighted"} {
				d, err := judge.Decide(reg, name, tt.outcomes, judge.Options{Threshold: tt.threshold})
				require.NoError(t, err)
				got[name] = d.Passed
				assert.NotEmpty(t, d.Reason)
				assert.GreaterOrEqual(t, d.Score, 0.0)
				assert.LessOrEqual(t, d.Score, 1.0)

				// Calling the strategy directly must agree with the registry.
				s, err := reg.Get(name)
				require.NoError(t, err)
				assert.Equal(t, d, s.Decide(tt.outcomes, judge.Options{Threshold: tt.threshold}), name)
			}
			assert.Equal(t, map[string]bool{
				"all_pass": tt.want.all, "any_pass": tt.want.anyP,
				"majority_pass": tt.want.majority, "weighted": tt.want.weighted,
			}, got)
		})
	}
}

func TestStrategyReasons(t *testing.T) {
	t.Parallel()
	five := []judge.Outcome{P("a"), P("b"), F("c"), F("d"), F("e")}
	tests := []struct {
		strategy string
		outcomes []judge.Outcome
		opts     judge.Options
		reason   string
		score    float64
	}{
		{"majority_pass", five, judge.Options{},
			`2 of 5 evaluations passed; majority_pass needs more than half (3), which this falls short of; failed: "c", "d", "e"`, 0.4},
		{"all_pass", five, judge.Options{},
			`3 of 5 evaluations failed ("c", "d", "e"); all_pass needs every evaluation to pass`, 0.4},
		{"any_pass", []judge.Outcome{F("x"), F("")}, judge.Options{},
			`none of 2 evaluations passed ("x", (unnamed)); any_pass needs at least one`, 0},
		{"all_pass", []judge.Outcome{P("a"), P("b")}, judge.Options{}, "all 2 evaluations passed", 1},
		{"weighted", []judge.Outcome{weight(P("a"), 3), F("b")}, judge.Options{},
			"passed evaluations carry 3 of 4 weight (75%), at least the threshold 50%", 0.75},
		{"weighted", []judge.Outcome{weight(P("a"), 3), F("b")}, judge.Options{Threshold: ptr(0.8)},
			`passed evaluations carry 3 of 4 weight (75%), below the threshold 80%; failed: "b"`, 0.75},
		{"any_pass", nil, judge.Options{},
			"there are no evaluations to judge; any_pass never passes an empty set, so add at least one evaluation", 0},
		{"any_pass", []judge.Outcome{P("a"), critical(F("must"))}, judge.Options{},
			`critical evaluation "must" failed; a failed critical evaluation fails the run under every strategy (1 of 2 evaluations passed)`, 0.5},
	}
	reg := judge.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.strategy+" "+tt.reason, func(t *testing.T) {
			t.Parallel()
			d, err := judge.Decide(reg, tt.strategy, tt.outcomes, tt.opts)
			require.NoError(t, err)
			assert.Equal(t, tt.reason, d.Reason)
			assert.InDelta(t, tt.score, d.Score, 1e-9)
		})
	}
}

func TestFailedNamesAreShortened(t *testing.T) {
	t.Parallel()
	var outs []judge.Outcome
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		outs = append(outs, F(n))
	}
	d := builtin(t, "all_pass").Decide(outs, judge.Options{})
	assert.Contains(t, d.Reason, `"e" and 2 more`)
}

// alwaysPass is a host strategy; it ignores the shared rules on purpose to
// show that Decide enforces them anyway.
var alwaysPass = &judge.Strategy{Name: "always", Doc: "Always passes (test strategy).",
	Decide: func([]judge.Outcome, judge.Options) judge.Decision {
		return judge.Decision{Passed: true, Score: 1, Reason: "always passes"}
	}}

// builtin returns a new value of the built-in strategy named name.
func builtin(t testing.TB, name string) *judge.Strategy {
	s, err := judge.NewRegistry().Get(name)
	if err != nil {
		t.Fatalf("no built-in strategy %q: %v", name, err)
	}
	return s
}

func TestStrategiesRegistry(t *testing.T) {
	t.Parallel()
	reg := judge.NewRegistry()
	assert.Equal(t, []string{"all_pass", "any_pass", "majority_pass", "weighted"}, reg.Names())
	for _, n := range reg.Names() {
		s, err := reg.Get(n)
		require.NoError(t, err)
		assert.Equal(t, n, s.Name)
		assert.NotEmpty(t, s.Doc)
	}

	require.NoError(t, reg.Register(alwaysPass))
	d, err := judge.Decide(reg, "always", []judge.Outcome{F("a")}, judge.Options{})
	require.NoError(t, err)
	assert.True(t, d.Passed)
	d, err = judge.Decide(reg, "always", nil, judge.Options{})
	require.NoError(t, err)
	assert.False(t, d.Passed, "no outcomes never pass, even for a host strategy")
	d, err = judge.Decide(reg, "always", []judge.Outcome{critical(F("must"))}, judge.Options{})
	require.NoError(t, err)
	assert.False(t, d.Passed, "a failed critical outcome vetoes a host strategy too")

	err = reg.Register(builtin(t, "all_pass"))
	require.ErrorContains(t, err, `"all_pass": already registered`)
	require.ErrorIs(t, err, registry.ErrDuplicate)
	require.Error(t, reg.Register(nil))
	require.ErrorIs(t, reg.Register(&judge.Strategy{Name: "no_decide"}), registry.ErrInvalid)
}

func TestStrategiesLookupSuggests(t *testing.T) {
	t.Parallel()
	reg := judge.NewRegistry()
	tests := []struct{ name, suggestion string }{
		{"all-pass", "all_pass"},
		{"majorty_pass", "majority_pass"},
		{"majority", "majority_pass"},
		{"weigted", "weighted"},
		{"consensus", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := reg.Get(tt.name)
			var unknown *registry.Error
			require.True(t, errors.As(err, &unknown))
			assert.Equal(t, tt.suggestion, unknown.Suggestion)
			assert.Equal(t, reg.Names(), unknown.Known)
			assert.Contains(t, err.Error(), "known: all_pass, any_pass, majority_pass, weighted")
			if tt.suggestion != "" {
				assert.Contains(t, err.Error(), `did you mean "`+tt.suggestion+`"?`)
			}
		})
	}
	_, err := judge.Decide(reg, "nope", []judge.Outcome{P("a")}, judge.Options{})
	require.Error(t, err)
}
