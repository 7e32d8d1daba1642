package eliza_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestMatrixOverModelsRunsConcurrentRuntimes runs the example project's
// scenario as a 3×2 matrix over character.llm.model and temperature at
// concurrency 3 through the library: three ElizaOS runtimes at once, one per Node
// process, each with its own PGLite database. Every job passes, its mocks
// are applied (in a matrix run too, unlike upstream's), and each model
// reached the model server with the character's temperature.
func TestMatrixOverModelsRunsConcurrentRuntimes(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("Weather question.", "GET_WEATHER", "Checking.")
	})
	dir := t.TempDir()
	scen, err := os.ReadFile("../../examples/eliza/weather.scenario.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "weather.scenario.yaml"), scen, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.matrix.yaml"), []byte(`name: models
base_scenario: weather.scenario.yaml
matrix:
  - parameter: character.llm.model
    values: [model-a, model-b, model-c]
  - parameter: character.temperature
    values: [0.25, 0.75]
`), 0o644))
	jobs := elizaRun(t, srv, "eliza:../../examples/eliza", 3, nil, filepath.Join(dir, "models.matrix.yaml"))
	require.Len(t, jobs, 6)
	for _, j := range jobs {
		assert.True(t, j.Passed, "%s: %s", j.ID, j.Reason)
		assert.Len(t, j.MockCalls, 2, "%s: the mocks answer in a matrix run", j.ID)
	}
	models := map[string]int{}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Chat.Messages[0].Content, "You are Skye.") && assert.NotNil(t, r.Chat.Temperature) {
			models[fmt.Sprintf("%s@%.2f", r.Chat.Model, *r.Chat.Temperature)]++
		}
	}
	assert.Equal(t, map[string]int{"model-a@0.25": 2, "model-a@0.75": 2, "model-b@0.25": 2, "model-b@0.75": 2, "model-c@0.25": 2, "model-c@0.75": 2},
		models, "each job's two steps went to its own model at its own temperature")
}
