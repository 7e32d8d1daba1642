package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/githubmcpfake"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm"
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
//
// The scripted model does the scenario's task (reply to each unresolved
// review thread of the seeded pull request) with each mode's tools, reading
// what the tools returned: baseline through the real gh, pointed at the
// fake's TLS listener by GH_HOST, GH_ENTERPRISE_TOKEN and SSL_CERT_FILE;
// mcp through GitHub's MCP server's tools (internal/githubmcpfake over the
// same fake, reached with GH_TOKEN as bearer token). Their checkpoints
// pass because the agent's calls changed the fake's state. ghx itself is
// not installable here (its npm package @ghx-dev/core is not served by
// the registry), so the ghx mode's `ghx run` fails as it would for a
// user without ghx, and its checkpoints fail.
func TestRunGhxModesOnOpenCode(t *testing.T) {
	t.Parallel()
	bin := testtool.Need(t, "opencode")
	testtool.Need(t, "gh")
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../testdata/corpus/ghx-f128993/packages/eval")))
	cfg := filepath.Join(dir, "config", "eval.config.yaml")
	// The scenario's 2 minutes are raised in this copy: on a loaded CI
	// machine OpenCode's start-up alone has taken a minute.
	scen := filepath.Join(dir, "scenarios", "pr-reply-threads-wf-001.json")
	b, err := os.ReadFile(scen)
	require.NoError(t, err)
	require.Contains(t, string(b), `"timeoutMs": 120000`)
	require.NoError(t, os.WriteFile(scen, []byte(strings.Replace(string(b), `"timeoutMs": 120000`, `"timeoutMs": 900000`, 1)), 0o644))
	g := seedGhxGitHub(t, dir)
	g.srv.AddRepo("aryeko/ghx-bench-fixtures")
	host, certPEM := g.srv.EnterpriseHost()
	cert := filepath.Join(dir, "github-fake.pem")
	require.NoError(t, os.WriteFile(cert, certPEM, 0o600))
	skill := filepath.Join(dir, "SKILL-of-test.md")
	require.NoError(t, os.WriteFile(skill, []byte("# ghx skill ghx-skill-marker-42\nUse ghx run.\n"), 0o644))
	ghxBin := filepath.Join(dir, "ghx-bin")
	require.NoError(t, os.Mkdir(ghxBin, 0o755))
	model := llmtest.NewServer(t)
	model.Handle(ghxTaskModel(t))
	token := g.vars["GH_TOKEN"]
	vars := map[string]string{"GH_TOKEN": token, "AGENTEVAL_OPENCODE": bin, "OPENAI_BASE_URL": model.URL,
		"OPENAI_API_KEY": "sk-test-not-a-real-key-0000", "PATH": os.Getenv("PATH"),
		"GHX_SKILL_MD": skill, "GHX_BIN_DIR": ghxBin, "PROFILER_REPETITIONS": "1",
		// gh reaches the fake as a GitHub Enterprise Server host.
		"GH_HOST": host, "GH_ENTERPRISE_TOKEN": token, "SSL_CERT_FILE": cert,
		// The GitHub MCP server's tools over the same fake.
		"AGENTEVAL_GITHUB_MCP_URL": githubmcpfake.Serve(t, g.srv.URL)}
	code, _, stderr := runCLIEnv(t, vars, "run", "--suite", cfg, "--model", "fake-model", "--scenario", "pr-reply-threads-wf-001",
		"--skip-warmup", "--concurrency", "1", "--allow-commands", "--seed-file", g.seed, g.url)
	require.Equal(t, exitFail, code, stderr) // the ghx mode fails: no ghx
	assert.Contains(t, stderr, "3 job(s): 2 passed, 1 failed, 0 incomplete", stderr)
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
		assert.Positive(t, trace.Summary.TotalTurns, mode)
		require.NotEmpty(t, trace.Events)
	}
	// ghx's results.csv columns, one row per session.
	code, stdout, stderr := runCLIEnv(t, vars, "report", "--format", "csv", filepath.Join(dir, "results"))
	require.Equal(t, exitOK, code, stderr)
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, rows, 4)
	assert.True(t, strings.HasPrefix(rows[0], "run_id,scenario_id,mode,model,iteration,success,timing_wall_ms,tokens_input"), rows[0])
	assert.Contains(t, stdout, ",pr-reply-threads-wf-001,mcp,fake-model,0,true,")
	assert.Contains(t, stdout, ",pr-reply-threads-wf-001,baseline,fake-model,0,true,")

	// The token the agents' gh and MCP server used is in no file of the run.
	require.NoError(t, filepath.WalkDir(filepath.Join(dir, "results"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		assert.NotContains(t, string(b), token, path)
		return err
	}))
	b, err = os.ReadFile(filepath.Join(dir, "results", "results.jsonl"))
	require.NoError(t, err)
	type ghxJob struct {
		Record      string
		Agent       string
		Model       string
		Passed      bool
		Completed   bool
		Checkpoints []struct {
			ID     string
			Passed bool
		}
		Efficiency struct {
			ToolCalls struct {
				Total      int
				Failed     int
				ByCategory map[string]int `json:"by_category"`
			} `json:"tool_calls"`
		}
		Transcript json.RawMessage
	}
	jobs := map[string]ghxJob{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var j ghxJob
		require.NoError(t, json.Unmarshal([]byte(line), &j))
		if j.Record == "job" {
			jobs[j.Agent] = j
		}
	}
	require.Len(t, jobs, 3)
	for _, mode := range []string{"baseline", "mcp", "ghx"} {
		j := jobs[mode]
		assert.Equal(t, "fake-model", j.Model)
		assert.True(t, j.Completed, mode)
		require.Len(t, j.Checkpoints, 4, "%s: every checkpoint scored", mode)
		for _, c := range j.Checkpoints {
			// No thread was resolved in any mode; only the two modes whose
			// tools reached the fake replied.
			want := mode != "ghx" || c.ID == "threads-still-unresolved"
			assert.Equal(t, want, c.Passed, "%s: checkpoint %s", mode, c.ID)
		}
		assert.Equal(t, mode != "ghx", j.Passed, mode)
	}
	// The calls by ghx's categories: gh through bash, the MCP server's
	// tools, and `ghx run` through bash (ghx's classifier takes only a
	// tool named ghx for its category).
	assert.Equal(t, map[string]int{"gh_cli": 4}, jobs["baseline"].Efficiency.ToolCalls.ByCategory)
	assert.Zero(t, jobs["baseline"].Efficiency.ToolCalls.Failed)
	assert.Equal(t, map[string]int{"mcp": 4}, jobs["mcp"].Efficiency.ToolCalls.ByCategory)
	assert.Zero(t, jobs["mcp"].Efficiency.ToolCalls.Failed)
	assert.Equal(t, map[string]int{"bash": 1}, jobs["ghx"].Efficiency.ToolCalls.ByCategory)
	assert.Contains(t, string(jobs["ghx"].Transcript), "ghx run pr.threads.list")

	// The replies are in the fake: three on the seeded pull request's
	// unresolved threads per passing mode's fresh fixture, none on the
	// resolved ones, written by gh's GraphQL mutation and by the MCP
	// server's REST call.
	var ops []string
	for _, r := range g.srv.Requests() {
		ops = append(ops, r.Operation)
	}
	assert.Equal(t, 3, countOf(ops, "mutation addPullRequestReviewThreadReply"))
	assert.Equal(t, 3, countOf(ops, "POST /repos/{owner}/{repo}/pulls/{number}/comments"))

	// Each mode's sessions got the mode's instructions and no other's.
	marks := map[string]string{"baseline": "Use the `gh` CLI tool directly for all GitHub operations.",
		"mcp": "You have access to GitHub tools via the MCP server.", "ghx": "ghx-skill-marker-42"}
	reqs := model.Requests()
	require.NotEmpty(t, reqs)
	seen := map[string]int{}
	for _, r := range reqs {
		modes := requestModes(r, marks)
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

func countOf(xs []string, x string) int {
	n := 0
	for _, v := range xs {
		if v == x {
			n++
		}
	}
	return n
}

// requestModes are the modes whose instructions a model request's system
// messages hold.
func requestModes(r llmtest.Request, marks map[string]string) []string {
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
	return modes
}

// ghxTaskModel is a scripted model that does pr-reply-threads-wf-001 as a
// model would in each of ghx's modes, from what it is sent: the mode from
// the system prompt, the pull request from the task, the unresolved
// threads from the tool's answer. It lists the review threads, replies to
// each unresolved one, then says it is done.
func ghxTaskModel(t *testing.T) llmtest.ReplyFunc {
	task := regexp.MustCompile(`PR #(\d+) in ([\w.-]+)/([\w.-]+)`)
	return func(r llmtest.Request) llmtest.Reply {
		modes := requestModes(r, map[string]string{"baseline": "Use the `gh` CLI tool directly", "mcp": "GitHub tools via the MCP server", "ghx": "ghx-skill-marker-42"})
		var pr []string
		results := map[string]string{} // tool call id -> what it returned
		for _, m := range r.Chat.Messages {
			if m.Role == "user" && pr == nil {
				pr = task.FindStringSubmatch(m.Content)
			}
			if m.Role == "tool" {
				results[m.ToolCallID] = m.Content
			}
		}
		if len(modes) != 1 || pr == nil {
			return llmtest.Text("I can only reply to review threads.")
		}
		number, owner, repo := pr[1], pr[2], pr[3]
		mcpTool := func(suffix string) string {
			for _, tool := range r.Chat.Tools {
				if strings.HasSuffix(tool.Name, suffix) {
					return tool.Name
				}
			}
			return suffix
		}
		call := func(id, name string, args map[string]any) llm.ToolCall {
			b, err := json.Marshal(args)
			if err != nil {
				panic(err)
			}
			return llm.ToolCall{ID: id, Name: name, Arguments: b}
		}
		listed, ok := results["call_list"]
		if !ok {
			switch modes[0] {
			case "baseline":
				q := fmt.Sprintf(`query { repository(owner: "%s", name: "%s") { pullRequest(number: %s) { reviewThreads(first: 50) { nodes { id isResolved comments(first: 20) { nodes { body } } } } } } }`, owner, repo, number)
				return llmtest.Calls(call("call_list", "bash", map[string]any{"command": "gh api graphql -f query='" + q + "'", "description": "List the review threads"}))
			case "mcp":
				return llmtest.Calls(call("call_list", mcpTool("pull_request_read"), map[string]any{"method": "get_review_comments", "owner": owner, "repo": repo, "pullNumber": atoi(number)}))
			default:
				input := fmt.Sprintf(`{"owner":"%s","name":"%s","prNumber":%s,"unresolvedOnly":true}`, owner, repo, number)
				return llmtest.Calls(call("call_list", "bash", map[string]any{"command": "ghx run pr.threads.list --input '" + input + "'", "description": "List the review threads"}))
			}
		}
		if _, replied := results["call_reply_0"]; replied || modes[0] == "ghx" {
			return llmtest.Text("Replied to each unresolved thread.")
		}
		// The unresolved threads, from the listing the tool returned.
		var page struct {
			Data struct {
				Repository struct {
					PullRequest struct {
						ReviewThreads threadPage `json:"reviewThreads"`
					} `json:"pullRequest"`
				} `json:"repository"`
			} `json:"data"`
		}
		var threads threadPage
		if modes[0] == "baseline" {
			if err := json.Unmarshal([]byte(listed), &page); err != nil {
				return llmtest.Text("gh answered something I cannot read: " + listed)
			}
			threads = page.Data.Repository.PullRequest.ReviewThreads
		} else if err := json.Unmarshal([]byte(listed), &threads); err != nil {
			return llmtest.Text("The MCP tool answered something I cannot read: " + listed)
		}
		var calls []llm.ToolCall
		for _, th := range threads.Nodes {
			if th.IsResolved {
				continue
			}
			id := fmt.Sprintf("call_reply_%d", len(calls))
			body := "Suggested fix: " + th.Comments.Nodes[0].Body
			if modes[0] == "baseline" {
				m := fmt.Sprintf(`mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: "%s", body: "%s"}) { comment { id } } }`, th.ID, body)
				calls = append(calls, call(id, "bash", map[string]any{"command": "gh api graphql -f query='" + m + "'", "description": "Reply to a thread"}))
				continue
			}
			anchor := th.Comments.Nodes[0].URL[strings.LastIndex(th.Comments.Nodes[0].URL, "_r")+2:]
			calls = append(calls, call(id, mcpTool("add_reply_to_pull_request_comment"), map[string]any{"owner": owner, "repo": repo,
				"pullNumber": atoi(number), "commentId": atoi(anchor), "body": body}))
		}
		if len(calls) == 0 {
			return llmtest.Text("No unresolved threads in: " + listed)
		}
		return llmtest.Calls(calls...)
	}
}

// threadPage is a page of review threads as GraphQL gives them.
type threadPage struct {
	Nodes []struct {
		ID         string `json:"id"`
		IsResolved bool   `json:"isResolved"`
		Comments   struct {
			Nodes []struct {
				Body string `json:"body"`
				URL  string `json:"url"`
			} `json:"nodes"`
		} `json:"comments"`
	} `json:"nodes"`
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
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

// TestSecretsOfAGetenvAreMasked: with the environment given only as getenv
// (a host's, the tests'), the tokens agenteval reads and hands to agents
// (gh's for ghx's modes among them) are masked in what a command prints.
func TestSecretsOfAGetenvAreMasked(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "OPENAI_API_KEY"} {
		var out bytes.Buffer
		value := "not-a-known-shape-" + strings.ToLower(name) // no token prefix the redactor knows by shape
		env := withRedactor(&cliEnv{stdout: &out, stderr: io.Discard, getenv: func(k string) string {
			if k == name {
				return value
			}
			return ""
		}})
		_, err := fmt.Fprintf(env.stdout, "the agent printed %s\n", value)
		require.NoError(t, err)
		assert.NotContains(t, out.String(), value, name)
	}
}
