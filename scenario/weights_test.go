package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

const weightedScenario = `name: weighted
description: d
environment: {type: local}
run:
  - input: hi
    evaluations:
      - type: string_contains
        value: hi
        description: greets
      - type: regex_match
        pattern: h
judgment:
  strategy: weighted
`

func TestJudgmentWeightsLoadChecks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		judgment string
		// want is "" for no error, else "line:col path: message part" of the first error.
		wantPath, wantMsg string
		wantLine          int
		suggestion        string
	}{
		{name: "by description and type", judgment: "  weights: {greets: 2, regex_match: 0}\n"},
		{name: "all zero", judgment: "  weights: {greets: 0, regex_match: 0}\n",
			wantPath: "judgment.weights", wantLine: 14, wantMsg: "all 2 evaluations and checkpoints weigh 0"},
		{name: "unknown key", judgment: "  weights: {greet: 1}\n",
			wantPath: "judgment.weights.greet", wantLine: 14, wantMsg: "names no evaluation description", suggestion: "greets"},
		{name: "negative", judgment: "  weights: {greets: -1}\n",
			wantPath: "judgment.weights.greets", wantLine: 14, wantMsg: "must be a number ≥ 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := load("w.scenario.yaml", []byte(weightedScenario+tt.judgment))
			if tt.wantMsg == "" {
				require.NoError(t, err)
				return
			}
			var ds scenario.Diagnostics
			require.ErrorAs(t, err, &ds)
			errs := ds.Errors()
			require.NotEmpty(t, errs)
			d := errs[0]
			assert.Equal(t, "w.scenario.yaml", d.File)
			assert.Equal(t, tt.wantPath, d.Path.String())
			assert.Equal(t, tt.wantLine, d.Line)
			assert.Positive(t, d.Column)
			assert.Contains(t, d.Message, tt.wantMsg)
			assert.Equal(t, tt.suggestion, d.Suggestion)
		})
	}
}

func TestWeightedWithoutWeightIsALoadError(t *testing.T) {
	t.Parallel()
	src := `name: zero
description: d
environment: {type: local}
run:
  - input: hi
    evaluations:
      - {type: string_contains, value: hi, weight: 0}
judgment: {strategy: weighted}
`
	_, err := load("z.scenario.yaml", []byte(src))
	var ds scenario.Diagnostics
	require.ErrorAs(t, err, &ds)
	require.NotEmpty(t, ds.Errors())
	assert.Equal(t, "judgment.strategy", ds.Errors()[0].Path.String())
	assert.Equal(t, 8, ds.Errors()[0].Line)
}

func TestJudgmentWeightOrder(t *testing.T) {
	t.Parallel()
	two, half := 2.0, 0.5
	j := scenario.Judgment{Strategy: "weighted", Weights: map[string]float64{"greets": 3, "string_contains": 4, "cp": 5}}
	assert.Equal(t, &two, j.EvaluationWeight(&scenario.Evaluation{Type: "string_contains", Description: "greets", Weight: &two}), "the evaluation's own weight wins")
	assert.InDelta(t, 3, *j.EvaluationWeight(&scenario.Evaluation{Type: "string_contains", Description: "greets"}), 0, "then its description")
	assert.InDelta(t, 4, *j.EvaluationWeight(&scenario.Evaluation{Type: "string_contains", Description: "other"}), 0, "then its type")
	assert.Nil(t, j.EvaluationWeight(&scenario.Evaluation{Type: "regex_match"}), "else the default")
	assert.Equal(t, &half, j.CheckpointWeight(&scenario.Checkpoint{ID: "cp", Weight: &half}))
	assert.InDelta(t, 5, *j.CheckpointWeight(&scenario.Checkpoint{ID: "cp"}), 0)
}
