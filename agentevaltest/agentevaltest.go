// Package agentevaltest runs agenteval scenarios inside Go tests: each job
// is a subtest named by its id, source/combination/run-N, where a matrix
// combination is named by its parameter values
// (weather/input=What_is_the_weather_in_Paris,responseFn=condition_sunny_temp_c_21/run-1),
// so `go test -run 'TestAgent/weather'` selects scenarios,
// `-run 'TestAgent/weather/input=What_is_the_weather_in_Paris'` a
// combination, and -count repeats them; a job that does not pass fails its
// subtest with the verdict's reason, every failed evaluation and its id in
// results, at the line that called Run.
//
// The common path needs this package and the runner's agent types:
//
//	func TestWeatherAgent(t *testing.T) {
//		agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
//			return runner.Reply{Text: "Sunny in Paris"}, nil
//		})
//		agentevaltest.Run(t, agentevaltest.Config{Agent: agent}, "testdata/weather.scenario.yaml")
//	}
//
// A host with its own plugins registers them on an agenteval.Kit and calls
// RunFiles with it.
package agentevaltest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Config says how a test's jobs run: the part of agenteval.RunConfig a
// test sets (a test writes no results folder, so it has no Out, Resume or
// Overwrite; Results, when set, receives every result). The agent is a
// runner.Agent: runner.AgentFunc makes a Go function one.
type Config struct {
	// Agent is the system under test; AgentSpec ("exec:./bot") builds it
	// with the kit when Agent is nil.
	Agent     runner.Agent
	AgentSpec string
	// Suite, when set, runs every job once per agent × model of the suite
	// (scenario.Loader.LoadSuite reads one), with its warm-up, fixture
	// policy and settings, as agenteval.RunConfig's: Run with no paths
	// runs the suite's scenario paths.
	Suite *scenario.Suite
	// Concurrency bounds the jobs that run at once (default 4 × GOMAXPROCS).
	Concurrency int
	// Runs is how many times each plain scenario runs; Filters select
	// matrix combinations (path=value), as agenteval.RunConfig's.
	Runs    int
	Filters []string
	// Shard, when set, runs only the jobs of that shard (as
	// agenteval.RunConfig's and run's --shard): a long suite split over
	// machines, each running its own shard's subtests.
	Shard matrix.Shard
	// Judge answers llm_judge evaluations; UserModel plays the simulated
	// user of conversations.
	Judge     *judge.Judge
	UserModel llm.Model
	// AllowCommands lets scenarios run commands; Seed makes mocks and the
	// simulated user repeatable.
	AllowCommands bool
	Seed          int64
	// Checkpoints scores scenarios' checkpoints (a checkpoint.Checker).
	Checkpoints runner.CheckpointScorer
	// Manifest, SeedFile and Fixtures are agenteval.RunConfig's: the
	// fixture manifest placeholders bind to, the seed file of fresh
	// fixtures, and the manager that seeds and resets them.
	Manifest, SeedFile string
	Fixtures           fixture.Manager
	// Budget stops starting jobs once a limit is reached: the jobs left
	// run no subtest.
	Budget *runner.Budget
	// Results, when set, receives every result.
	Results runner.Sink
}

// runConfig is cfg as the library's RunConfig.
func (c Config) runConfig() agenteval.RunConfig {
	return agenteval.RunConfig{Agent: c.Agent, AgentSpec: c.AgentSpec, AgentOptions: runner.AgentOptions{Getenv: os.Getenv},
		Suite: c.Suite, Concurrency: c.Concurrency, Runs: c.Runs, Filters: c.Filters, Shard: c.Shard, Judge: c.Judge, UserModel: c.UserModel,
		AllowCommands: c.AllowCommands, Seed: c.Seed, Checkpoints: c.Checkpoints, Manifest: c.Manifest, SeedFile: c.SeedFile,
		Fixtures: c.Fixtures, Budget: c.Budget, Results: c.Results}
}

// Run loads paths (scenario and matrix files, or directories of them; with
// a Suite and no paths, the suite's) with every built-in registered and
// runs their jobs with cfg: see RunFiles. A file that does not load fails
// t with its diagnostics.
func Run(t testing.TB, cfg Config, paths ...string) {
	t.Helper()
	at := callerLine()
	if len(paths) == 0 && cfg.Suite != nil {
		for _, p := range cfg.Suite.Scenarios.Paths {
			paths = append(paths, cfg.Suite.Resolve(p))
		}
	}
	kit := agenteval.New()
	files, err := kit.Load(paths...)
	if err != nil {
		failAt(t, at, "loading %s:\n%v", strings.Join(paths, ", "), err)
		t.FailNow()
	}
	runFiles(t, at, kit, cfg, files)
}

// RunFiles runs the jobs of files, loaded by kit (nil: one with the
// built-ins), with cfg's agent on kit's registries, through
// agenteval.Kit.Run: the pipeline the library and the agenteval command
// run (a suite's warm-up and reseeding, the budget). Given a *testing.T,
// every job is a subtest; up to the configured concurrency of them run at
// once, and RunFiles returns when all are done. A subtest the -run flag
// leaves out does not run its job. Given another testing.TB (a benchmark,
// a fuzz target), the jobs run likewise and a job that does not pass
// fails t with its id. What the agent holds for the run (an exec agent's
// programs) is released before RunFiles returns, and what the run says
// besides its results (warm-up, reseeding, what had to be killed) is
// logged.
func RunFiles(t testing.TB, kit *agenteval.Kit, cfg Config, files ...*scenario.File) {
	t.Helper()
	if kit == nil {
		kit = agenteval.New()
	}
	runFiles(t, callerLine(), kit, cfg, files)
}

func runFiles(t testing.TB, at string, kit *agenteval.Kit, cfg Config, files []*scenario.File) {
	t.Helper()
	rc := cfg.runConfig()
	rc.Log = logWriter{t}
	tt, subtests := t.(*testing.T)
	var names namer
	rc.Around = func(j matrix.Job, run func() *results.Job) (res *results.Job) {
		if !subtests {
			res = run()
			if !res.Passed {
				failAt(t, at, "%s: %s", j.ID, res.Explain())
			}
			return res
		}
		// t.Run from several of the run's goroutines at once: the subtests
		// run concurrently, each reported under its own name.
		tt.Run(names.name(j), func(t *testing.T) {
			res = run()
			if !res.Passed {
				failAt(t, at, "%s\njob id: %s", res.Explain(), j.ID)
			}
		})
		return res
	}
	if _, err := kit.Run(t.Context(), rc, files...); err != nil {
		failAt(t, at, "%v", err)
		t.FailNow()
	}
}

// logWriter logs what a run says, a line at a time, on t.
type logWriter struct{ t testing.TB }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// failAt fails t with a message that names the caller's line, not this
// package's: a subtest's frames start in this package, so t.Helper alone
// cannot point there.
func failAt(t testing.TB, at, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(t.Output(), "%s: %s\n", at, strings.ReplaceAll(msg, "\n", "\n    "))
	t.Fail()
}

// callerLine is "file.go:line" of the first caller outside this package.
func callerLine() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, thisPackage+".") {
			return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		}
		if !more {
			return "?"
		}
	}
}

const thisPackage = "github.com/agenteval/agenteval/agentevaltest"
