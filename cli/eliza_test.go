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
