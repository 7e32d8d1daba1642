package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/environment"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

func TestAgentPanicFailsOnlyThatRun(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	var n atomic.Int64
	agent := AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
		if n.Add(1) == 2 {
			panic("boom")
		}
		return Reply{Text: m}, nil
	})
	sink := &memSink{}
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, 4)}, matrix.Shard{})
	require.NoError(t, err)
	// No infrastructure retries: the crashed attempt is the job's only one.
	sum, err := Run(t.Context(), Config{Agent: agent, Results: sink, Concurrency: 1, InfraRetries: -1}, jobs)
	require.NoError(t, err)
	assert.EqualValues(t, 4, sum.Jobs)
	assert.EqualValues(t, 3, sum.Passed)
	var failed *results.Job
	for _, r := range sink.results {
		if !r.Passed {
			failed = r
		}
	}
	require.NotNil(t, failed)
	assert.False(t, failed.Completed)
	assert.Contains(t, failed.Error, "agent panicked: boom")
	assert.Equal(t, results.CauseAgentCrash, failed.Cause)
}

func TestStepTimeoutEvenWhenAgentIgnoresContext(t *testing.T) {
	t.Parallel()
	s := *loadScenario(t, "echo.scenario.yaml")
	s.Run = append([]scenario.RunStep(nil), s.Run...)
	s.Run[0].Timeout = scenario.Duration(30 * time.Millisecond)
	stuck := AgentFunc(func(context.Context, SessionConfig, string) (Reply, error) { select {} })
	start := time.Now()
	res := runOne(t, Config{Agent: stuck}, &s)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "timed out")
}

func TestRetriesUpToAllowed(t *testing.T) {
	t.Parallel()
	s := *loadScenario(t, "echo.scenario.yaml")
	s.AllowedRetries = 2
	var calls atomic.Int64
	flaky := AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
		if calls.Add(1) < 3 {
			return Reply{Text: "nope"}, nil
		}
		return Reply{Text: m}, nil
	})
	res := runOne(t, Config{Agent: flaky}, &s)
	assert.True(t, res.Passed)
	assert.Equal(t, 3, res.Attempts)
}

func TestResumeAfterInterruptNeitherRepeatsNorLoses(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	path := filepath.Join(t.TempDir(), "results.jsonl")
	const n = 40
	var started atomic.Int64
	ctx, cancel := context.WithCancel(t.Context())
	slow := AgentFunc(func(ctx context.Context, _ SessionConfig, m string) (Reply, error) {
		if started.Add(1) == 15 {
			cancel() // the run is "killed" part-way
		}
		return Reply{Text: m}, nil
	})
	w, err := results.Open(path, &results.Plan{RunID: "t"}, results.Options{Overwrite: true})
	require.NoError(t, err)
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, n)}, matrix.Shard{})
	require.NoError(t, err)
	_, err = Run(ctx, Config{Agent: slow, Results: w, Concurrency: 3}, jobs)
	require.ErrorIs(t, err, context.Canceled)
	require.NoError(t, w.Close())
	// A torn last line, as a kill mid-write leaves.
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, _ = fh.WriteString(`{"record":"job","id":"torn`)
	require.NoError(t, fh.Close())

	done, _, err := recordedIDs(t, path)
	require.NoError(t, err)
	require.Less(t, len(done), n)
	first := len(done)
	w, err = results.Open(path, &results.Plan{RunID: "t"}, results.Options{Resume: true})
	require.NoError(t, err)
	jobs, _, err = sources.Combine([]sources.Source{sources.Scenario("s", s, n)}, matrix.Shard{})
	require.NoError(t, err)
	sum, err := Run(t.Context(), Config{Agent: echoAgent{}, Results: w, Skip: func(id string) bool { return done[id] }}, jobs)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.EqualValues(t, first, sum.Skipped)
	assert.EqualValues(t, n-first, sum.Jobs)

	all, _, err := recordedIDs(t, path)
	require.NoError(t, err)
	assert.Len(t, all, n, "every job recorded exactly once (Recorded would fail on the torn line if it were kept)")
}

func TestShardsPartitionARun(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	for _, total := range []int{1, 7, 30} {
		for n := int64(1); n <= 5; n++ {
			seen := map[string]int{}
			var sizes int64
			for i := int64(1); i <= n; i++ {
				sh := matrix.Shard{Index: int(i), Count: int(n)}
				jobs, all, err := sources.Combine([]sources.Source{sources.Scenario("a", s, total), sources.Scenario("b", s, 3)}, sh)
				require.NoError(t, err)
				sizes += sh.Size(all)
				var got int64
				for j, err := range jobs {
					require.NoError(t, err)
					seen[j.ID+"#"+j.Scenario.ID+string(rune(j.Index))]++
					got++
				}
				assert.Equal(t, sh.Size(all), got)
			}
			assert.EqualValues(t, total+3, sizes)
			assert.Len(t, seen, total+3)
			for id, c := range seen {
				assert.Equal(t, 1, c, id)
			}
		}
	}
}

func TestEnvironmentFilesAndCode(t *testing.T) {
	t.Parallel()
	f, err := testLoad("fs.scenario.yaml", []byte(`name: fs
description: virtual_fs, a code step and file checks
environment: {type: local}
setup:
  virtual_fs:
    "data/in.txt": "hello"
run:
  - code: "cat data/in.txt > out.txt; echo ' world' >> out.txt; echo done"
    lang: sh
    evaluations:
      - {type: string_contains, value: done}
      - {type: file_exists, path: out.txt}
      - {type: file_contains, path: out.txt, value: "hello"}
      - {type: command_exit_code_is, command: "test -f data/in.txt", expected_code: 0}
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	denied := runOne(t, Config{Agent: echoAgent{}}, f.Scenario)
	assert.False(t, denied.Passed, "commands are not allowed by default")
	allowed := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, f.Scenario)
	assert.True(t, allowed.Passed, allowed.Explain())
}

func TestUnregisteredEnvironmentIsAnError(t *testing.T) {
	t.Parallel()
	s := *loadScenario(t, "echo.scenario.yaml")
	s.Environment.Type = "e2b"
	res := runOne(t, Config{Agent: echoAgent{}}, &s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "no provider registered")
	assert.Contains(t, res.Error, "never falls back silently")
	_, err := provider(environment.NewRegistry(), "e2b")
	assert.ErrorContains(t, err, `environment type "e2b" has no provider registered (registered: local)`)
}

func TestVirtualFSEscapeIsRefused(t *testing.T) {
	t.Parallel()
	s := *loadScenario(t, "echo.scenario.yaml")
	s.Setup = &scenario.Setup{VirtualFS: map[string]string{"../escape.txt": "x"}}
	res := runOne(t, Config{Agent: echoAgent{}}, &s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "leaves the run's directory")
}

func TestExplicitZeroWeightCountsNothing(t *testing.T) {
	t.Parallel()
	f, err := testLoad("w.scenario.yaml", []byte(`name: w
description: a failing evaluation with weight 0 does not count under weighted
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: hello}
      - {type: string_contains, value: absent, weight: 0}
judgment: {strategy: weighted, threshold: 1}
`))
	require.NoError(t, err)
	res := runOne(t, Config{Agent: echoAgent{}}, f.Scenario)
	assert.True(t, res.Passed, res.Explain())
}

func TestEvaluationThatCannotJudgeLeavesTheRunIncomplete(t *testing.T) {
	t.Parallel()
	f, err := testLoad("j.scenario.yaml", []byte(`name: j
description: an llm_judge with no judge configured
environment: {type: local}
run:
  - input: hello
    evaluations:
      - {type: string_contains, value: hello}
      - {type: llm_judge, prompt: "Is it polite?", expected: "yes"}
judgment: {strategy: any_pass}
`))
	require.NoError(t, err)
	res := runOne(t, Config{Agent: echoAgent{}}, f.Scenario)
	assert.False(t, res.Completed, "no verdict to trust")
	assert.False(t, res.Passed, "even though any_pass would pass on the string check")
	assert.Contains(t, res.Error, "cannot run here: it needs a judge model (llm_judge at run[0].evaluations[1]) and none is configured; pass --judge-model")
	assert.Empty(t, res.Evaluations, "decided before the run: nothing ran")
	assert.Zero(t, res.Attempts)
}

func TestCodeStepInterpreters(t *testing.T) {
	t.Parallel()
	step := func(lang, code string) *scenario.Scenario {
		f, err := testLoad("code.scenario.yaml", []byte(`name: code
description: a code step
environment: {type: local}
run:
  - lang: `+lang+`
    code: '`+code+`'
    evaluations:
      - {type: regex_match, pattern: '^42$'}
judgment: {strategy: all_pass}
`))
		require.NoError(t, err)
		return f.Scenario
	}
	sh := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, step("sh", "echo $((40+2))"))
	assert.True(t, sh.Passed, sh.Explain())
	if _, err := exec.LookPath("python3"); err == nil {
		py := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, step("python3", "print(40+2)"))
		assert.True(t, py.Passed, py.Explain())
	}
	failing := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, step("sh", "echo 41; exit 3"))
	assert.True(t, failing.Completed, "a non-zero exit is evidence, not an infrastructure failure")
	assert.False(t, failing.Passed)
}

func TestMissingInterpreterIsAClearError(t *testing.T) { // not parallel: it empties PATH
	t.Setenv("PATH", t.TempDir())
	f, err := testLoad("node.scenario.yaml", []byte(`name: node
description: a node step without node
environment: {type: local}
run:
  - {lang: node, code: "console.log(42)", evaluations: [{type: regex_match, pattern: "42"}]}
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true}, f.Scenario)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, `node is needed for lang "node"`)
}

// TestRunWritesAResultsWriterFromItsWorkers: a *results.Writer is written by
// the workers (each encodes its own records); every job is recorded once,
// Progress still sees every job after its record is written, and a writer
// that fails stops the run with the write's error.
func TestRunWritesAResultsWriterFromItsWorkers(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	path := filepath.Join(t.TempDir(), "results.jsonl")
	w, err := results.Open(path, &results.Plan{RunID: "t"}, results.Options{Overwrite: true})
	require.NoError(t, err)
	const n = 300
	jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, n)}, matrix.Shard{})
	require.NoError(t, err)
	var progressed int64
	sum, err := Run(t.Context(), Config{Agent: echoAgent{}, Results: w, Concurrency: 8, Progress: func(p Progress) {
		progressed++
		assert.Equal(t, progressed, p.Done)
	}}, jobs)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	assert.EqualValues(t, n, sum.Jobs)
	assert.EqualValues(t, n, progressed)
	all, _, err := recordedIDs(t, path)
	require.NoError(t, err)
	assert.Len(t, all, n, "every job recorded exactly once")

	closed, err := results.Open(filepath.Join(t.TempDir(), "results.jsonl"), &results.Plan{RunID: "t"}, results.Options{})
	require.NoError(t, err)
	require.NoError(t, closed.Close()) // every Write now fails
	jobs, _, err = sources.Combine([]sources.Source{sources.Scenario("s", s, n)}, matrix.Shard{})
	require.NoError(t, err)
	sum, err = Run(t.Context(), Config{Agent: echoAgent{}, Results: closed, Concurrency: 4}, jobs)
	require.ErrorContains(t, err, "runner: writing results")
	assert.Less(t, sum.Jobs, int64(n), "the run stops at the first failed write")
}

// slowStart is an agent whose NewSession ignores its context and returns
// after a pause; it counts the sessions it opened and closed.
type slowStart struct {
	pause          time.Duration
	opened, closed *atomic.Int64
}

func (a slowStart) NewSession(context.Context, SessionConfig) (Session, error) {
	time.Sleep(a.pause)
	a.opened.Add(1)
	return slowSession{a.closed}, nil
}

type slowSession struct{ closed *atomic.Int64 }

func (slowSession) Send(_ context.Context, m string) (Reply, error) { return Reply{Text: m}, nil }
func (s slowSession) Close() error                                  { s.closed.Add(1); return nil }

// TestASessionOpenedAfterTheRunnerGaveUpIsClosed: a NewSession that overruns
// the step timeout is abandoned (the job is incomplete), and the session it
// returns later is closed, not leaked.
func TestASessionOpenedAfterTheRunnerGaveUpIsClosed(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	opened, closed := new(atomic.Int64), new(atomic.Int64)
	res := runOne(t, Config{Agent: slowStart{pause: 300 * time.Millisecond, opened: opened, closed: closed}, StepTimeout: 30 * time.Millisecond, InfraRetries: -1}, s)
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "starting the agent session")
	require.Eventually(t, func() bool { return opened.Load() == 1 && closed.Load() == 1 }, 5*time.Second, 10*time.Millisecond,
		"the session opened after the timeout is closed")

	// In time, the session is the job's and closed once, at its end.
	opened, closed = new(atomic.Int64), new(atomic.Int64)
	res = runOne(t, Config{Agent: slowStart{opened: opened, closed: closed}}, s)
	assert.True(t, res.Passed, res.Error)
	assert.EqualValues(t, 1, opened.Load())
	assert.EqualValues(t, 1, closed.Load())
}

// countingSink records the most Write calls in flight at once.
type countingSink struct {
	concurrent       bool
	inFlight, atMost atomic.Int64
}

func (s *countingSink) ConcurrentWrites() bool { return s.concurrent }

func (s *countingSink) Write(*results.Job) error {
	n := s.inFlight.Add(1)
	for {
		m := s.atMost.Load()
		if n <= m || s.atMost.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(time.Millisecond) // long enough for the workers to meet here
	s.inFlight.Add(-1)
	return nil
}

// TestOnlyAConcurrentSinkIsWrittenFromTheWorkers: a sink that says its Write
// is safe for concurrent use is called from the workers at once; one that
// says it is not (or says nothing) is called one job at a time.
func TestOnlyAConcurrentSinkIsWrittenFromTheWorkers(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	for _, concurrent := range []bool{true, false} {
		sink := &countingSink{concurrent: concurrent}
		jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", s, 100)}, matrix.Shard{})
		require.NoError(t, err)
		sum, err := Run(t.Context(), Config{Agent: echoAgent{}, Results: sink, Concurrency: 4}, jobs)
		require.NoError(t, err)
		assert.EqualValues(t, 100, sum.Jobs)
		if concurrent {
			assert.Greater(t, sink.atMost.Load(), int64(1), "written from the workers")
		} else {
			assert.EqualValues(t, 1, sink.atMost.Load(), "written one at a time")
		}
	}
}
