package eliza_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestMatrixOverModelsRunsConcurrentRuntimes runs the example project's
// scenario as a matrix over character.llm.model (3 models) at concurrency
// 3 through the library: three ElizaOS runtimes at once, one per Node
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
    values: [0.25]
`), 0o644))
	jobs := elizaRun(t, srv, "eliza:../../examples/eliza", 3, nil, filepath.Join(dir, "models.matrix.yaml"))
	require.Len(t, jobs, 3)
	for _, j := range jobs {
		assert.True(t, j.Passed, "%s: %s", j.ID, j.Reason)
		assert.Len(t, j.MockCalls, 2, "%s: the mocks answer in a matrix run", j.ID)
	}
	models := map[string]int{}
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Chat.Messages[0].Content, "You are Skye.") {
			models[r.Chat.Model]++
			if assert.NotNil(t, r.Chat.Temperature) {
				assert.InDelta(t, 0.25, *r.Chat.Temperature, 1e-9)
			}
		}
	}
	assert.Equal(t, map[string]int{"model-a": 2, "model-b": 2, "model-c": 2}, models, "each job's two steps went to its own model")
}
