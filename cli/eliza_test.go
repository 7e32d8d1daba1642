package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// elizaPackages are the ElizaOS packages the eliza agent's tests run,
// as scripts/test.sh's npm_packages installs them.
var elizaPackages = []string{"@elizaos/core@1.7.2", "@elizaos/plugin-sql@1.7.2", "@elizaos/plugin-bootstrap@1.7.2", "@elizaos/plugin-openai@1.6.0", "zod@4.6.7"}

// elizaReply is what ElizaOS's message handler expects of its model: its
// XML response format, with the agent's thought, actions and text.
func elizaReply(thought, actions, text string) llmtest.Reply {
	return llmtest.Text("<response><thought>" + thought + "</thought><actions>" + actions +
		"</actions><providers></providers><text>" + text + "</text></response>")
}

// TestElizaRunsUpstreamScenario runs one of ElizaOS's own example scenarios
// (nl-smoke: one input step, a regex on the reply) with --agent eliza:
// a real ElizaOS runtime (plugin-sql on PGLite, plugin-bootstrap,
// plugin-openai) whose model is the llmtest server. The scenario's
// character reaches the model (its system prompt and llm.model in the
// request), the verdict is the author's, and no database is left behind.
func TestElizaRunsUpstreamScenario(t *testing.T) {
	testtool.NeedNPM(t, elizaPackages...)
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("The user wants a greeting.", "REPLY", "Hello! Nice to meet you.")
	})
	dir := t.TempDir()
	scen, err := os.ReadFile(filepath.Join(corpusDir, "eliza-7a128d1/packages/cli/src/commands/scenario/examples/nl-smoke.scenario.yaml"))
	require.NoError(t, err)
	scen = append(scen, []byte("\ncharacter:\n  name: Ada\n  system: You are Ada, a terse tester.\n  llm:\n    model: ada-large\n")...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nl-smoke.scenario.yaml"), scen, 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLIEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey},
		"run", "--agent", "eliza", "--out", out, filepath.Join(dir, "nl-smoke.scenario.yaml"))
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	assert.Contains(t, stderr, "1 passed")

	var sawCharacter bool
	for _, r := range srv.Requests() {
		require.NoError(t, r.DecodeError)
		assert.Equal(t, "/v1/responses", r.Path)
		if r.Chat.Model == "ada-large" && len(r.Chat.Messages) > 0 && r.Chat.Messages[0].Content == "You are Ada, a terse tester." &&
			strings.Contains(r.LastUserMessage(), "Say hello") {
			sawCharacter = true
		}
	}
	assert.True(t, sawCharacter, "no request carried the character's model and system prompt with the step's input: %+v", srv.Requests())
	jobs := readJobs(t, out)
	require.Len(t, jobs, 1)
	assert.True(t, jobs[0].Passed, "%+v", jobs[0])
	assert.Positive(t, jobs[0].Usage.TotalTokens, "the runtime's MODEL_USED events count the tokens")
	leftovers, err := filepath.Glob(filepath.Join(out, "work", "*", "*", ".eliza-*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers)
}

// TestElizaProjectActionCallsMockedService runs examples/eliza (an ElizaOS
// project: character Skye, a GET_WEATHER action calling its weather
// service) with --agent eliza:examples/eliza: the model picks the action,
// the action's service call is answered by the scenario's mocks (by
// specificity: Paris by its own mock, Oslo by the catch-all), the
// trajectory holds the action the runtime ran, and both steps pass.
func TestElizaProjectActionCallsMockedService(t *testing.T) {
	testtool.NeedNPM(t, elizaPackages...)
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("The user asks about the weather.", "GET_WEATHER", "Let me look that up.")
	})
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runCLIEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey},
		"run", "--agent", "eliza:../examples/eliza", "--out", out, "../examples/eliza/weather.scenario.yaml")
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	jobs := readJobs(t, out)
	require.Len(t, jobs, 1)
	j := jobs[0]
	assert.True(t, j.Passed, "%+v", j)
	require.Len(t, j.MockCalls, 2, "%+v", j.MockCalls)
	assert.Equal(t, "weather", j.MockCalls[0].Service)
	assert.Equal(t, "forecast", j.MockCalls[0].Method)
	assert.Equal(t, []any{map[string]any{"city": "Paris"}}, j.MockCalls[0].Args)
	assert.Equal(t, 0, j.MockCalls[0].Mock)
	assert.Equal(t, []any{map[string]any{"city": "Oslo"}}, j.MockCalls[1].Args)
	assert.Equal(t, 1, j.MockCalls[1].Mock)
	var system bool
	for _, r := range srv.Requests() {
		if len(r.Chat.Messages) > 0 && strings.HasPrefix(r.Chat.Messages[0].Content, "You are Skye.") && r.Chat.Model == "gpt-4o-mini" {
			system = true
		}
	}
	assert.True(t, system, "the scenario's character reached the model")
}

// TestElizaMissingPluginIsIncomplete: a scenario whose plugin is not
// installed leaves its job incomplete, naming the plugin and how to
// install it; a disabled plugin is not loaded at all.
func TestElizaMissingPluginIsIncomplete(t *testing.T) {
	testtool.NeedNPM(t, elizaPackages...)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.scenario.yaml"), []byte(`name: plugins
description: one plugin missing, one disabled
plugins:
  - "@elizaos/plugin-sql"
  - name: "@elizaos/plugin-disabled-one"
    enabled: false
  - "@elizaos/plugin-not-installed"
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: hello}
judgment: {strategy: all_pass}
`), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLIEnv(t, map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
		"run", "--agent", "eliza", "--out", out, filepath.Join(dir, "p.scenario.yaml"))
	require.NotEqual(t, 0, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
	jobs := readJobs(t, out)
	require.Len(t, jobs, 1)
	assert.False(t, jobs[0].Completed)
	assert.Contains(t, jobs[0].Reason, "@elizaos/plugin-not-installed is not installed")
	assert.Contains(t, jobs[0].Reason, "npm install --global --prefix")
	assert.NotContains(t, jobs[0].Reason, "plugin-disabled-one")
}
