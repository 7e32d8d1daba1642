package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/examples/plugins"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// randomModel answers every request at random: the agent yes or no, or a
// call of the mock tool (whose probability draw then decides its answer);
// the simulated user and the judge yes or no; each with random token
// counts. No two runs against it agree, so only a replay of the recording
// can reproduce one.
func randomModel(seed uint64) llmtest.ReplyFunc {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 7))
	return func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		usage := llm.Usage{PromptTokens: 1 + rng.IntN(500), CompletionTokens: 1 + rng.IntN(50)}
		usage.CacheReadTokens = rng.IntN(usage.PromptTokens)
		usage.TotalTokens = usage.PromptTokens + usage.CompletionTokens
		msgs := r.Chat.Messages
		if len(r.Chat.Tools) > 0 && len(msgs) > 0 && msgs[len(msgs)-1].Role == llm.RoleUser && rng.IntN(2) == 0 {
			return llmtest.Reply{ToolCalls: []llm.ToolCall{{ID: "call-1", Name: r.Chat.Tools[0].Name, Arguments: json.RawMessage(`{"city":"Oslo"}`)}}, Usage: &usage}
		}
		return llmtest.Reply{Content: []string{"yes", "no", "Yes, thank you"}[rng.IntN(3)], Usage: &usage}
	}
}

// TestReplayIsTheRun records a run at concurrency 8 against a model that
// answers at random (an openai: agent, a simulated user, an llm_judge with
// 3 samples; 5 runs), then replays it with the server gone: every job
// record is the recording's, field for field, timings aside.
func TestReplayIsTheRun(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start()
	defer srv.Close()
	srv.Handle(randomModel(rand.Uint64()))
	model := "openai:" + srv.Config().Model
	live := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}
	run := func(vars map[string]string, args ...string) (int, string) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] }}
		return mainWith(context.Background(), env, args), errb.String()
	}
	dir := t.TempDir()
	rec, recOut, playOut := filepath.Join(dir, "cassette"), filepath.Join(dir, "recorded"), filepath.Join(dir, "replayed")
	args := []string{"run", "--agent", model, "--user-model", model, "--judge-model", model, "--runs", "5", "--concurrency", "8", "--record", rec}
	code, stderr := run(live, append(args, "--out", recOut, "testdata/run/replay.scenario.yaml")...)
	require.NotEqual(t, exitUsage, code, stderr)
	calls := len(srv.Requests())
	require.Greater(t, calls, 5*(1+3+3+1), "every call of every run reached the model: %s", stderr)
	srv.Close()

	// Offline: no server, and no key either.
	offline := map[string]string{"OPENAI_BASE_URL": srv.URL}
	code2, stderr2 := run(offline, append(args, "--replay", "--out", playOut, "testdata/run/replay.scenario.yaml")...)
	assert.Equal(t, code, code2, stderr2)
	recorded, replayed := jobRecords(t, recOut), jobRecords(t, playOut)
	require.Len(t, recorded, 5)
	assert.Equal(t, recorded, replayed)
	for _, j := range recorded {
		// Every job got to its judge's three samples: the equality above
		// is of whole runs, not of jobs that failed early alike.
		assert.Contains(t, j, `"samples": 3`)
		assert.NotContains(t, j, "not recorded")
	}
}

// jobRecords reads a results file's job records by id, with what depends
// on the clock taken out.
func jobRecords(t *testing.T, out string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	jobs := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		if rec["record"] != "job" {
			continue
		}
		dropTimings(rec)
		b, err := json.MarshalIndent(rec, "", " ")
		require.NoError(t, err)
		jobs[rec["id"].(string)] = string(b)
	}
	require.NoError(t, sc.Err())
	return jobs
}

// dropTimings removes every field that times something, at any depth.
func dropTimings(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			switch k {
			case "started", "duration_ms", "at", "duration", "start", "end", "latency_ms", "elapsed_ms":
				delete(x, k)
			default:
				dropTimings(x[k])
			}
		}
	case []any:
		for _, e := range x {
			dropTimings(e)
		}
	}
}

// TestReplayAnswersCheckpointsOffline records a run whose scenario scores a
// GitHub checkpoint through the real GraphQL client against the fake GitHub,
// then replays it with the fake stopped: the checkpoint's answer comes from
// the cassette, so the replayed job is the recorded one, timings aside, and
// not an incomplete job that could not reach GitHub.
func TestReplayAnswersCheckpointsOffline(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	require.NoError(t, plugins.Register(kit))
	dir := t.TempDir()
	file := filepath.Join(dir, "host.scenario.yaml")
	require.NoError(t, os.WriteFile(file, plugins.Scenario, 0o644))
	gh := githubfake.NewServer(t)
	gh.AddRepo("acme/widgets").AddIssue(githubfake.Issue{Title: "App crashes on start"})
	cassette, recOut, playOut := filepath.Join(dir, "cassette"), filepath.Join(dir, "recorded"), filepath.Join(dir, "replayed")
	args := []string{"run", "--agent", "shout", "--graphql-url", gh.GraphQLURL(), "--record", cassette}

	code, _, stderr := runCLIKit(t, kit, append(args, "--out", recOut, file)...)
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stderr, "1 job(s): 1 passed")
	gh.Close()

	code, _, stderr = runCLIKit(t, kit, append(args, "--replay", "--out", playOut, file)...)
	require.Equal(t, exitOK, code, "the checkpoint is answered from the cassette with GitHub gone: %s", stderr)
	recorded, replayed := jobRecords(t, recOut), jobRecords(t, playOut)
	require.Len(t, recorded, 1)
	assert.Equal(t, recorded, replayed)
	for _, j := range recorded {
		assert.Contains(t, j, `"expected": "title mentions crash"`, "the checkpoint was scored")
	}
}
