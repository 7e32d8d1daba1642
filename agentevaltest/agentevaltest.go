// Package agentevaltest runs agenteval scenarios inside Go tests: each job
// is a subtest named by its id (source/combination/run-N), so
// `go test -run 'TestAgent/weather'` selects scenarios and -count repeats
// them, and a job that does not pass fails its subtest with the verdict's
// reason and every failed evaluation, at the line that called Run.
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
	"sync"
	"testing"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
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
	// Concurrency bounds the jobs that run at once (default 4 × GOMAXPROCS).
	Concurrency int
	// Runs is how many times each plain scenario runs; Filters select
	// matrix combinations (path=value), as agenteval.RunConfig's.
	Runs    int
	Filters []string
	// Judge answers llm_judge evaluations; UserModel plays the simulated
	// user of conversations.
	Judge     *judge.Judge
	UserModel llm.Model
	// AllowCommands lets scenarios run commands; Seed makes mocks and the
	// simulated user repeatable.
	AllowCommands bool
	Seed          int64
	// Checkpoints scores scenarios' checkpoints (runner.Checkpoints).
	Checkpoints runner.CheckpointScorer
	// Results, when set, receives every result.
	Results runner.Sink
}

// runConfig is cfg as the library's RunConfig.
func (c Config) runConfig() agenteval.RunConfig {
	return agenteval.RunConfig{Agent: c.Agent, AgentSpec: c.AgentSpec, AgentOptions: runner.AgentOptions{Getenv: os.Getenv},
		Concurrency: c.Concurrency, Runs: c.Runs, Filters: c.Filters, Judge: c.Judge, UserModel: c.UserModel,
		AllowCommands: c.AllowCommands, Seed: c.Seed, Checkpoints: c.Checkpoints}
}

// Run loads paths (scenario and matrix files, or directories of them) with
// every built-in registered and runs their jobs with cfg: see RunFiles.
// A file that does not load fails t with its diagnostics.
func Run(t testing.TB, cfg Config, paths ...string) {
	t.Helper()
	at := callerLine()
	kit := agenteval.New()
	files, err := kit.Load(paths...)
	if err != nil {
		failAt(t, at, "loading %s:\n%v", strings.Join(paths, ", "), err)
		t.FailNow()
	}
	runFiles(t, at, kit, cfg, files)
}

// RunFiles runs the jobs of files, loaded by kit (nil: one with the
// built-ins), with cfg's agent on kit's registries. Given a *testing.T,
// every job is a subtest; up to the configured concurrency of them run at
// once, and RunFiles returns when all are done. Given another testing.TB
// (a benchmark, a fuzz target), the jobs run likewise and a job that does
// not pass fails t with its id. What the agent holds for the run (an exec
// agent's programs) is released when t ends (t.Cleanup), and what had to
// be killed is logged.
func RunFiles(t testing.TB, kit *agenteval.Kit, cfg Config, files ...*scenario.File) {
	t.Helper()
	if kit == nil {
		kit = agenteval.New()
	}
	runFiles(t, callerLine(), kit, cfg, files)
}

func runFiles(t testing.TB, at string, kit *agenteval.Kit, cfg Config, files []*scenario.File) {
	t.Helper()
	jobs, _, err := kit.Jobs(cfg.runConfig(), files...)
	if err != nil {
		failAt(t, at, "%v", err)
		t.FailNow()
	}
	r, err := kit.Runner(cfg.runConfig())
	if err != nil {
		failAt(t, at, "%v", err)
		t.FailNow()
	}
	t.Cleanup(func() {
		for _, n := range r.Close() {
			t.Log(n)
		}
	})
	var mu sync.Mutex // the sink is called from one goroutine at a time
	runOne := func(t testing.TB, j matrix.Job, name string) {
		res := r.RunJob(t.Context(), j)
		if sink := cfg.Results; sink != nil {
			mu.Lock()
			err := sink.Write(res)
			mu.Unlock()
			if err != nil {
				failAt(t, at, "writing the result of %s: %v", j.ID, err)
			}
		}
		if !res.Passed {
			failAt(t, at, "%s%s", name, res.Explain())
		}
	}
	tt, subtests := t.(*testing.T)
	work := make(chan matrix.Job)
	var wg sync.WaitGroup
	for range max(r.Concurrency(), 1) {
		wg.Go(func() {
			for j := range work {
				if subtests {
					// t.Run from several goroutines at once: the subtests run
					// concurrently, each reported under its own name.
					tt.Run(j.ID, func(t *testing.T) { runOne(t, j, "") })
				} else {
					runOne(t, j, j.ID+": ")
				}
			}
		})
	}
	var srcErr error
	for j, err := range jobs {
		if err != nil {
			srcErr = err
			break
		}
		if t.Context().Err() != nil {
			break
		}
		work <- j
	}
	close(work)
	wg.Wait()
	if srcErr != nil {
		failAt(t, at, "%v", srcErr)
		t.FailNow()
	}
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
