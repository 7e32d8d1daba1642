package scenario_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestScenarioJSONRoundTrip writes each loaded scenario back as JSON and
// loads that again: the result is the same scenario, and it loads cleanly.
// This is what a matrix or a results file relies on.
func TestScenarioJSONRoundTrip(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{"typical.scenario.yaml": []byte(typicalScenario)}
	for _, glob := range []string{peerDir + "/eliza/*.scenario.yaml", peerDir + "/ghx-scenarios/pr-*.json"} {
		names, _ := filepath.Glob(glob)
		for _, n := range names {
			b, err := os.ReadFile(n)
			require.NoError(t, err)
			inputs[n] = b
		}
	}
	for name, data := range inputs {
		f, err := load(name, data)
		require.NoError(t, err, name)
		b, err := json.Marshal(f.Scenario)
		require.NoError(t, err, name)
		again, err := load("again.scenario.json", b)
		require.NoError(t, err, "%s: %s", name, b)
		assert.Empty(t, again.Diagnostics, name)
		b2, err := json.Marshal(again.Scenario)
		require.NoError(t, err)
		assert.JSONEq(t, string(b), string(b2), name)
		assert.Equal(t, len(f.Scenario.Run), len(again.Scenario.Run), name)
	}
}
