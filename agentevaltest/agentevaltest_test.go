package agentevaltest_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/agentevaltest"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// failingHostEnv makes TestFailingHost run; TestFailuresPointAtTheCaller
// runs it in a child test process and reads what it printed.
const failingHostEnv = "AGENTEVALTEST_FAILING_HOST"

func TestFailingHost(t *testing.T) {
	if os.Getenv(failingHostEnv) == "" {
		t.Skip("run by TestFailuresPointAtTheCaller")
	}
	cloudy := runner.AgentFunc(func(context.Context, runner.SessionConfig, string) (runner.Reply, error) {
		return runner.Reply{Text: "cloudy"}, nil
	})
	agentevaltest.Run(t, agentevaltest.Config{Agent: cloudy, Runs: 2, Concurrency: 2}, "../examples/scenarios/weather.scenario.yaml") // the caller's line
}

// A failing job fails its own subtest, named by the job id, with the
// verdict and every failed evaluation, at the line of the caller's test
// that called Run.
func TestFailuresPointAtTheCaller(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("agentevaltest_test.go")
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// the caller's line") {
			line = i + 1
		}
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestFailingHost$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), failingHostEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the host test fails")
	text := string(out)
	at := "agentevaltest_test.go:" + strconv.Itoa(line) + ": "
	for _, run := range []string{"run-1", "run-2"} {
		assert.Contains(t, text, "--- FAIL: TestFailingHost/weather/-/"+run+" ")
	}
	assert.Equal(t, 2, strings.Count(text, at+"2 of 2 evaluations failed"), text)
	assert.Contains(t, text, "step 0: trajectory_contains_action")
	assert.NotContains(t, text, "agentevaltest.go:", "nothing points into the helper")
	assert.NotContains(t, text, "step step")
}

// Jobs run as concurrent subtests, at most Config.Concurrency at once.
func TestConcurrencyBoundsTheSubtests(t *testing.T) {
	t.Parallel()
	var active, most atomic.Int64
	var met sync.Once
	both := make(chan struct{})
	agent := runner.AgentFunc(func(ctx context.Context, _ runner.SessionConfig, _ string) (runner.Reply, error) {
		n := active.Add(1)
		defer active.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if n == 2 {
			met.Do(func() { close(both) })
		}
		select { // the first sessions wait for a second one to overlap
		case <-both:
		case <-time.After(10 * time.Second):
		}
		return runner.Reply{Text: "hello"}, nil
	})
	var got []string
	var mu sync.Mutex
	sink := sinkFunc(func(r *results.Job) error { mu.Lock(); got = append(got, r.ID); mu.Unlock(); return nil })
	agentevaltest.Run(t, agentevaltest.Config{Agent: agent, Runs: 8, Concurrency: 2, Results: sink}, "testdata/hello.scenario.yaml")
	assert.Equal(t, int64(2), most.Load())
	assert.Len(t, got, 8, "every result reaches the sink")
}

// The run's exec programs serve its sessions and are ended before
// RunFiles returns: none outlives the run.
func TestExecProgramsEndWithTheTest(t *testing.T) {
	t.Parallel()
	marker := "agentevaltest-pool-" + proctest.SleepArg()
	kit := agenteval.New()
	agent, err := kit.Agent(`exec:: `+marker+`; echo '{"type":"ready","sessions":"many"}'; while read -r l; do case "$l" in *'"type":"message"'*) echo '{"type":"reply","text":"hello"}';; esac; done`, runner.AgentOptions{})
	require.NoError(t, err)
	files, err := kit.Load("testdata/hello.scenario.yaml")
	require.NoError(t, err)
	var alive int
	agentevaltest.RunFiles(t, kit, agentevaltest.Config{Agent: agent, Runs: 3, Concurrency: 1, Results: sinkFunc(func(*results.Job) error {
		alive = max(alive, len(proctest.Alive(t, marker)))
		return nil
	})}, files...)
	assert.Equal(t, 1, alive, "one program, kept for the run's three sessions")
	proctest.RequireGone(t, marker, 10*time.Second)
}

// A benchmark or fuzz target (any testing.TB) runs the jobs too.
func TestAnyTB(t *testing.T) {
	t.Parallel()
	var tb testing.TB = &tbOnly{TB: t}
	agentevaltest.Run(tb, agentevaltest.Config{Agent: runner.AgentFunc(func(context.Context, runner.SessionConfig, string) (runner.Reply, error) {
		return runner.Reply{Text: "hello"}, nil
	}), Runs: 2}, "testdata/hello.scenario.yaml")
}

type tbOnly struct{ testing.TB }

type sinkFunc func(*results.Job) error

func (f sinkFunc) Write(r *results.Job) error { return f(r) }

// matrixHostEnv makes TestMatrixHost run; TestSubtestsAreNamedByParameters
// runs it in child test processes.
const matrixHostEnv = "AGENTEVALTEST_MATRIX_HOST"

func TestMatrixHost(t *testing.T) {
	if os.Getenv(matrixHostEnv) == "" {
		t.Skip("run by TestSubtestsAreNamedByParameters")
	}
	sunny := runner.AgentFunc(func(context.Context, runner.SessionConfig, string) (runner.Reply, error) {
		return runner.Reply{Text: "sunny"}, nil // fails: every subtest's name is printed with --- FAIL
	})
	agentevaltest.Run(t, agentevaltest.Config{Agent: sunny, Concurrency: 4}, "../examples/scenarios/weather.matrix.yaml")
}

// A matrix job's subtest is named by its combination's parameter values,
// the same in every run, and that name as printed selects it with -run.
func TestSubtestsAreNamedByParameters(t *testing.T) {
	t.Parallel()
	child := func(run string) string {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run="+run, "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), matrixHostEnv+"=1")
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	all := child("^TestMatrixHost$")
	const paris = "TestMatrixHost/weather/input=What_is_the_weather_in_Paris,responseFn=condition_sunny_temp_c_21/run-1"
	for _, name := range []string{paris,
		"TestMatrixHost/weather/input=What_is_the_weather_in_Tokyo,responseFn=condition_rainy_temp_c_12/run-2"} {
		assert.Contains(t, all, "--- FAIL: "+name+" ", all)
	}
	assert.NotContains(t, all, "TestMatrixHost/weather/c-", "no combination hash in a name")
	assert.Contains(t, all, "job id: weather/c-", "the failure names the job's id in results")
	assert.Equal(t, 8, strings.Count(all, "--- FAIL: TestMatrixHost/"), "2 × 2 combinations, 2 runs each")

	one := child(paris)
	assert.Equal(t, 1, strings.Count(one, "--- FAIL: TestMatrixHost/"), "the printed name selects its job: %s", one)
	assert.Contains(t, one, "--- FAIL: "+paris+" ")
}
