package evaluate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/scenario"
)

// TestDefaultSchemaMatchesScenarios keeps the built-ins' names, docs and
// parameters in step with the scenario package's, so the schema an editor
// gets is the same whichever registry generated it.
func TestDefaultSchemaMatchesScenarios(t *testing.T) {
	t.Parallel()
	for _, k := range scenario.SchemaKinds() {
		want, err := scenario.GenerateSchema(k, scenario.DefaultRegistry())
		require.NoError(t, err)
		got, err := scenario.GenerateSchema(k, evaluate.DefaultRegistry().Types())
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(got), k.String())
	}
}
