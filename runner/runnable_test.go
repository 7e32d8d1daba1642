package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/matrix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/scenario"
)

// quoted renders s as a YAML double-quoted string.
func quoted(s string) string { return fmt.Sprintf("%q", s) }

func load(t *testing.T, name, text string) *scenario.Scenario {
	t.Helper()
	f, err := testLoad(name, []byte(text))
	require.NoError(t, err)
	return f.Scenario
}

// A code step runs only with consent: without AllowCommands the job runs
// nothing (not even the agent) and is incomplete, saying why.
func TestCodeStepsNeedConsent(t *testing.T) {
	t.Parallel()
	witness := filepath.Join(t.TempDir(), "ran")
	s := load(t, "code.scenario.yaml", `name: code
description: a code step that leaves a witness
environment: {type: local}
run:
  - input: hello
    evaluations: [{type: string_contains, value: hello}]
  - lang: sh
    code: `+quoted("touch "+witness+"; echo ok")+`
    evaluations: [{type: string_contains, value: ok}]
judgment: {strategy: all_pass}
`)
	sent := false
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
		sent = true
		return Reply{Text: m}, nil
	})
	res := runOne(t, Config{Agent: agent}, s)
	assert.False(t, res.Completed)
	assert.False(t, res.Passed)
	assert.Equal(t, "not completed: cannot run here: it runs commands (a sh code step at run[1]) and commands are not allowed; pass --allow-commands (Config.AllowCommands) to run them", res.Reason)
	assert.NoFileExists(t, witness)
	assert.False(t, sent, "nothing of the job runs")
	assert.Equal(t, []string{res.Error[len("cannot run here: "):]}, Config{Agent: agent}.Unrunnable(s))

	res = runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, s)
	assert.True(t, res.Passed, res.Explain())
	assert.FileExists(t, witness)
}

// command_exit_code_is without consent: the command never ran, so the job
// is incomplete, not failed.
func TestCommandCheckWithoutConsentIsIncomplete(t *testing.T) {
	t.Parallel()
	witness := filepath.Join(t.TempDir(), "ran")
	s := load(t, "cmd.scenario.yaml", `name: cmd
description: a command check
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: hello}
      - {type: command_exit_code_is, command: `+quoted("touch "+witness)+`}
judgment: {strategy: all_pass}
`)
	res := runOne(t, Config{Agent: echoAgent{}}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "it runs commands (command_exit_code_is at run[0].evaluations[1]) and commands are not allowed")
	assert.NoFileExists(t, witness)
}

func TestEnvironmentWithoutProvider(t *testing.T) {
	t.Parallel()
	s := load(t, "e2b.scenario.yaml", `name: e2b
description: runs in a sandbox
environment: {type: e2b}
run:
  - input: hello
    evaluations: [{type: string_contains, value: hello}]
judgment: {strategy: all_pass}
`)
	sink := &memSink{}
	plain := loadScenario(t, "echo.scenario.yaml")
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("e2b", s, 2), sources.Scenario("echo", plain, 1)}, matrix.Shard{})
	require.NoError(t, err)
	sum, err := Run(t.Context(), Config{Agent: echoAgent{}, Results: sink}, jobs)
	require.NoError(t, err, "one job's impossibility never sinks the batch")
	assert.EqualValues(t, 3, sum.Jobs)
	assert.EqualValues(t, 1, sum.Passed)
	require.Len(t, sink.results, 3)
	for _, r := range sink.results {
		if r.Scenario == "e2b" {
			assert.False(t, r.Completed)
			assert.Contains(t, r.Error, `environment type "e2b" has no provider registered`)
			assert.Contains(t, r.Error, "--env-fallback local (Config.EnvFallback)")
			assert.Empty(t, r.Environment)
		} else {
			assert.True(t, r.Passed)
			assert.Equal(t, "local", r.Environment)
		}
	}

	res := runOne(t, Config{Agent: echoAgent{}, EnvFallback: "local"}, s)
	assert.True(t, res.Passed, res.Explain())
	assert.Equal(t, "local", res.Environment)
	assert.Equal(t, []string{`environment "e2b" has no provider here; ran in "local" instead (EnvFallback)`}, res.Notes)

	res = runOne(t, Config{Agent: echoAgent{}, EnvFallback: "moon"}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, `the fallback: unknown environment type "moon"`)
}

func TestMissingPartsMakeJobsIncomplete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, text, want string
	}{
		{"no manifest", "f.json", `{"id": "fix-typo-001", "name": "n", "description": "d", "category": "repo", "difficulty": "basic", "tags": [], "timeoutMs": 60000, "allowedRetries": 0, "prompt": "Fix PR {{pr}}",
  "fixture": {"repo": "acme/x", "requires": ["pr_with_review"], "bindings": {"pr": "pr_with_review.number"}},
  "assertions": {"checkpoints": [{"id": "c", "description": "d", "task": "pr.view", "input": {}, "condition": {"type": "non_empty"}}]}}`,
			"it needs fixture pr_with_review and no fixture manifest is configured; pass --manifest (Config.Fixtures)"},
		{"no checkpoint executor", "c.json", `{"id": "check-001", "name": "n", "description": "d", "category": "repo", "difficulty": "basic", "tags": [], "timeoutMs": 60000, "allowedRetries": 0, "prompt": "Go",
  "assertions": {"checkpoints": [{"id": "c", "description": "d", "task": "repo.view", "input": {"owner": "a", "name": "b"}, "condition": {"type": "non_empty"}}]}}`,
			"it has 1 checkpoint(s) and no checkpoint executor is configured; set GITHUB_TOKEN or pass --graphql-url (Config.Checkpoints)"},
		{"no user model", "u.scenario.yaml", `name: u
description: a conversation
environment: {type: local}
run:
  - input: hi
    conversation: {max_turns: 3, final_evaluations: [{type: string_contains, value: hi}]}
judgment: {strategy: all_pass}
`, "its conversation at run[0] needs a user simulator model and none is configured; pass --user-model (Config.UserModel)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := runOne(t, Config{Agent: echoAgent{}}, load(t, tc.file, tc.text))
			assert.False(t, res.Completed)
			assert.True(t, strings.HasPrefix(res.Error, "cannot run here: "), res.Error)
			assert.Contains(t, res.Error, tc.want)
			assert.Zero(t, res.Attempts)
		})
	}
}

// A run that checks nothing neither passes nor fails.
func TestNothingCheckedIsIncomplete(t *testing.T) {
	t.Parallel()
	res := runOne(t, Config{Agent: echoAgent{}}, load(t, "empty.scenario.yaml", `name: empty
description: checks nothing
environment: {type: local}
run:
  - input: hello
    evaluations: []
judgment: {strategy: all_pass}
`))
	assert.False(t, res.Completed)
	assert.False(t, res.Passed)
	assert.Contains(t, res.Reason, "nothing was checked: the scenario has no evaluations and no checkpoints")
	require.NotEmpty(t, res.Transcript, "what the agent did is kept")
}

// A checkpoint GitHub refused (403) says nothing about the state: the job
// is incomplete, not failed.
func TestCheckpointRefusedIsIncomplete(t *testing.T) {
	t.Parallel()
	gh := githubfake.NewServer(t)
	gh.AddOrganization("acme")
	gh.AddRepo("acme/demo")
	exec := github.NewExecutor(github.NewClient(github.Config{GraphQLURL: gh.GraphQLURL(), Transport: gh.Client().Transport, MaxWait: -1}), github.ExecutorOptions{})
	s := load(t, "c.json", `{"id": "check-001", "name": "n", "description": "d", "category": "repo", "difficulty": "basic", "tags": [], "timeoutMs": 60000, "allowedRetries": 0, "prompt": "Go",
  "assertions": {"checkpoints": [{"id": "repo-there", "description": "d", "task": "repo.view", "input": {"owner": "acme", "name": "demo"}, "condition": {"type": "non_empty"}}]}}`)
	cfg := Config{Agent: echoAgent{}, Checkpoints: checkpoint.Checker{Executor: exec}}

	res := runOne(t, cfg, s)
	require.True(t, res.Passed, res.Explain())

	gh.SimulateRateLimit(githubfake.RateLimit{Requests: 10, Reset: time.Now().Add(time.Hour)})
	res = runOne(t, cfg, s)
	assert.False(t, res.Completed)
	assert.False(t, res.Passed)
	assert.Contains(t, res.Error, "1 of 1 checkpoint(s) could not be decided: repo-there (")
	assert.Contains(t, res.Error, "status 403")
	require.Len(t, res.Checkpoints, 1, "the checkpoint's result is kept")
}

func TestUnrunnableListsEveryReason(t *testing.T) {
	t.Parallel()
	s := load(t, "all.scenario.yaml", `name: all
description: needs everything
environment: {type: e2b}
run:
  - {lang: python3, code: "print(1)", evaluations: [{type: llm_judge, prompt: "ok?", expected: "yes"}]}
judgment: {strategy: all_pass}
`)
	got := Config{Agent: echoAgent{}}.Unrunnable(s)
	require.Len(t, got, 3, strings.Join(got, "\n"))
	assert.Contains(t, got[0], `"e2b" has no provider`)
	assert.Contains(t, got[1], "a python3 code step at run[0]")
	assert.Contains(t, got[2], "llm_judge at run[0].evaluations[0]")
	assert.Len(t, Config{Agent: echoAgent{}, EnvFallback: "local", AllowCommands: true}.Unrunnable(s), 1)
}

// A concurrency far above the jobs there are costs nothing: workers and
// buffers follow the jobs. (Not parallel: it measures allocation.)
func TestConcurrencyIsBoundedByTheJobs(t *testing.T) {
	s := loadScenario(t, "echo.scenario.yaml")
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("echo", s, 1)}, matrix.Shard{})
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	sum, err := Run(t.Context(), Config{Agent: echoAgent{}, Concurrency: 100_000_000}, jobs)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.EqualValues(t, 1, sum.Passed)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "a run of one job allocated as if for the concurrency asked")
}

// With a working directory, virtual_fs, code steps, commands and file
// checks share one base.
func TestWorkingDirectoryIsOneBase(t *testing.T) {
	t.Parallel()
	s := load(t, "wd.scenario.yaml", `name: wd
description: files in a working directory
environment:
  type: local
  setup: {workingDirectory: sub/dir}
setup:
  virtual_fs:
    "data/in.txt": hello
run:
  - lang: sh
    code: "cat data/in.txt; pwd"
    evaluations:
      - {type: string_contains, value: hello}
      - {type: regex_match, pattern: "/sub/dir$"}
      - {type: file_exists, path: data/in.txt}
      - {type: file_contains, path: data/in.txt, value: hello}
      - {type: command_exit_code_is, command: "test -f data/in.txt"}
judgment: {strategy: all_pass}
`)
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, s)
	assert.True(t, res.Passed, res.Explain())
}

// Messages say each thing once: "step 0", not "step step 0"; "judge: ",
// not "judge: judge: ".
func TestMessagesSayThingsOnce(t *testing.T) {
	t.Parallel()
	js := llmtest.NewServer(t) // unscripted: every request is refused
	j, err := judge.New(judge.Config{Model: js.Model()})
	require.NoError(t, err)
	s := load(t, "j.scenario.yaml", `name: j
description: a judge that fails
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: goodbye}
      - {type: llm_judge, prompt: "Polite?", expected: "yes"}
judgment: {strategy: all_pass}
`)
	res := runOne(t, Config{Agent: echoAgent{}, Judge: j}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "evaluation llm_judge (step 0) reached no verdict: judge: model API: 400")
	msg := res.Explain()
	assert.Contains(t, msg, "\n  step 0: string_contains")
	for _, twice := range []string{"judge: judge:", "step step"} {
		assert.NotContains(t, res.Error, twice)
		assert.NotContains(t, msg, twice)
	}
}
