package examples_test

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
	agentexec "github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/agentevaltest"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/examples"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

func readResults(t *testing.T, path string) []results.Job {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []results.Job
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r results.Job
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		if r.Record == results.RecordJob {
			out = append(out, r)
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestRunAllExamples is the README's first command as a test: every
// example passes, offline.
func TestRunAllExamples(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	sum, err := examples.Run(t.Context(), examples.Options{Out: out})
	require.NoError(t, err)
	results := readResults(t, filepath.Join(out, "results.jsonl"))
	require.Len(t, results, int(sum.Jobs))
	types := map[string]bool{}
	for _, r := range results {
		assert.True(t, r.Passed, "%s: %s %s", r.ID, r.Reason, r.Error)
		for _, e := range r.Evaluations {
			types[e.Type] = true
		}
		if r.Scenario == "pr-fix-typo-001" {
			require.Len(t, r.Checkpoints, 3)
			for _, c := range r.Checkpoints {
				assert.True(t, c.Passed, "%s: %s", c.ID, c.Error)
			}
		}
	}
	// Every evaluation type that needs no model is exercised.
	for _, typ := range []string{"string_contains", "regex_match", "trajectory_contains_action", "trajectory_match", "execution_time",
		"file_exists", "file_contains", "command_exit_code_is", "conversation_length", "conversation_flow", "user_satisfaction", "context_retention"} {
		assert.True(t, types[typ], "no example uses %s", typ)
	}
	assert.EqualValues(t, sum.Jobs, sum.Passed)
	assert.FileExists(t, filepath.Join(out, "results.jsonl.view-index"), "the viewer's index, as a run writes it")
}

// TestGitHubCheckpointFailsWhenTheAgentDoesNothing shows a checkpoint
// failing with a message that says why.
func TestGitHubCheckpointFailsWhenTheAgentDoesNothing(t *testing.T) {
	t.Parallel()
	gh := githubfake.NewServer(t)
	mgr, manifest, err := examples.SeedGitHub(t.Context(), gh)
	require.NoError(t, err)
	f, err := agenteval.New().Loader(scenario.Options{}).LoadFS(examples.Files, "github/pr-fix-typo-001.json")
	require.NoError(t, err)
	idle := runner.AgentFunc(func(context.Context, runner.SessionConfig, string) (runner.Reply, error) {
		return runner.Reply{Text: "I pushed commit abc (not really)."}, nil
	})
	exec := github.NewExecutor(github.NewClient(github.Config{GraphQLURL: gh.GraphQLURL(), Transport: gh.Client().Transport}), github.ExecutorOptions{})
	sink := &sliceSink{}
	jobs, _, err := agenteval.New().Jobs(agenteval.RunConfig{}, f)
	require.NoError(t, err)
	_, err = runner.Run(t.Context(), runner.Config{Agent: idle, Results: sink,
		Checkpoints: checkpoint.Checker{Executor: exec},
		Fixtures: &fixture.Binder{Manifest: manifest, Reset: func(ctx context.Context, s *scenario.Scenario) error {
			return fixture.ResetScenario(ctx, mgr, manifest, s)
		}}}, jobs)
	require.NoError(t, err)
	require.Len(t, sink.r, 1)
	res := sink.r[0]
	assert.True(t, res.Completed)
	assert.False(t, res.Passed)
	require.Len(t, res.Checkpoints, 3)
	assert.False(t, res.Checkpoints[0].Passed, "no commit was pushed")
	assert.Contains(t, res.Checkpoints[0].Error, "count is 1, want >= 2")
	assert.True(t, res.Checkpoints[1].Passed)
	assert.Contains(t, res.Explain(), "checkpoint fix-commit-pushed")
}

type sliceSink struct{ r []*results.Job }

func (s *sliceSink) Write(r *results.Job) error { s.r = append(s.r, r); return nil }

// TestExamplesAsGoSubtests embeds the scenarios in go test: one subtest per
// job, selectable with -run.
func TestExamplesAsGoSubtests(t *testing.T) {
	kit := agenteval.New()
	set, err := kit.Loader(scenario.Options{}).LoadDirFS(examples.Files, "scenarios")
	require.NoError(t, err)
	agentevaltest.RunFiles(t, kit, agentevaltest.Config{Agent: &examples.Agent{}, UserModel: conversation.ScriptedUser(2), AllowCommands: true}, set.Files...)
}

func TestDemoAgentAnswersOverTheExecProtocol(t *testing.T) {
	t.Parallel()
	in := strings.NewReader(`{"type":"start","job":"j","seed":1}` + "\n" + `{"type":"message","id":1,"text":"hello there"}` + "\n")
	var out strings.Builder
	require.NoError(t, agentexec.Serve(t.Context(), in, &out, &examples.Agent{}))
	assert.Contains(t, out.String(), `"type":"reply","id":1,"text":"You said: hello there"`)
}
