package eliza_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// TestMatrixOverModelsRunsConcurrentRuntimes runs the example project's
// scenario as a matrix over character.llm.model (3 models) at concurrency
// 3 through the library: three ElizaOS runtimes at once, one per Node
// process, each with its own PGLite database. Every job passes, its mocks
// are applied (in a matrix run too, unlike upstream's), and each model
// reached the model server with the character's temperature.
func TestMatrixOverModelsRunsConcurrentRuntimes(t *testing.T) {
	testtool.NeedNPM(t, "@elizaos/core@1.7.2", "@elizaos/plugin-sql@1.7.2", "@elizaos/plugin-bootstrap@1.7.2", "@elizaos/plugin-openai@1.6.0", "zod@4.6.7")
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return llmtest.Text("<response><thought>Weather question.</thought><actions>GET_WEATHER</actions><providers></providers><text>Checking.</text></response>")
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
	kit := agenteval.New()
	files, err := kit.Load(filepath.Join(dir, "models.matrix.yaml"))
	require.NoError(t, err)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey,
		"AGENTEVAL_NPM_DIR": testtool.NPMDir()}
	if cache, err := os.UserCacheDir(); err == nil {
		env["XDG_CACHE_HOME"] = cache
	}
	project, err := filepath.Abs("../../examples/eliza")
	require.NoError(t, err)
	out := filepath.Join(dir, "out")
	sum, err := kit.Run(context.Background(), agenteval.RunConfig{AgentSpec: "eliza:" + project,
		AgentOptions: runner.AgentOptions{Getenv: func(k string) string { return env[k] }},
		Concurrency:  3, Out: out}, files...)
	require.NoError(t, err)
	assert.EqualValues(t, 3, sum.Jobs)

	f, err := os.Open(sum.Path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var jobs []results.Job
	for sc.Scan() {
		var j results.Job
		require.NoError(t, json.Unmarshal(sc.Bytes(), &j))
		if j.Record == results.RecordJob {
			jobs = append(jobs, j)
		}
	}
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
	leftovers, err := filepath.Glob(filepath.Join(out, "work", "*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers, "no job directory (nor PGLite database) is left behind")
}
