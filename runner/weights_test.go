package runner

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// judgment.weights weigh the evaluations that carry no weight of their own:
// a failing evaluation weighed down to 0.25 leaves the passing one 80% of
// the weight, above the threshold of 60% (1:1 would be 50%, a failure).
func TestJudgmentWeightsDecideTheVerdict(t *testing.T) {
	t.Parallel()
	f, err := testLoad("w.scenario.yaml", []byte(`name: w
description: d
environment: {type: local}
run:
  - input: hi
    evaluations:
      - {type: string_contains, value: hi}
      - {type: string_contains, value: zzz, description: never}
      - {type: regex_match, pattern: "^h", weight: 0}
judgment:
  strategy: weighted
  threshold: 0.6
  weights: {never: 0.25, regex_match: 5}
`))
	require.NoError(t, err)
	res := runOne(t, Config{Agent: echoAgent{}}, f.Scenario)
	require.True(t, res.Completed, res.Error)
	assert.True(t, res.Passed, res.Reason)
	assert.InDelta(t, 0.8, res.Score, 1e-12)
	require.Len(t, res.Evaluations, 3)
	assert.InDelta(t, 1, res.Evaluations[0].Weight, 0)
	assert.InDelta(t, 0.25, res.Evaluations[1].Weight, 0, "the description's weight")
	assert.InDelta(t, 0, res.Evaluations[2].Weight, 0, "the evaluation's own weight wins over its type's")
}
