package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestRunGhxModesOnOpenCode runs ghx's own eval.config.yaml with no --mode
// mapping: each of its three modes is the real OpenCode against the fake
// model, with the mode's instructions and tools as ghx defines them
// (baseline: ghx's gh instructions; mcp: the GitHub MCP server and ghx's
// MCP instructions; ghx: SKILL.md found as ghx finds it, GHX_SKILL_MD
// here, and GHX_BIN_DIR first on PATH), against the GitHub fake with
// seeded fixtures, whose checkpoints score every job. ghx's run flags pick
// the model (--model), the scenario (--scenario) and skip the warm-up;
// PROFILER_REPETITIONS sets the repetitions as ghx's does.
func TestRunGhxModesOnOpenCode(t *testing.T) {
	t.Parallel()
	bin := testtool.Need(t, "opencode")
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../testdata/corpus/ghx-f128993/packages/eval")))
	cfg := filepath.Join(dir, "config", "eval.config.yaml")
	g := seedGhxGitHub(t, dir)
	g.srv.AddRepo("aryeko/ghx-bench-fixtures")
	skill := filepath.Join(dir, "SKILL-of-test.md")
	require.NoError(t, os.WriteFile(skill, []byte("# ghx skill ghx-skill-marker-42\nUse ghx run.\n"), 0o644))
	ghxBin := filepath.Join(dir, "ghx-bin")
	require.NoError(t, os.Mkdir(ghxBin, 0o755))
	model := llmtest.NewServer(t)
	// Every session answers at once (ghx's scenario allows a retry, which
	// the failed checkpoints use).
	model.Handle(func(llmtest.Request) llmtest.Reply { return llmtest.Text("Done.") })
	vars := map[string]string{"GH_TOKEN": g.vars["GH_TOKEN"], "AGENTEVAL_OPENCODE": bin, "OPENAI_BASE_URL": model.URL,
		"OPENAI_API_KEY": "sk-test-not-a-real-key-0000", "PATH": os.Getenv("PATH"),
		"GHX_SKILL_MD": skill, "GHX_BIN_DIR": ghxBin, "PROFILER_REPETITIONS": "1",
		// No GitHub MCP server here: a loopback port nothing listens on.
		"AGENTEVAL_GITHUB_MCP_URL": "http://127.0.0.1:9/mcp/"}
	code, _, stderr := runCLIEnv(t, vars, "run", "--suite", cfg, "--model", "fake-model", "--scenario", "pr-reply-threads-wf-001",
		"--skip-warmup", "--concurrency", "1", "--seed-file", g.seed, g.url)
	require.Equal(t, exitFail, code, stderr) // the fake model does none of the work
	assert.Contains(t, stderr, "3 job(s): 0 passed, 3 failed, 0 incomplete", stderr)
	assert.NotContains(t, stderr, "warm-up")
	assert.Contains(t, stderr, "3 session trace(s) in")

	// ghx's session_export: one trace per session, beside the results.
	for _, mode := range []string{"baseline", "mcp", "ghx"} {
		b, err := os.ReadFile(filepath.Join(dir, "results", "sessions", "pr-reply-threads-wf-001", mode+"-iter-0.json"))
		require.NoError(t, err, mode)
		var trace struct {
			SessionID string `json:"sessionId"`
			Events    []struct {
				Type    string `json:"type"`
				Content string `json:"content"`
			} `json:"events"`
			Summary struct {
				TotalTurns int `json:"totalTurns"`
			} `json:"summary"`
		}
		require.NoError(t, json.Unmarshal(b, &trace))
		assert.Equal(t, mode+"@fake-model/pr-reply-threads-wf-001/-/run-1", trace.SessionID)
		assert.Equal(t, 1, trace.Summary.TotalTurns)
		require.NotEmpty(t, trace.Events)
		assert.Equal(t, "Done.", trace.Events[0].Content)
	}
	// ghx's results.csv columns, one row per session.
	code, stdout, stderr := runCLIEnv(t, vars, "report", "--format", "csv", filepath.Join(dir, "results"))
	require.Equal(t, exitOK, code, stderr)
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, rows, 4)
	assert.True(t, strings.HasPrefix(rows[0], "run_id,scenario_id,mode,model,iteration,success,timing_wall_ms,tokens_input"), rows[0])
	assert.Contains(t, stdout, ",pr-reply-threads-wf-001,mcp,fake-model,0,false,")

	jobs := readSuiteJobs(t, filepath.Join(dir, "results", "results.jsonl"))
	require.Len(t, jobs, 3)
	for i, mode := range []string{"baseline", "mcp", "ghx"} {
		assert.Equal(t, mode, jobs[i].Agent)
		assert.Equal(t, "fake-model", jobs[i].Model)
		assert.True(t, jobs[i].Completed, jobs[i].ID)
	}
	b, err := os.ReadFile(filepath.Join(dir, "results", "results.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(b), `"checkpoints":[{`), "every job's checkpoints are scored")
	assert.NotContains(t, string(b), g.vars["GH_TOKEN"])

	// Each mode's sessions got the mode's instructions and no other's.
	marks := map[string]string{"baseline": "Use the `gh` CLI tool directly for all GitHub operations.",
		"mcp": "You have access to GitHub tools via the MCP server.", "ghx": "ghx-skill-marker-42"}
	reqs := model.Requests()
	require.NotEmpty(t, reqs)
	seen := map[string]int{}
	for _, r := range reqs {
		var sb strings.Builder
		for _, m := range r.Chat.Messages {
			if m.Role == "system" {
				sb.WriteString(m.Content)
			}
		}
		var modes []string
		for mode, mark := range marks {
			if strings.Contains(sb.String(), mark) {
				modes = append(modes, mode)
			}
		}
		require.Len(t, modes, 1, "one mode's instructions in each session")
		seen[modes[0]]++
	}
	assert.Len(t, seen, 3, "every mode ran: %v", seen)
	for i := range reqs {
		var body struct {
			Model string `json:"model"`
		}
		require.NoError(t, json.Unmarshal(reqs[i].Body, &body))
		assert.Equal(t, "fake-model", body.Model)
	}
}

// TestGhxRunFlags: ghx's run flags and environment overrides change what
// ghx's eval.config.yaml runs, as ghx's own do (planned, not run): --model
// (repeatable), --scenario-set, --scenario (ids win over a set), --mode
// NAME (a subset of modes), PROFILER_REPETITIONS, PROFILER_MODES and
// EVAL_MODEL.
func TestGhxRunFlags(t *testing.T) {
	t.Parallel()
	cfg := "../testdata/corpus/ghx-f128993/packages/eval/config/eval.config.yaml"
	base := []string{"plan", "--format", "json", "--suite", cfg, "--mode", "baseline=echo", "--mode", "mcp=echo", "--mode", "ghx=echo"}
	jobs := func(vars map[string]string, args ...string) int {
		t.Helper()
		code, stdout, stderr := runCLIEnv(t, vars, append(slices.Clone(base), args...)...)
		require.Equal(t, exitOK, code, stderr)
		var p struct {
			Jobs int `json:"jobs"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &p), stdout)
		return p.Jobs
	}
	// The default set has one scenario; 5 repetitions, 3 modes, 1 model.
	assert.Equal(t, 15, jobs(nil))
	assert.Equal(t, 30, jobs(nil, "--model", "a", "--model", "b"))
	assert.Equal(t, 5*3*5, jobs(nil, "--scenario-set", "full"))
	assert.Equal(t, 5*3*1, jobs(nil, "--scenario-set", "full", "--scenario", "pr-review-comment-001"))
	assert.Equal(t, 5*1*2, jobs(nil, "--scenario-set", "pr-only", "--mode", "ghx"))
	assert.Equal(t, 2*3, jobs(map[string]string{"PROFILER_REPETITIONS": "2"}))
	assert.Equal(t, 2*2, jobs(map[string]string{"PROFILER_REPETITIONS": "2", "PROFILER_MODES": "ghx,mcp", "EVAL_MODEL": "x"}))
	code, _, stderr := runCLIEnv(t, map[string]string{"PROFILER_REPETITIONS": "many"}, base...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `PROFILER_REPETITIONS="many": want a whole number of at least 1`)
}
