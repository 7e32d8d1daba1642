package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
)

// costServer answers the agent, the simulated user and the judge, each on
// its own model, with a usage of its own per call, and counts the usage it
// reported per model.
type costServer struct {
	*llmtest.Server
	mu       sync.Mutex
	reported map[string]llm.Usage
}

func newCostServer(t *testing.T) *costServer {
	s := &costServer{Server: llmtest.NewServer(t), reported: map[string]llm.Usage{}}
	s.Handle(func(r llmtest.Request) llmtest.Reply {
		var reply llmtest.Reply
		u := llm.Usage{PromptTokens: 1000, CompletionTokens: 100, TotalTokens: 1100} // the agent
		switch r.Chat.Model {
		case "gpt-4.1-nano": // the simulated user
			reply, u = llmtest.Text("Please say yes."), llm.Usage{PromptTokens: 300, CompletionTokens: 20, TotalTokens: 320}
		case "judge-x":
			reply, u = llmtest.JSON(map[string]any{"pass": true, "score": 1, "reasoning": "fine"}), llm.Usage{PromptTokens: 2000, CompletionTokens: 50, TotalTokens: 2050}
		default:
			reply = llmtest.Text("yes")
		}
		reply.Usage = &u
		s.mu.Lock()
		s.reported[r.Chat.Model] = s.reported[r.Chat.Model].Add(u)
		s.mu.Unlock()
		return reply
	})
	return s
}

func readJobs(t *testing.T, dir string) []results.Job {
	f, err := os.Open(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var jobs []results.Job
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var j results.Job
		require.NoError(t, json.Unmarshal(sc.Bytes(), &j))
		if j.Record == results.RecordJob {
			jobs = append(jobs, j)
		}
	}
	require.NoError(t, sc.Err())
	return jobs
}

// TestRunRecordsEachRolesCost runs a job whose agent, simulated user and
// judge (three samples) are model calls to a fake OpenAI server, through
// the real HTTP client: the record keeps each role's tokens as the server
// reported them and prices each by its own model, a judge model without a
// price is an unknown cost (never 0), a prices file prices it, and the
// Markdown, HTML and JSON reports show the costs.
func TestRunRecordsEachRolesCost(t *testing.T) {
	t.Parallel()
	prices := filepath.Join(t.TempDir(), "prices.yaml")
	require.NoError(t, os.WriteFile(prices, []byte("as_of: \"2026-11-01\"\nmodels:\n  judge-x: {input_per_mtok: 1, output_per_mtok: 4}\n"), 0o644))
	for name, tc := range map[string]struct {
		extra      []string
		judgeKnown bool
	}{
		"judge unpriced":       {},
		"judge priced by file": {extra: []string{"--prices", prices}, judgeKnown: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := newCostServer(t)
			envVars := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}
			run := func(args ...string) (int, string, string) {
				var out, errb bytes.Buffer
				env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return envVars[k] }}
				return mainWith(context.Background(), env, args), out.String(), errb.String()
			}
			out := t.TempDir()
			args := append([]string{"run", "--agent", "openai:gpt-4o-mini", "--user-model", "openai:gpt-4.1-nano",
				"--judge-model", "openai:judge-x", "--out", out}, tc.extra...)
			code, _, stderr := run(append(args, "testdata/run/cost.scenario.yaml")...)
			require.Equal(t, exitOK, code, stderr)
			jobs := readJobs(t, out)
			require.Len(t, jobs, 1)
			j := jobs[0]

			agentU, userU, judgeU := srv.reported["gpt-4o-mini"], srv.reported["gpt-4.1-nano"], srv.reported["judge-x"]
			require.Equal(t, 2*1100, agentU.TotalTokens, "two agent turns")
			require.Equal(t, 320, userU.TotalTokens, "one simulated user turn")
			require.Equal(t, 3*2050, judgeU.TotalTokens, "three judge samples")
			assert.Equal(t, agentU, j.Usage)
			assert.Equal(t, userU, j.UserUsage)
			assert.Equal(t, judgeU, j.JudgeUsage)

			require.NotNil(t, j.Cost)
			// gpt-4o-mini: 0.15 / 0.60 per million; gpt-4.1-nano: 0.10 / 0.40.
			agentUSD := (2000*0.15 + 200*0.60) / 1e6
			userUSD := (300*0.10 + 20*0.40) / 1e6
			require.NotNil(t, j.Cost.Agent)
			require.NotNil(t, j.Cost.User)
			assert.InDelta(t, agentUSD, *j.Cost.Agent, 1e-12)
			assert.InDelta(t, userUSD, *j.Cost.User, 1e-12)
			if !tc.judgeKnown {
				assert.Nil(t, j.Cost.Judge, "an unpriced model's cost is unknown, not 0")
				assert.Nil(t, j.Cost.USD, "a total with an unknown part is unknown")
				assert.Equal(t, []string{"judge: judge-x"}, j.Cost.Unpriced)
			} else {
				judgeUSD := (6000*1.0 + 150*4.0) / 1e6
				require.NotNil(t, j.Cost.Judge)
				require.NotNil(t, j.Cost.USD)
				assert.InDelta(t, judgeUSD, *j.Cost.Judge, 1e-12)
				assert.InDelta(t, agentUSD+userUSD+judgeUSD, *j.Cost.USD, 1e-12)
				assert.Contains(t, j.Cost.AsOf, "2026-11-01")
			}

			code, md, stderr := run("report", "--format", "md", filepath.Join(out, "results.jsonl"))
			require.Equal(t, exitOK, code, stderr)
			code, html, stderr := run("report", "--format", "html", filepath.Join(out, "results.jsonl"))
			require.Equal(t, exitOK, code, stderr)
			code, js, stderr := run("report", "--format", "json", filepath.Join(out, "results.jsonl"))
			require.Equal(t, exitOK, code, stderr)
			var sum struct {
				Cost *results.Cost `json:"cost"`
			}
			require.NoError(t, json.Unmarshal([]byte(js), &sum))
			require.NotNil(t, sum.Cost, "the JSON report totals the cost")
			assert.Equal(t, j.Cost.Agent, sum.Cost.Agent)
			assert.Equal(t, j.Cost.Judge, sum.Cost.Judge)
			if tc.judgeKnown {
				want := "$0.00706 (agent $0.00042 · user $0.000038 · judge $0.0066)"
				assert.Contains(t, md, "| Cost | "+want)
				assert.Contains(t, html, want)
				assert.Equal(t, j.Cost.USD, sum.Cost.USD)
			} else {
				want := "unknown (agent $0.00042 · user $0.000038 · judge unknown); no price for judge: judge-x"
				assert.Contains(t, md, "| Cost | "+want)
				assert.Contains(t, html, want)
				assert.Nil(t, sum.Cost.USD)
			}
		})
	}
}
