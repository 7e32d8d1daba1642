package runner

import (
	"context"
	"sync"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// Runner runs jobs one at a time, as its caller schedules them: the test
// helper (package agentevaltest) runs each in its own subtest. Run
// schedules a whole run itself. A Runner is safe for concurrent use;
// Close it when its jobs are done.
type Runner struct {
	r    *run
	once sync.Once
	// notes are what Close returned the first time.
	notes []string
}

// NewRunner prepares a run with cfg's agent and registries, as Run does.
// cfg.Results, cfg.Skip and cfg.Progress are not used: the caller sees
// each result as RunJob returns it.
func NewRunner(cfg Config) (*Runner, error) {
	r, err := newRun(cfg)
	if err != nil {
		return nil, err
	}
	return &Runner{r: r}, nil
}

// RunJob runs one job with its retries and returns its result. It never
// panics; a job that cannot run here is returned incomplete, with why.
func (r *Runner) RunJob(ctx context.Context, j matrix.Job) *results.Job {
	// A worker of its own: RunJob may be called concurrently.
	var w worker
	defer w.end()
	return r.r.runJob(ctx, j, &w)
}

// Concurrency is how many jobs the run's configuration lets run at once
// (Config.Concurrency, or its default).
func (r *Runner) Concurrency() int { return r.r.cfg.Concurrency }

// Close releases what the agent holds for the run (an exec agent's
// programs) and returns notes on what had to be replaced or killed. Later
// calls return the same notes.
func (r *Runner) Close() []string {
	r.once.Do(func() {
		if r.r.endAgent != nil {
			r.notes = r.r.endAgent()
		}
	})
	return r.notes
}
