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
	assert.Empty(t, cs.parts, "evaluation types compile when a document uses them")
	for name := range g.vocab.evals {
		sch, err := cs.evalSchema(name)
		require.NoError(t, err, name)
		assert.NotNil(t, sch, name)
	}
	assert.Len(t, cs.parts, len(g.vocab.evals), "every registered type's schema compiles")
	sch, err := cs.evalSchema("no_such_type")
	require.NoError(t, err)
	assert.Nil(t, sch, "a type the registries do not hold has no schema of its own")
	cs = g.schema(KindGitHub)
	require.NoError(t, cs.err)
	assert.Equal(t, [][]string{{"evaluations", "*"}}, cs.evalSites)
	for _, k := range []Kind{KindMatrix, KindManifest, KindScenarioSets} {
		cs = g.schema(k)
		require.NoError(t, cs.err)
		assert.Empty(t, cs.evalSites, k)
	}
}
