//go:build unix

package exec

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"

	"github.com/agenteval/agenteval/runner"
)

// servingCommand runs this test binary as a persistent agent (servingAgent),
// carrying marker in its arguments for the process table.
func servingCommand(t *testing.T, marker string) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return "AGENTEVAL_TEST_AGENT=serve exec " + exe + " " + marker
}

// issuesScenario is testdata/issues.scenario.yaml with its own id, input
// and step timeout.
func issuesScenario(t *testing.T, id, input, timeout string) *scenario.Scenario {
	t.Helper()
	s := loadScenario(t, "issues.scenario.yaml")
	d, err := time.ParseDuration(timeout)
	require.NoError(t, err)
	s.ID = id
	s.Run[0].Input, s.Run[0].Timeout = input, scenario.Duration(d)
	return s
}

// runSources runs sources and returns the results by job id and the summary.
func runSources(t *testing.T, cfg runner.Config, srcs ...sources.Source) (map[string]*results.Job, runner.Summary) {
	t.Helper()
	sink := &agenttest.Sink{}
	cfg.Results = sink
	jobs, _, err := sources.Combine(srcs, matrix.Shard{})
	require.NoError(t, err)
	sum, err := runner.Run(t.Context(), cfg, jobs)
	require.NoError(t, err)
	byID := map[string]*results.Job{}
	for _, r := range sink.Results() {
		byID[r.ID] = r
	}
	return byID, sum
}

var servedBy = regexp.MustCompile(`^pid (\d+) session (\d+): `)

// A program that announces many sessions serves a whole run: at most
// --concurrency processes, each used for many sessions, all gone when Run
// returns.
func TestExecPoolKeepsPersistentPrograms(t *testing.T) {
	t.Parallel()
	marker := "agenteval-pool-" + proctest.SleepArg()
	agent := testExecAgent(t, servingCommand(t, marker))
	byID, sum := runSources(t, runner.Config{Agent: agent, Concurrency: 3},
		sources.Scenario("issues", issuesScenario(t, "issues", "list the open issues", "30s"), 24))
	assert.Equal(t, int64(24), sum.Passed)
	assert.Empty(t, sum.Notes)
	pids := map[string]bool{}
	most := 0
	for id, r := range byID {
		require.True(t, r.Passed, "%s: %s", id, r.Explain())
		assert.Equal(t, 7, r.Usage.TotalTokens)
		m := servedBy.FindStringSubmatch(r.Transcript[1].Text)
		require.NotNil(t, m, r.Transcript[1].Text)
		pids[m[1]] = true
		n := 0
		for _, c := range m[2] {
			n = 10*n + int(c-'0')
		}
		most = max(most, n)
	}
	assert.LessOrEqual(t, len(pids), 3, "one process per slot of the pool")
	assert.GreaterOrEqual(t, most, 8, "24 sessions on at most 3 processes")
	assert.Empty(t, proctest.Alive(t, marker), "no process outlives the run")
}

// A program killed mid-session, one that hangs, one that writes garbage
// and one that reports an error each cost their own session only: it is
// recorded with the reason and the tail of the program's stderr, the
// program is killed and replaced, and every other session passes.
func TestExecPoolFailuresCostOnlyTheirSession(t *testing.T) {
	t.Parallel()
	marker := "agenteval-pool-fail-" + proctest.SleepArg()
	agent := testExecAgent(t, servingCommand(t, marker))
	ok := func(id string) *scenario.Scenario { return issuesScenario(t, id, "list the open issues", "30s") }
	// One attempt each: the failures are the subject, not their infrastructure retries.
	byID, sum := runSources(t, runner.Config{Agent: agent, Concurrency: 2, InfraRetries: -1},
		sources.Scenario("ok1", ok("ok1"), 4),
		sources.Scenario("die", issuesScenario(t, "die", "die", "30s"), 1),
		sources.Scenario("ok2", ok("ok2"), 4),
		sources.Scenario("hang", issuesScenario(t, "hang", "hang", "1s"), 1),
		sources.Scenario("ok3", ok("ok3"), 4),
		sources.Scenario("garbage", issuesScenario(t, "garbage", "garbage", "30s"), 1),
		sources.Scenario("ok4", ok("ok4"), 4),
		sources.Scenario("fail", issuesScenario(t, "fail", "fail", "30s"), 1),
		sources.Scenario("ok5", ok("ok5"), 4),
	)
	assert.Equal(t, int64(24), sum.Jobs)
	assert.Equal(t, int64(20), sum.Passed, "every session but the four that broke")
	for id, r := range byID {
		if strings.HasPrefix(id, "ok") {
			assert.True(t, r.Passed, "%s: %s", id, r.Explain())
		}
	}
	notes := func(r *results.Job) string { return strings.Join(r.Notes, "\n") }

	die := byID["die/-/run-1"]
	require.NotNil(t, die)
	assert.False(t, die.Completed)
	assert.Contains(t, die.Error, "signal: killed")
	assert.Contains(t, die.Error, "dying as asked", "the tail of its stderr")

	hang := byID["hang/-/run-1"]
	require.NotNil(t, hang)
	assert.False(t, hang.Completed)
	assert.Contains(t, hang.Error, "timed out")
	assert.Contains(t, notes(hang), "the session broke")
	assert.Contains(t, notes(hang), marker, "the hung program was killed")
	assert.Contains(t, notes(hang), "its stderr: hanging as asked")

	garbage := byID["garbage/-/run-1"]
	require.NotNil(t, garbage)
	assert.False(t, garbage.Completed)
	assert.Contains(t, garbage.Error, "line is not JSON")
	assert.Contains(t, garbage.Error, "this is not the protocol")
	assert.Contains(t, notes(garbage), "its stderr: writing garbage as asked")

	fail := byID["fail/-/run-1"]
	require.NotNil(t, fail)
	assert.False(t, fail.Completed)
	assert.Contains(t, fail.Error, "the agent could not answer message")
	assert.Contains(t, fail.Error, "failing as asked in fail/-/run-1")
	assert.Empty(t, fail.Notes, "an error line is in step: its program is kept")

	assert.Empty(t, proctest.Alive(t, marker), "no process outlives the run")
}

// A program that does not announce many sessions is started for each
// session and ended with it, as before there were pools.
func TestExecPoolStartsOneShotProgramsPerSession(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	agent := testExecAgent(t, `echo $$ >> `+starts+`; read start; read msg; echo '{"type":"reply","id":1,"text":"hello"}'; cat >/dev/null`)
	_, sum := runSources(t, runner.Config{Agent: agent, Concurrency: 2}, sources.Scenario("hi", inputScenario(t, "30s"), 5))
	assert.Equal(t, int64(5), sum.Passed)
	b, err := os.ReadFile(starts)
	require.NoError(t, err)
	assert.Len(t, strings.Fields(string(b)), 5, "one process per session")
}

// A persistent program started in a job's directory is not kept (the
// directory goes with the job); later ones start outside any job's
// directory and learn each session's from its start line.
func TestExecPoolDoesNotKeepProgramsInJobDirectories(t *testing.T) {
	t.Parallel()
	marker := "agenteval-pool-dir-" + proctest.SleepArg()
	f, err := agenttest.Load("cwd.scenario.yaml", []byte(`name: cwd
description: a job with a directory
environment: {type: local}
setup:
  virtual_fs: {"note.txt": "hello"}
run:
  - input: cwd
    evaluations: [{type: string_contains, value: "cwd: ok"}]
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	byID, sum := runSources(t, runner.Config{Agent: testExecAgent(t, servingCommand(t, marker)), Concurrency: 2},
		sources.Scenario("cwd", f.Scenario, 10))
	for id, r := range byID {
		assert.True(t, r.Passed, "%s: %s", id, r.Explain())
	}
	assert.Equal(t, int64(10), sum.Passed)
	assert.Empty(t, proctest.Alive(t, marker))
}

// Cancelling a run ends every program of its pool, the ones serving a
// session included.
func TestExecPoolEndsWithACancelledRun(t *testing.T) {
	t.Parallel()
	marker := "agenteval-pool-cancel-" + proctest.SleepArg()
	agent := testExecAgent(t, servingCommand(t, marker))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	sink := &agenttest.Sink{}
	go func() {
		defer close(done)
		jobs, _, _ := sources.Combine([]sources.Source{
			sources.Scenario("ok", issuesScenario(t, "ok", "list the open issues", "30s"), 3),
			sources.Scenario("hang", issuesScenario(t, "hang", "hang", "60s"), 2),
		}, matrix.Shard{})
		_, _ = runner.Run(ctx, runner.Config{Agent: agent, Concurrency: 3, Results: sink}, jobs)
	}()
	proctest.RequireAlive(t, marker, 20*time.Second)
	time.Sleep(500 * time.Millisecond) // the hanging sessions are under way
	cancel()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	assert.Empty(t, proctest.Alive(t, marker), "no process outlives the run")
}

// Config.Around runs each job in its caller's frame (agentevaltest's
// subtests): the pool serves those sessions from one program, a job Around
// leaves unrun starts no session, and the program ends with the run.
func TestExecPoolAround(t *testing.T) {
	marker := "agenteval-pool-around-" + proctest.SleepArg()
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("issues", issuesScenario(t, "issues", "list the open issues", "30s"), 4)}, matrix.Shard{})
	require.NoError(t, err)
	var ran []string
	alive := 0
	sum, err := runner.Run(t.Context(), runner.Config{Agent: testExecAgent(t, servingCommand(t, marker)), Concurrency: 1,
		Around: func(j matrix.Job, run func() *results.Job) *results.Job {
			if j.Run == 2 {
				return nil // filtered out: never started, never recorded
			}
			res := run()
			assert.True(t, res.Passed, res.Explain())
			ran = append(ran, j.ID)
			alive = max(alive, len(proctest.Alive(t, marker)))
			return res
		}}, jobs)
	require.NoError(t, err)
	assert.Equal(t, []string{"issues/-/run-1", "issues/-/run-3", "issues/-/run-4"}, ran)
	assert.Equal(t, int64(3), sum.Jobs)
	assert.Equal(t, 1, alive, "one program kept for the sessions")
	assert.Empty(t, sum.Notes)
	proctest.RequireGone(t, marker, 10*time.Second)
}

// A ready line is the program's first line, names a version this runner
// speaks and a number of sessions it knows; anything else fails the
// session with the reason.
func TestExecReadyLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, first, want string }{
		{"version", `{"type":"ready","sessions":"many","protocol":2}`, "the program speaks version 2 of the exec protocol; this runner speaks version 1"},
		{"sessions", `{"type":"ready","sessions":"lots"}`, `sessions "lots": want "many" or "one"`},
		{"late", `{"type":"log","text":"hi"}'; echo '{"type":"ready","sessions":"many"}`, "a ready line must be the program's first line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, `echo '`+tc.first+`'; cat >/dev/null`)}, inputScenario(t, "30s"))
			assert.False(t, res.Completed)
			assert.Contains(t, res.Error, tc.want)
		})
	}
	// "one", like no ready line at all, keeps a program per session.
	res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, `echo '{"type":"ready","sessions":"one","protocol":1}'; read start; read msg; echo '{"type":"reply","id":1,"text":"hello"}'`)}, inputScenario(t, "30s"))
	assert.True(t, res.Passed, res.Explain())
}

// A kept program that exits after each session (recycling itself) costs
// no session: one found dead is replaced before the session starts, and a
// session whose program ended before answering anything of it starts
// again on another. The run's notes say what was replaced.
func TestExecPoolReplacesProgramsThatEndBetweenSessions(t *testing.T) {
	t.Parallel()
	agent := testExecAgent(t, `echo '{"type":"ready","sessions":"many"}'; read start; read msg; echo '{"type":"reply","text":"hello"}'; read end; exit 0`)
	byID, sum := runSources(t, runner.Config{Agent: agent, Concurrency: 1}, sources.Scenario("hi", inputScenario(t, "30s"), 10))
	for id, r := range byID {
		assert.True(t, r.Passed, "%s: %s", id, r.Explain())
	}
	assert.Equal(t, int64(10), sum.Passed)
	assert.Len(t, sum.Notes, 9, strings.Join(sum.Notes, "\n"))
	for _, n := range sum.Notes {
		assert.Contains(t, n, "exec agent: ")
	}
}

// A persistent program's start-up is not charged to its first session:
// the job records it as agent_startup_ms and its duration, step and turn
// times leave it out, so that the first session is as fast as the rest.
func TestExecPoolStartupIsNotLatency(t *testing.T) {
	t.Parallel()
	const startup = 1500 * time.Millisecond
	marker := "agenteval-startup-" + proctest.SleepArg()
	agent := testExecAgent(t, "AGENTEVAL_TEST_STARTUP="+startup.String()+" "+servingCommand(t, marker))
	byID, sum := runSources(t, runner.Config{Agent: agent, Concurrency: 1},
		sources.Scenario("issues", issuesScenario(t, "issues", "list the open issues", "30s"), 4))
	require.Equal(t, int64(4), sum.Passed)
	first := byID["issues/-/run-1"]
	require.NotNil(t, first)
	assert.GreaterOrEqual(t, first.AgentStartupMS, float64(startup.Milliseconds()), "the start-up is recorded")
	assert.Less(t, first.DurationMS, float64(startup.Milliseconds()), "and left out of the duration")
	assert.Less(t, first.Transcript[1].Duration, startup, "and of the reply's time")
	for id, r := range byID {
		if id != first.ID {
			assert.Zero(t, r.AgentStartupMS, "%s ran on the program already started", id)
		}
	}
	b, err := results.AppendJob(nil, first)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"agent_startup_ms":`)
	assert.Empty(t, proctest.Alive(t, marker))
}
