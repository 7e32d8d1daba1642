package agenteval

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/infile"
	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/internal/runout"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/internal/view"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// RunConfig is the one configuration of a run, whoever starts it: Kit.Run
// takes it, the agenteval command turns its flags into it, and
// agentevaltest's Config maps onto it. Its zero value with just an Agent
// (or AgentSpec) is valid: every job once per plain scenario, every
// combination of every matrix, 4 × GOMAXPROCS at once, no results written.
type RunConfig struct {
	// Agent is the system under test.
	Agent runner.Agent
	// AgentSpec names the agent in the results' plan record (such as
	// "exec:./bot"), so that a resume with another agent is refused; when
	// Agent is nil the run builds the agent from it (Kit.Agent with
	// AgentOptions). Empty with an Agent: the agent's Go type ("go:T").
	AgentSpec string
	// AgentOptions build the agents of AgentSpec and of Suite.
	AgentOptions runner.AgentOptions
	// Suite, when set, runs every job once per agent × model of the suite
	// (Kit.SuiteAgents builds them; ids start with agent@model/), in its
	// selection of the files, with its warm-up, timeouts, tool categories
	// and fixture policy (seed_if_missing, reseed_between_agents); its
	// repetitions, concurrency, manifest and seed file fill Runs,
	// Concurrency, Manifest and SeedFile when they are left zero. Agent
	// and AgentSpec are then unused.
	Suite *scenario.Suite
	// SuiteFile is the suite's path, recorded in the plan.
	SuiteFile string
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
	// Out, when set, is the results folder: results stream to
	// Out/results.jsonl through package results (one writer per folder,
	// secrets masked by Redactor), and local run directories are made in
	// Out/work, removed at the start (what a killed run left) and the end.
	Out string
	// Resume finishes the run recorded in Out (jobs recorded there are
	// skipped), after checking it is the same run (results.ErrPlanMismatch);
	// Overwrite replaces it. With neither, a folder holding results is
	// refused (results.ErrExist).
	Resume, Overwrite bool
	// Retry, "failed" or "incomplete", reruns only the jobs of the run
	// recorded in Out whose latest record failed (ran to a failing
	// verdict) or is incomplete, and appends their new records: every
	// reader takes a job's latest record (results.Outcome). It resumes the
	// recorded run (same plan check); the other jobs are skipped.
	Retry string
	// Redactor masks secrets in the results (nil: results.Open's default,
	// the process environment's).
	Redactor *redact.Redactor
	// Results, when set and Out is not, receives every finished job.
	Results runner.Sink
	// Judge answers llm_judge evaluations and termination conditions.
	Judge *judge.Judge
	// UserModel plays the simulated user of conversations.
	UserModel llm.Model
	// AllowCommands lets scenarios run commands (code steps,
	// command_exit_code_is); without it such jobs are incomplete.
	AllowCommands bool
	// StrictMocks fails a run in which the agent called a mocked service
	// method no mock answered.
	StrictMocks bool
	// Live runs every scenario without its setup.mocks: the agent calls its
	// real services (ElizaOS's scenario run --live). Recorded in the plan.
	Live bool
	// EnvFallback names the environment that runs scenarios whose
	// environment has no provider here.
	EnvFallback string
	// Seed makes mocks and the simulated user repeatable.
	Seed int64
	// StepTimeout bounds a step that sets none (default: the suite's, or 5 minutes).
	StepTimeout time.Duration
	// KeepDirs keeps the run directories.
	KeepDirs bool
	// Transcripts says which jobs keep their transcript, code-step output
	// and agent log: "all" (also ""), "failing" or "none" (runner.Config).
	Transcripts string
	// Checkpoints scores scenarios' checkpoints (a checkpoint.Checker).
	Checkpoints runner.CheckpointScorer
	// Manifest is the fixture manifest's path: placeholders bind to it.
	// SeedFile declares the fixtures seed_per_iteration scenarios get
	// afresh (and seed_if_missing seeds a missing manifest from).
	Manifest, SeedFile string
	// Fixtures manages live fixtures (github.NewManager): reseeding
	// (reseed_per_iteration, reseed_between_agents), fresh fixtures per
	// run, and seeding a missing manifest. Nil: scenarios that need it are
	// recorded incomplete, saying why.
	Fixtures fixture.Manager
	// Budget stops starting jobs once a limit is reached; the results end
	// with a budget record. Estimate, when set, forecasts the run's jobs
	// (package plan), stored in the plan record beside what was used.
	Budget   *runner.Budget
	Estimate func(ctx context.Context, jobs iter.Seq2[matrix.Job, error], files []*scenario.File) (*results.Estimate, error)
	// InfraRetries and Cassette are runner.Config's: more attempts for
	// jobs lost to the infrastructure (0: the default, 2; negative: none),
	// and the cassette that records or replays the run's mock draws (its
	// models are wrapped with llm.Recorded through AgentOptions.WrapModel,
	// UserModel and Judge; its checkpoints with checkpoint.Recorded).
	InfraRetries int
	Cassette     *llm.Cassette
	// Settings are further settings recorded in the plan (a resume with
	// other settings is refused), beside those the run records itself.
	Settings map[string]string
	// Progress, when set, is called after every finished job.
	Progress func(runner.Progress)
	// Price, when set, prices each job's model calls for its record's
	// cost, by role (runner.Config.Price; plan.Prices.JobCost).
	Price func(*results.Job) *results.Cost
	// Limits are the rate limiters the run's model clients share, one per
	// endpoint (base URL, key, model), each adapting to the provider's 429s
	// and x-ratelimit headers (llm.Limits): the agents built from AgentSpec
	// and Suite use them when AgentOptions.Limits is nil; build the
	// UserModel's and the Judge's models with llm.OpenAIConfig.Limits set
	// to them too. llm.NewLimits(llm.EndpointLimits{MaxRequests: 8})
	// bounds every endpoint at 8 requests in flight (run's
	// --max-requests). Progress reports how much they throttled the run
	// (runner.Progress.Throttle). Nil: each model client limits itself.
	Limits *llm.Limits
	// Log receives what the run says besides its results: warnings,
	// warm-up, reseeding, budget use, notes (nil: nothing).
	Log io.Writer
	// Around, when set, runs each job (runner.Config.Around): package
	// agentevaltest runs each in its own subtest.
	Around func(j matrix.Job, run func() *results.Job) *results.Job
}

// RunSummary is what Kit.Run did: this invocation's runner.Summary and,
// with Out, the whole run as the results file records it (resumed and
// retried runs included), which decides whether the run passed.
type RunSummary struct {
	runner.Summary
	// Recorded counts the latest record of every job of the results file
	// (zero without Out).
	Recorded results.Tally
	// AtBudget is true when the budget stopped the run with jobs left.
	AtBudget bool
	// Path is the results file ("" without Out).
	Path string
}

// runnerConfig is the runner's configuration for cfg on the kit's registries.
func (k *Kit) runnerConfig(cfg RunConfig, agent runner.Agent) runner.Config {
	return runner.Config{Agent: agent, Concurrency: cfg.Concurrency, Registries: k.Registries, Judge: cfg.Judge,
		UserModel: cfg.UserModel, Checkpoints: cfg.Checkpoints, KeepDirs: cfg.KeepDirs, EnvFallback: cfg.EnvFallback,
		AllowCommands: cfg.AllowCommands, StrictMocks: cfg.StrictMocks, Live: cfg.Live, Seed: cfg.Seed, StepTimeout: cfg.StepTimeout,
		Transcripts: cfg.Transcripts, Progress: cfg.Progress, Budget: cfg.Budget, Results: cfg.Results, Price: cfg.Price,
		InfraRetries: cfg.InfraRetries, Cassette: cfg.Cassette, Limits: cfg.Limits, Around: cfg.Around}
}

// runAgent is cfg's agent: Agent, or the one AgentSpec names.
func (k *Kit) runAgent(cfg RunConfig) (runner.Agent, error) {
	if cfg.Agent != nil || cfg.AgentSpec == "" {
		return cfg.Agent, nil
	}
	return k.Agent(cfg.AgentSpec, cfg.agentOptions())
}

// Jobs returns the jobs of files as cfg selects them (Runs, Filters,
// Shard, MaxJobs; a Suite's variants, without its selection), lazily, and how many jobs the whole run has: see
// sources.Files and sources.Combine.
func (k *Kit) Jobs(cfg RunConfig, files ...*scenario.File) (iter.Seq2[matrix.Job, error], int64, error) {
	var variants []matrix.Variant
	if cfg.Suite != nil {
		variants = suiteVariants(cfg.Suite)
	}
	srcs, _, err := k.sources(cfg, variants, nil, files)
	if err != nil {
		return nil, 0, err
	}
	return sources.Combine(srcs, cfg.Shard)
}

// sources are the run's sources (after the suite's variants) and the
// files' own, whose matrices yield the jobs skip names as headers only.
func (k *Kit) sources(cfg RunConfig, variants []matrix.Variant, skip func(string) bool, files []*scenario.File) (srcs, fileSrcs []sources.Source, err error) {
	fileSrcs, err = sources.Files(files, sources.Options{Runs: cfg.Runs, Filters: cfg.Filters, MaxJobs: cfg.MaxJobs, Skip: skip})
	if err != nil {
		return nil, nil, err
	}
	if len(variants) == 0 {
		return fileSrcs, fileSrcs, nil
	}
	srcs, err = sources.Suite(variants, fileSrcs, cfg.MaxJobs)
	return srcs, fileSrcs, err
}

// ErrConfig is wrapped by Kit.Run's error when the configuration itself
// is wrong (nothing ran): a caller such as the CLI tells it from a failed run.
var ErrConfig = errors.New("agenteval: configuration")

func configErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, a...))
}

// Run runs files (as Kit.Load returns them) with cfg on the kit's
// registries: the one pipeline of a run, in order: the suite's selection
// and agents, the jobs (files, suite variants, shard), the results (open,
// lock, work/ cleanup, plan check, resume), the fixtures (seed_if_missing,
// manifest, reseeding), the budget's estimate, the suite's warm-up, the
// runner (one agent after another when the suite reseeds between agents),
// and the closing records (budget). The error reports a failure of the run
// itself (bad configuration wraps ErrConfig, results.ErrExist or
// results.ErrPlanMismatch; results not writable; ctx ended), never a
// failing job: see RunSummary.
func (k *Kit) Run(ctx context.Context, cfg RunConfig, files ...*scenario.File) (RunSummary, error) {
	p := &pipeline{kit: k, cfg: cfg, log: cfg.Log}
	if p.log == nil {
		p.log = io.Discard
	}
	return p.run(ctx, files)
}

// pipeline is one Kit.Run.
type pipeline struct {
	kit   *Kit
	cfg   RunConfig
	log   io.Writer
	suite *suitePhases
}

func (p *pipeline) run(ctx context.Context, files []*scenario.File) (RunSummary, error) {
	p.cfg = p.cfg.withSuiteDefaults()
	cfg := p.cfg
	switch {
	case cfg.Retry != "" && cfg.Retry != RetryFailed && cfg.Retry != RetryIncomplete:
		return RunSummary{}, configErr("Retry %q: want %q or %q", cfg.Retry, RetryFailed, RetryIncomplete)
	case cfg.Retry != "" && (cfg.Overwrite || cfg.Out == ""):
		return RunSummary{}, configErr("Retry reruns jobs of the run recorded in Out: it needs Out and cannot Overwrite it")
	case cfg.Resume && cfg.Overwrite:
		return RunSummary{}, configErr("Resume finishes the recorded run and Overwrite replaces it: give one of them")
	}
	cfg.Resume = cfg.Resume || cfg.Retry != ""
	agent, err := p.kit.runAgent(cfg)
	if err != nil {
		return RunSummary{}, configErr("agent: %v", err)
	}
	if cfg.Suite != nil {
		if p.suite, err = p.kit.newSuitePhases(cfg, p.log); err != nil {
			return RunSummary{}, err
		}
		if files, err = p.suite.selectFiles(files); err != nil {
			return RunSummary{}, err
		}
		agent = nil
	} else if agent == nil {
		return RunSummary{}, runner.ErrNoAgent
	}
	if cfg.EnvFallback != "" {
		if _, err := p.kit.Environments.Get(cfg.EnvFallback); err != nil {
			return RunSummary{}, configErr("EnvFallback %q: %v", cfg.EnvFallback, err)
		}
	}
	// skipped says which jobs a resumed results file (or a retry) leaves
	// out, known once it is open: the sources skip those jobs before
	// building their scenarios.
	skipped := func(string) bool { return false }
	var skip func(string) bool
	if cfg.Resume {
		skip = func(id string) bool { return skipped(id) }
	}
	var variants []matrix.Variant
	if p.suite != nil {
		variants = p.suite.variants
	}
	srcs, fileSrcs, err := p.kit.sources(cfg, variants, skip, files)
	if err != nil {
		return RunSummary{}, configErr("%v", err)
	}
	jobs, total, err := sources.Combine(srcs, cfg.Shard)
	if err != nil {
		return RunSummary{}, configErr("%v", err)
	}
	rc := p.kit.runnerConfig(cfg, agent)
	if p.suite != nil {
		p.suite.apply(files, &rc)
	}
	if cfg.Suite != nil {
		if err := p.suite.seedMissingManifest(ctx, cfg.Fixtures, cfg.Manifest, cfg.SeedFile); err != nil {
			return RunSummary{}, err
		}
	}
	fixtures, err := p.fixtures()
	if err != nil {
		return RunSummary{}, err
	}
	owned := cfg.Shard.Size(total)
	out := RunSummary{}
	if cfg.Out == "" {
		if fixtures != nil {
			rc.Fixtures = fixtures
		}
		rc.Total = owned
		out.Summary, err = p.runJobs(ctx, rc, fileSrcs, jobs, fixtures)
		p.notes(out.Summary)
		return out, err
	}
	var estimate *results.Estimate
	if cfg.Budget != nil && cfg.Estimate != nil {
		if estimate, err = cfg.Estimate(ctx, jobs, files); err != nil {
			return RunSummary{}, configErr("estimate: %v", err)
		}
	}
	plan, err := p.plan(files, srcs, total, owned, estimate)
	if err != nil {
		return RunSummary{}, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return RunSummary{}, err
	}
	out.Path = filepath.Join(cfg.Out, "results.jsonl")
	red, err := p.redactor()
	if err != nil {
		return RunSummary{}, err
	}
	w, err := results.Open(out.Path, plan, results.Options{Resume: cfg.Resume, Overwrite: cfg.Overwrite, Redactor: red})
	if err != nil { // nothing ran: the folder is another run's, locked, or not writable
		return RunSummary{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	defer w.Close() // releases the folder's lock on every path
	// Run directories live under the results folder, whose lock this run
	// holds: what a killed run left there is removed first.
	rc.WorkDir = filepath.Join(cfg.Out, "work")
	// Every process this run starts carries the work directory's absolute
	// path in its environment: what a run killed with SIGKILL left running
	// is found by it and ended before its directories go.
	workAbs, err := filepath.Abs(rc.WorkDir)
	if err != nil {
		return RunSummary{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	// The work directory exists from before any process starts until the
	// run ends, so only a run that was killed (or kept its directories)
	// leaves one: without it there is nothing to look for, and listing
	// every process of the machine is skipped.
	if _, err := os.Stat(rc.WorkDir); err == nil {
		if left := proc.EndLeftovers(ctx, workAbs); len(left) > 0 {
			fmt.Fprintf(p.log, "agenteval run: killed %d process(es) a killed run left running in %s\n", len(left), rc.WorkDir)
		}
	}
	ctx = proc.WithRunWork(ctx, workAbs)
	if err := os.RemoveAll(rc.WorkDir); err != nil {
		return RunSummary{}, fmt.Errorf("removing the run directories a killed run left in %s: %w", rc.WorkDir, err)
	}
	if err := os.MkdirAll(rc.WorkDir, 0o755); err != nil {
		return RunSummary{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	switch before := w.Tally(); {
	case cfg.Retry != "":
		skipped = func(id string) bool {
			o, ok := w.Outcome(id)
			return !ok || !retried(o, cfg.Retry)
		}
		rc.Skip = skipped
		if cfg.Retry == RetryFailed {
			owned = min(owned, before.Failed)
		} else {
			owned = min(owned, before.Incomplete)
		}
	case before.Jobs > 0:
		skipped = func(id string) bool { _, ok := w.Outcome(id); return ok }
		rc.Skip = skipped
		owned -= before.Jobs
	}
	if fixtures != nil {
		fixtures.Variables = map[string]any{fixture.VarRunID: plan.RunID}
		rc.Fixtures = fixtures
	}
	p.warnUnrunnable(rc, files)
	rc.Results = w
	rc.Total = owned
	sum, err := p.runJobs(ctx, rc, fileSrcs, jobs, fixtures)
	out.Summary = sum
	p.notes(sum)
	if !cfg.KeepDirs {
		err = errors.Join(err, os.RemoveAll(rc.WorkDir)) // while the lock is held
	}
	if sum.Budget != nil { // a run with a budget ends with what it used
		rec := runout.BudgetRecord(cfg.Budget, sum.Budget, plan.RunID, owned, sum.Jobs)
		err = errors.Join(err, w.WriteBudget(rec))
		out.AtBudget = sum.Budget.Stopped
		sayBudget(p.log, rec)
	}
	out.Recorded = w.Tally()
	err = errors.Join(err, w.Close())
	// The viewer's index of the results, written once here so that
	// `agenteval view` opens even a 10^6-job run without reading its
	// records (a resumed run's earlier index is used for what it covers).
	// Best effort: the viewer builds it itself when it is missing or stale.
	if ctx.Err() == nil {
		if ierr := view.SaveIndex(ctx, out.Path, red); ierr != nil {
			fmt.Fprintf(p.log, "agenteval run: the viewer's index was not saved (view builds it when opened): %v\n", ierr)
		}
	}
	return out, err
}

// Retry's values: the jobs a retry reruns.
const (
	RetryFailed     = "failed"
	RetryIncomplete = "incomplete"
)

// redactor is the Redactor (nil: results.Open's default) with the
// suite's secrets added, as the agenteval command adds them.
func (p *pipeline) redactor() (*redact.Redactor, error) {
	r, s := p.cfg.Redactor, p.cfg.Suite
	if s == nil || s.Secrets == nil {
		return r, nil
	}
	if r == nil {
		r = redact.FromEnvironment(os.Environ())
	}
	if err := r.AddRules(os.Environ(), redact.Rules{Names: s.Secrets.Names, Patterns: s.Secrets.Patterns}); err != nil {
		return nil, configErr("suite: secrets: %v", err)
	}
	return r, nil
}

// retried reports whether a retry of what reruns a job whose latest record
// says o (failed: completed and not passed; incomplete: not completed). A
// job never recorded is left to a resume: a retry reruns only what it
// names.
func retried(o results.Outcome, what string) bool {
	return (what == RetryFailed && o.Completed && !o.Passed) || (what == RetryIncomplete && !o.Completed)
}

// runJobs runs the jobs: the suite's phases, or the runner alone.
func (p *pipeline) runJobs(ctx context.Context, rc runner.Config, fileSrcs []sources.Source, jobs iter.Seq2[matrix.Job, error], fixtures *fixture.Binder) (runner.Summary, error) {
	if p.suite == nil {
		return runner.Run(ctx, rc, jobs)
	}
	return p.suite.run(ctx, rc, fileSrcs, jobs, p.cfg.Fixtures, fixtures)
}

// notes says what the runner reported beyond its jobs.
func (p *pipeline) notes(sum runner.Summary) {
	for _, n := range sum.Notes {
		fmt.Fprintf(p.log, "agenteval run: %s\n", n)
	}
}

// fixtures is the fixture configuration of Manifest, SeedFile and Fixtures.
func (p *pipeline) fixtures() (*fixture.Binder, error) {
	cfg := p.cfg
	var fc *fixture.Binder
	mgr := cfg.Fixtures
	if cfg.Manifest != "" {
		m, err := fixture.LoadManifest(cfg.Manifest)
		if err != nil {
			return nil, configErr("manifest: %v", err)
		}
		fc = &fixture.Binder{Manifest: m}
		if mgr != nil {
			// reseed_per_iteration: put the scenario's fixtures back before each run.
			fc.Reset = func(ctx context.Context, s *scenario.Scenario) error { return fixture.ResetScenario(ctx, mgr, m, s) }
		}
	}
	if cfg.SeedFile != "" {
		sf, err := fixture.LoadSeedFile(cfg.SeedFile)
		if err != nil {
			return nil, configErr("seed file: %v", err)
		}
		if fc == nil {
			fc = &fixture.Binder{}
		}
		if mgr != nil {
			// seed_per_iteration: fresh fixtures for each run, removed after it.
			base := fc.Manifest
			fc.SeedFresh = func(ctx context.Context, s *scenario.Scenario) (*scenario.Manifest, func(context.Context) error, error) {
				return fixture.SeedScenario(ctx, mgr, sf, base, s)
			}
		}
	}
	return fc, nil
}

// plan is the run's plan record: what a resume must match.
func (p *pipeline) plan(files []*scenario.File, srcs []sources.Source, total, owned int64, estimate *results.Estimate) (*results.Plan, error) {
	cfg := p.cfg
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.Name
	}
	inputs, err := planInputs(files, cfg.Manifest, cfg.SeedFile)
	if err != nil {
		return nil, err
	}
	agent := cfg.AgentSpec
	switch {
	case cfg.Suite != nil:
		agent = "suite:" + cfg.SuiteFile
	case agent == "":
		agent = fmt.Sprintf("go:%T", cfg.Agent)
	}
	plan := &results.Plan{Started: time.Now().UTC(), Estimate: estimate, TotalJobs: total, ShardJobs: owned,
		Agent: agent, Sources: names, Seed: cfg.Seed, Inputs: inputs,
		Settings: map[string]string{"filters": strings.Join(cfg.Filters, " & "), "runs": strconv.Itoa(max(cfg.Runs, 1)),
			"strict": strconv.FormatBool(cfg.StrictMocks), "allow-commands": strconv.FormatBool(cfg.AllowCommands),
			"env-fallback": cfg.EnvFallback}}
	if cfg.Live { // only when set: runs recorded before it resume unchanged
		plan.Settings["live"] = "true"
	}
	if !cfg.Shard.IsWhole() {
		plan.Shard = cfg.Shard.String()
	}
	maps.Copy(plan.Settings, cfg.Settings)
	if p.suite != nil {
		maps.Copy(plan.Settings, p.suite.settings(cfg.SuiteFile))
	}
	return plan, nil
}

// planInputs lists every file a run reads, with the SHA-256 of its content,
// for the plan record: resume refuses when one changed.
func planInputs(files []*scenario.File, extra ...string) ([]results.Input, error) {
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if f.Base != nil {
			names = append(names, f.Base.Name)
		}
	}
	for _, n := range extra {
		if n != "" {
			names = append(names, n)
		}
	}
	var out []results.Input
	seen := map[string]bool{}
	for _, n := range names {
		n = filepath.Clean(n)
		if seen[n] {
			continue
		}
		seen[n] = true
		b, err := infile.ReadFile(n, 0)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		out = append(out, results.Input{Path: n, SHA256: hex.EncodeToString(sum[:])})
	}
	return out, nil
}

// warnUnrunnable says, before anything runs, which files' jobs this
// configuration cannot run (runner.Config.Unrunnable): they are recorded
// incomplete with the same reasons while the other jobs run. A matrix is
// judged by its base scenario; each of its jobs is decided on its own.
func (p *pipeline) warnUnrunnable(cfg runner.Config, files []*scenario.File) {
	for _, f := range files {
		s := f.Scenario
		if f.Base != nil {
			s = f.Base.Scenario
		}
		if s == nil || (f.Kind != scenario.KindScenario && f.Kind != scenario.KindGitHub && f.Matrix == nil) {
			continue
		}
		for _, why := range cfg.Unrunnable(s) {
			fmt.Fprintf(p.log, "%s: warning: its jobs will be recorded incomplete: %s\n", f.Name, why)
		}
	}
}

// sayBudget says what a run with a budget used and, when it stopped at it,
// how many jobs were left for a resume.
func sayBudget(w io.Writer, rec *results.Budget) {
	if !rec.Stopped {
		fmt.Fprintf(w, "agenteval run: within its budget: used %s\n", formatUse(rec.Limit, rec.Used))
		return
	}
	fmt.Fprintf(w, "agenteval run: stopped at its budget (%s reached; used %s); %d job(s) not started: run again with --resume to finish them (the budget applies to each invocation)\n",
		strings.Join(rec.Reached, ", "), formatUse(rec.Limit, rec.Used), rec.Unstarted)
}

// formatUse says what was used of each limit: "tokens 500 of 500, time 2s of 30m".
func formatUse(limit, used results.Amounts) string {
	var parts []string
	if limit.Tokens > 0 {
		parts = append(parts, fmt.Sprintf("tokens %d of %d", used.Tokens, limit.Tokens))
	}
	if limit.CostUSD > 0 {
		parts = append(parts, fmt.Sprintf("cost $%.4f of $%s", used.CostUSD, strconv.FormatFloat(limit.CostUSD, 'f', -1, 64)))
	}
	if limit.TimeMS > 0 {
		parts = append(parts, fmt.Sprintf("time %v of %v", msDuration(used.TimeMS), msDuration(limit.TimeMS)))
	}
	return strings.Join(parts, ", ")
}

func msDuration(ms float64) time.Duration {
	return (time.Duration(ms * float64(time.Millisecond))).Round(time.Millisecond)
}

// withSuiteDefaults is cfg with its Suite's settings in the fields left
// zero: Runs (repetitions), Concurrency, Manifest and SeedFile (its
// fixtures'), as the agenteval command takes them for the flags not given.
func (cfg RunConfig) withSuiteDefaults() RunConfig {
	s := cfg.Suite
	if s == nil {
		return cfg
	}
	if cfg.Runs == 0 {
		cfg.Runs = s.Repetitions
	}
	if cfg.Concurrency == 0 {
		cfg.Concurrency = s.Concurrency
	}
	if f := s.Fixtures; f != nil {
		cfg.Manifest = cmp.Or(cfg.Manifest, s.Resolve(f.Manifest))
		cfg.SeedFile = cmp.Or(cfg.SeedFile, s.Resolve(f.SeedFile))
	}
	return cfg
}

// agentOptions are cfg.AgentOptions with the run's Limits when they name
// none, and AllowCommands when the run allows commands.
func (cfg RunConfig) agentOptions() runner.AgentOptions {
	opts := cfg.AgentOptions
	opts.AllowCommands = opts.AllowCommands || cfg.AllowCommands
	if opts.Limits == nil {
		opts.Limits = cfg.Limits
	}
	return opts
}
