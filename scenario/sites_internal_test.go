package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEvaluationSites pins where the loader looks for evaluations to check
// against their own type's schema.
func TestEvaluationSites(t *testing.T) {
	t.Parallel()
	l := NewLoader(testRegistries{}, Options{})
	g := l.current()
	cs := g.schema(KindScenario)
	require.NoError(t, cs.err)
	assert.Equal(t, [][]string{
		{"run", "*", "conversation", "final_evaluations", "*"},
		{"run", "*", "conversation", "turn_evaluations", "*"},
		{"run", "*", "evaluations", "*"},
	}, cs.evalSites)
	assert.Len(t, cs.evals, len(g.vocab.evals))
	cs = g.schema(KindGitHub)
	require.NoError(t, cs.err)
	assert.Equal(t, [][]string{{"evaluations", "*"}}, cs.evalSites)
	for _, k := range []Kind{KindMatrix, KindManifest, KindScenarioSets} {
		cs = g.schema(k)
		require.NoError(t, cs.err)
		assert.Empty(t, cs.evalSites, k)
	}
}
