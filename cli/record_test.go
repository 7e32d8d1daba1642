package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestRunRecordThenReplay records an openai:MODEL agent's answers against a
// local OpenAI-compatible server, then replays the run with the server gone.
func TestRunRecordThenReplay(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start()
	srv.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("Question 1: what is topic-1?") })
	envVars := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return envVars[k] }}
		return mainWith(context.Background(), env, args), errb.String()
	}
	rec := filepath.Join(t.TempDir(), "rec")
	code, stderr := run("run", "--agent", "openai:"+srv.Config().Model, "--record", rec, "--out", t.TempDir(), "testdata/run/echo.scenario.yaml")
	require.Equal(t, exitOK, code, stderr)
	calls := len(srv.Requests())
	require.Positive(t, calls)
	srv.Close()

	code, stderr = run("run", "--agent", "openai:"+srv.Config().Model, "--record", rec, "--replay", "--out", t.TempDir(), "testdata/run/echo.scenario.yaml")
	assert.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stderr, "1 passed")

	code, stderr = run("run", "--agent", "openai:"+srv.Config().Model, "--record", rec, "--replay", "--out", t.TempDir(), "testdata/run/fails.scenario.yaml")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "1 incomplete", "a call that was never recorded fails in replay mode")
	code, stderr = run("run", "--replay", "testdata/run/echo.scenario.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "--replay needs --record")
}
