package agenteval

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"time"

	"github.com/agenteval/agenteval/internal/runout"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// RunConfig says how Kit.Run runs files. Its zero value with just an Agent
// is valid: every job once per plain scenario, every combination of every
// matrix, 4 × GOMAXPROCS at once, no results written.
type RunConfig struct {
	// Agent is the system under test; the only field a run needs.
	Agent runner.Agent
	// Concurrency is how many jobs run at once (default 4 × GOMAXPROCS).
	Concurrency int
	// Runs is how many times each plain scenario runs (at least 1);
	// matrices use their runs_per_combination.
	Runs int
	// Filters select matrix combinations (path=value, ANDed), as run's
	// --filter; plain scenarios are left out when filters are given.
	Filters []string
	// Shard runs one part of the run; the zero Shard is the whole run.
	Shard matrix.Shard
	// MaxJobs refuses a run with more jobs (0: no cap).
	MaxJobs int64
	// Variants, when set, run every job once per agent × model of a suite,
	// in this order, with the agent Runner.Variants holds for it (Kit.
	// SuiteAgents gives both); Agent may then be nil. Job ids start with
	// agent@model/.
	Variants []matrix.Variant
	// Out, when set, is the results folder: results stream to
	// Out/results.jsonl through package results (one writer per folder,
	// secrets masked), and local run directories are made in Out/work,
	// as agenteval run --out does.
	Out string
	// Resume finishes the run recorded in Out (jobs recorded there are
	// skipped), after checking it is the same run; Overwrite replaces it.
	// With neither, a folder holding results is refused (results.ErrExist).
	Resume, Overwrite bool
	// Judge answers llm_judge evaluations and termination conditions.
	Judge *judge.Judge
	// UserModel plays the simulated user of conversations.
	UserModel llm.Model
	// AllowCommands lets scenarios run commands (code steps,
	// command_exit_code_is); without it such jobs are incomplete.
	AllowCommands bool
	// Seed makes mocks and the simulated user repeatable.
	Seed int64
	// Progress, when set, is called after every finished job.
	Progress func(runner.Progress)
	// Runner holds the runner's other settings (checkpoints, fixtures,
	// timeouts, transcripts...). The fields above and the kit's registries
	// take precedence over its own.
	Runner runner.Config
}

// runnerConfig is the runner's configuration for cfg on the kit's registries.
func (k *Kit) runnerConfig(cfg RunConfig) runner.Config {
	rc := cfg.Runner
	rc.Agent, rc.Registries = cfg.Agent, k.Registries
	if cfg.Concurrency != 0 {
		rc.Concurrency = cfg.Concurrency
	}
	if cfg.Judge != nil {
		rc.Judge = cfg.Judge
	}
	if cfg.UserModel != nil {
		rc.UserModel = cfg.UserModel
	}
	if cfg.AllowCommands {
		rc.AllowCommands = true
	}
	if cfg.Seed != 0 {
		rc.Seed = cfg.Seed
	}
	if cfg.Progress != nil {
		rc.Progress = cfg.Progress
	}
	return rc
}

// Runner returns a runner for cfg's agent on the kit's registries, for a
// caller that schedules jobs itself (package agentevaltest does). Close it
// when done.
func (k *Kit) Runner(cfg RunConfig) (*runner.Runner, error) {
	return runner.NewRunner(k.runnerConfig(cfg))
}

// Jobs returns the jobs of files as cfg selects them (Runs, Filters,
// Shard, MaxJobs), lazily, and how many jobs the whole run has: see
// sources.Files and sources.Combine.
func (k *Kit) Jobs(cfg RunConfig, files ...*scenario.File) (iter.Seq2[matrix.Job, error], int64, error) {
	return k.jobs(cfg, nil, files)
}

// jobs is Jobs whose matrices yield the jobs skip names as headers only.
func (k *Kit) jobs(cfg RunConfig, skip func(string) bool, files []*scenario.File) (iter.Seq2[matrix.Job, error], int64, error) {
	srcs, err := sources.Files(files, sources.Options{Runs: cfg.Runs, Filters: cfg.Filters, MaxJobs: cfg.MaxJobs, Skip: skip})
	if err != nil {
		return nil, 0, err
	}
	if len(cfg.Variants) > 0 {
		if srcs, err = sources.Suite(cfg.Variants, srcs, cfg.MaxJobs); err != nil {
			return nil, 0, err
		}
	}
	return sources.Combine(srcs, cfg.Shard)
}

// Run runs files (as Kit.Load returns them) with cfg's agent on the kit's
// registries and returns what the run did. The error reports a failure of
// the run itself (bad configuration, results not writable, ctx ended),
// never a failing job: see Summary.Jobs and Summary.Passed.
func (k *Kit) Run(ctx context.Context, cfg RunConfig, files ...*scenario.File) (runner.Summary, error) {
	if cfg.Agent == nil && len(cfg.Runner.Variants) == 0 {
		return runner.Summary{}, runner.ErrNoAgent
	}
	// recorded is what a resumed results file holds, known once it is
	// open: the sources skip those jobs before building their scenarios.
	var recorded map[string]bool
	var skip func(string) bool
	if cfg.Resume {
		skip = func(id string) bool { return recorded[id] }
	}
	jobs, total, err := k.jobs(cfg, skip, files)
	if err != nil {
		return runner.Summary{}, err
	}
	rc := k.runnerConfig(cfg)
	owned := cfg.Shard.Size(total)
	if cfg.Out == "" {
		rc.Total = owned
		return runner.Run(ctx, rc, jobs)
	}
	plan := &results.Plan{Started: time.Now().UTC(), TotalJobs: total, ShardJobs: owned, Agent: fmt.Sprintf("%T", cfg.Agent), Seed: cfg.Seed}
	if cfg.Agent == nil {
		plan.Agent = "suite"
	}
	if !cfg.Shard.IsWhole() {
		plan.Shard = cfg.Shard.String()
	}
	for _, f := range files {
		plan.Sources = append(plan.Sources, f.Name)
	}
	w, err := results.Open(filepath.Join(cfg.Out, "results.jsonl"), plan, results.Options{Resume: cfg.Resume, Overwrite: cfg.Overwrite})
	if err != nil {
		return runner.Summary{}, err
	}
	defer w.Close() // releases the folder's lock on every path
	// Run directories live under the results folder, whose lock this run
	// holds: what a killed run left there is removed first.
	rc.WorkDir = filepath.Join(cfg.Out, "work")
	if err := os.RemoveAll(rc.WorkDir); err != nil {
		return runner.Summary{}, err
	}
	if done := w.Recorded(); done != nil {
		recorded = done
		rc.Skip = func(id string) bool { return done[id] }
		owned -= int64(len(done))
	}
	rc.Results = w
	rc.Total = owned
	sum, err := runner.Run(ctx, rc, jobs)
	if sum.Budget != nil { // a run with a budget ends with what it used
		err = errors.Join(err, w.WriteBudget(runout.BudgetRecord(rc.Budget, sum.Budget, plan.RunID, owned, sum.Jobs)))
	}
	if !rc.KeepDirs {
		err = errors.Join(err, os.RemoveAll(rc.WorkDir))
	}
	return sum, errors.Join(err, w.Close())
}
