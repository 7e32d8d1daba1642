package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// runCLIEnv is runCLI with environment variables.
func runCLIEnv(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] }}
	code = mainWith(context.Background(), env, args)
	return code, out.String(), errb.String()
}

// TestMatrixOverCharacterModelComparesModels runs ElizaOS's model-comparison
// pattern (a matrix over character.llm.model and character.temperature)
// with the openai agent against a local OpenAI-compatible server: each job
// sends its character's model and temperature, not the agent's default.
func TestMatrixOverCharacterModelComparesModels(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "There are 3 open issues."} })
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "issues.scenario.yaml"), []byte(`name: issues
description: lists issues
character:
  name: Eliza
  system: You help with GitHub.
  llm:
    model: gpt-4-turbo
    max_tokens: 300
  temperature: 0.7
environment: {type: local}
run:
  - input: List open issues for elizaOS/eliza
    evaluations:
      - {type: string_contains, value: open issues}
judgment: {strategy: all_pass}
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "models.matrix.yaml"), []byte(`name: models
base_scenario: issues.scenario.yaml
matrix:
  - parameter: character.llm.model
    values: [gpt-4-turbo, gpt-3.5-turbo, claude-3]
  - parameter: character.temperature
    values: [0.1, 0.9]
`), 0o644))
	code, _, stderr := runCLIEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey},
		"run", "--agent", "openai:"+srv.Config().Model, "--concurrency", "1", "--out", filepath.Join(dir, "out"), filepath.Join(dir, "models.matrix.yaml"))
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "6 job(s): 6 passed")

	type sent struct {
		model       string
		temperature float64
		maxTokens   int
	}
	var got []sent
	models := map[string]int{}
	for _, r := range srv.Requests() {
		require.NotNil(t, r.Chat.Temperature, "the character's temperature is sent")
		s := sent{model: r.Chat.Model, temperature: *r.Chat.Temperature}
		s.maxTokens = r.Chat.MaxTokens
		got = append(got, s)
		models[r.Chat.Model]++
	}
	assert.Equal(t, map[string]int{"gpt-4-turbo": 2, "gpt-3.5-turbo": 2, "claude-3": 2}, models, "three models, each at two temperatures; never the agent's default")
	assert.True(t, slices.ContainsFunc(got, func(s sent) bool { return s.model == "claude-3" && s.temperature == 0.9 && s.maxTokens == 300 }), "%v", got)
	assert.True(t, slices.ContainsFunc(got, func(s sent) bool { return s.model == "gpt-3.5-turbo" && s.temperature == 0.1 }), "%v", got)
}
