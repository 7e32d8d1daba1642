package runner

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/jsonvalue"
	"github.com/agenteval/agenteval/internal/toolclass"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Config configures Run. Only Agent is required; nil fields take the
// documented defaults.
type Config struct {
	// Agent is the system under test.
	Agent Agent
	// Concurrency is how many jobs run at once (default 4 × GOMAXPROCS).
	Concurrency int
	// Registries hold the evaluation kinds, strategies, termination and
	// environment types the run uses (agenteval.Kit passes its own); nil,
	// or a nil registry in it, means the built-ins.
	Registries *Registries
	// Judge answers llm_judge evaluations and llm_judge termination conditions.
	Judge *judge.Judge
	// UserModel plays the simulated user of conversations.
	UserModel llm.Model
	// Checkpoints scores a scenario's checkpoints after its session; nil
	// makes a scenario with checkpoints fail with a message saying so.
	Checkpoints CheckpointScorer
	// Fixtures binds {{placeholders}} and resets or seeds fixtures per
	// attempt; nil when no manifest (or seed file) is given.
	Fixtures FixtureBinder
	// WorkDir is where local run directories are made ("" for the OS temp
	// dir); KeepDirs leaves them there after each run.
	WorkDir  string
	KeepDirs bool
	// EnvFallback names the registered environment that runs scenarios
	// whose environment type has no provider here (e2b, say); the result's
	// Environment and Notes say so. Empty: such jobs are incomplete.
	EnvFallback string
	// AllowCommands lets scenarios run commands: code steps and
	// command_exit_code_is. Without it a job that would run one is recorded
	// incomplete, and runs nothing.
	AllowCommands bool
	// StrictMocks fails a run in which the agent called a mocked service
	// method that no mock answered.
	StrictMocks bool
	// Live runs every scenario without its setup.mocks, so that the agent
	// calls its real services (ElizaOS's scenario run --live).
	Live bool
	// Seed makes mock probabilities and the user simulator repeatable; each
	// job derives its own seed from it and the job id.
	Seed int64
	// StepTimeout bounds a step that sets no timeout (default 5 minutes).
	StepTimeout time.Duration
	// Variants are the agents of a suite, by agent and model: a job whose
	// Agent or Model is set (a suite: agenteval.RunConfig.Variants) runs with Variants[{Agent,
	// Model}]; other jobs with Agent.
	Variants map[matrix.Variant]Agent
	// ToolCategories are tool-call categories of the host's own (a
	// suite's tool_categories), checked before ghx's built-in ones when
	// each job's tool calls are counted by category.
	ToolCategories []scenario.ToolCategory
	// Results receives every finished job, in completion order, from one
	// goroutine; a ConcurrentSink (such as *results.Writer) is written from
	// the workers instead, each encoding its own records.
	Results Sink
	// Transcripts says which jobs keep their evidence (transcript with tool
	// calls, code-step output, the agent's log): "all" (also ""),
	// "failing" (failing and incomplete jobs) or "none". Evaluations and a
	// crash's traceback are kept whatever it says.
	Transcripts string
	// Skip, when set, skips the jobs it returns true for (resume).
	Skip func(id string) bool
	// Progress, when set, is called after every finished job from one goroutine.
	Progress func(Progress)
	// Total is how many jobs the run will run (its shard's, less those
	// skipped), for Progress's Total and ETA; 0 when unknown.
	Total int64
	// Budget, when set, stops starting jobs once a limit is reached (see Budget).
	Budget *Budget
	// InfraRetries is how many more attempts a job gets after attempts
	// lost to the infrastructure (results.Cause.Infrastructure: timeouts,
	// agent crashes, 429s, 5xx, lost connections), besides the scenario's
	// allowed_retries, before it is recorded incomplete with that cause;
	// 0 means the default, 2, and a negative number none.
	InfraRetries int
	// Cassette, when set, records (or replays) the answers a job gets that
	// are not the model's: the mocks' probability draws. Models are
	// recorded by wrapping them in llm.Recorded over the same cassette,
	// checkpoint tasks by checkpoint.Recorded.
	Cassette *llm.Cassette
	// Price, when set, prices each finished job's model calls (its Usage,
	// UserUsage and JudgeUsage, each by its role's model) for its Cost,
	// before Budget counts it and Results receives it; the CLI prices with
	// plan.Prices.JobCost, the agent's calls at the cost the agent reported
	// (Usage.CostUSD, a coding-agent CLI's own figure) when it reported one.
	Price func(*results.Job) *results.Cost
	// Limits, when set, are the limiters the run's model clients share
	// (llm.OpenAIConfig.Limits): Progress reports how much they throttled
	// the run. Whatever the Limits, a job whose model call waits under a
	// rate limit gives its place among the Concurrency running jobs to
	// another job while it waits.
	Limits *llm.Limits
	// Around, when set, runs each job in its caller's frame (package
	// agentevaltest runs each in its own subtest): it calls run at most
	// once, from the goroutine that called it, and returns its result, or
	// returns nil without calling run to leave the job unrun, neither
	// recorded nor counted (a subtest the -run flag filters out).
	Around func(j matrix.Job, run func() *results.Job) *results.Job
}

// CheckpointScorer scores a scenario's checkpoints against live state. An
// error means the checkpoints could not be decided (with the results there
// are): the job is then incomplete, never failed. A checkpoint.Checker is one.
type CheckpointScorer interface {
	ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]results.Checkpoint, error)
}

// FixtureBinder prepares a scenario's fixture for one attempt: it binds
// placeholders and, when the scenario asks, resets the fixture first
// (reseed_per_iteration) or creates fresh fixtures to bind to
// (seed_per_iteration). release, when not nil, is called once the attempt
// is over, checkpoints scored, even when Prepare failed; it removes what
// Prepare created. A *fixture.Binder is one.
type FixtureBinder interface {
	Prepare(ctx context.Context, s *scenario.Scenario) (bound *scenario.Scenario, release func(context.Context) error, err error)
}

// Sink receives finished jobs.
type Sink interface {
	Write(r *results.Job) error
}

// ConcurrentSink is a Sink whose Write is safe for concurrent use and does
// its costly part (encoding a record) before any lock: Run then calls it
// from its workers, which share that work, instead of from its one
// collecting goroutine. ConcurrentWrites reports whether this sink is.
type ConcurrentSink interface {
	Sink
	ConcurrentWrites() bool
}

// Progress is the state of a run after a job finished.
type Progress struct {
	Done, Passed, Failed, Incomplete, Skipped int64
	// Total is the number of jobs this run owns (after shard and resume), or -1 when unknown.
	Total   int64
	Elapsed time.Duration
	Last    *results.Job
	// Throttle is how much the endpoints' rate limits held the run back
	// (Config.Limits; zero without them).
	Throttle llm.ThrottleStats
}

// Summary is what a run did.
type Summary struct {
	// Jobs is the number of jobs that ran.
	Jobs int64
	// Completed ran to a verdict; Passed of those passed.
	Completed, Passed int64
	// Skipped were already recorded (resume).
	Skipped  int64
	Duration time.Duration
	// Notes are what the run reports beyond its jobs: programs an exec
	// agent's pool replaced between sessions or had to kill at the end.
	Notes []string
	// Budget is what the run used of Config.Budget (nil without one).
	Budget *BudgetUse
}

// ErrNoAgent is returned by Run when Config.Agent is nil.
var ErrNoAgent = errors.New("runner: no agent configured")

// Run runs every job and streams each result to cfg.Results as it finishes.
// Memory does not grow with the number of jobs. It returns when all jobs
// are done or ctx ends (skipping recorded jobs stops too), and only once
// every goroutine it started has stopped; the one exception is an agent
// call that ignores its context, which is abandoned at its timeout and
// touches nothing of the run. What the agent holds for the run (an exec
// agent's programs) is released before Run returns; Summary.Notes says
// what had to be killed. The error reports a failure of the run
// itself (a results write failed, the job source failed, ctx ended), never
// a failing job.
func Run(ctx context.Context, cfg Config, jobs iter.Seq2[matrix.Job, error]) (Summary, error) {
	r, err := newRun(cfg)
	if err != nil {
		return Summary{}, err
	}
	total := cfg.Total
	if total <= 0 {
		total = -1
	}
	return r.run(ctx, jobs, total)
}

type run struct {
	cfg     Config
	evalEnv *evaluate.Env
	// endAgent, when set, releases what the agent holds for the run (an
	// exec agent's programs) and returns its notes.
	endAgent func() []string
	// tools sorts the agents' tool calls into categories.
	tools *toolclass.Classifier
	// variants are Config.Variants, each ready for the run.
	variants map[matrix.Variant]Agent
}

func newRun(cfg Config) (*run, error) {
	if cfg.Agent == nil && len(cfg.Variants) == 0 {
		return nil, ErrNoAgent
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 4 * runtime.GOMAXPROCS(0)
	}
	if b := cfg.Budget; b != nil && b.CostUSD > 0 && b.Cost == nil {
		return nil, errors.New("runner: a cost budget needs Budget.Cost to price each job's usage")
	}
	if err := checkTranscripts(cfg.Transcripts); err != nil {
		return nil, err
	}
	cfg.Registries = cfg.Registries.orDefault()
	if cfg.StepTimeout <= 0 {
		cfg.StepTimeout = 5 * time.Minute
	}
	r := &run{cfg: cfg, evalEnv: &evaluate.Env{AllowCommands: cfg.AllowCommands, Judge: cfg.Judge}}
	cats := make([]toolclass.Category, len(cfg.ToolCategories))
	for i, c := range cfg.ToolCategories {
		cats[i] = toolclass.Category{Name: c.Name, Tools: c.Tools, Prefixes: c.Prefixes, Commands: c.Commands}
	}
	var err error
	if r.tools, err = toolclass.New(cats); err != nil {
		return nil, fmt.Errorf("runner: tool categories: %w", err)
	}
	var ends []func() []string
	if a, ok := cfg.Agent.(RunScopedAgent); ok {
		var end func() []string
		r.cfg.Agent, end = a.ForRun(cfg.Concurrency)
		ends = append(ends, end)
	}
	if len(cfg.Variants) > 0 {
		r.variants = make(map[matrix.Variant]Agent, len(cfg.Variants))
		for v, a := range cfg.Variants {
			if sa, ok := a.(RunScopedAgent); ok {
				var end func() []string
				a, end = sa.ForRun(cfg.Concurrency)
				ends = append(ends, end)
			}
			r.variants[v] = a
		}
	}
	if len(ends) > 0 {
		r.endAgent = func() []string {
			var notes []string
			for _, end := range ends {
				notes = append(notes, end()...)
			}
			return notes
		}
	}
	return r, nil
}

func (r *run) run(ctx context.Context, jobs iter.Seq2[matrix.Job, error], total int64) (Summary, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Workers grow with the jobs there are, not with the concurrency asked
	// for: --concurrency 100000000 on one job starts one worker. The
	// buffers are fixed and roomy: with one slot per worker, the feeder and
	// the collector parked and were woken for nearly every job of a cheap
	// run (10^4 echo jobs ran 10% faster with these). A buffered job is
	// not started yet: a budget or cancellation still leaves it unrecorded,
	// for --resume.
	jobCh := make(chan matrix.Job, 64)
	resCh := make(chan *results.Job, 256)
	var sum Summary
	// The feeder owns srcErr and skipped until fed is closed; Run reads
	// them only after that, so Run never returns while it still runs.
	var srcErr error
	var skipped int64
	var wg sync.WaitGroup
	budget := newBudgetState(r.cfg.Budget)
	// A ConcurrentSink is written by the workers, sharing the encoding that
	// would otherwise all fall on the collecting goroutine below; any other
	// Sink is written from that one goroutine, as documented.
	concurrent, _ := r.cfg.Results.(ConcurrentSink)
	if concurrent != nil && !concurrent.ConcurrentWrites() {
		concurrent = nil
	}
	var writeErrOnce sync.Once
	var writeErr error
	failWrite := func(err error) {
		writeErrOnce.Do(func() {
			writeErr = fmt.Errorf("runner: writing results: %w", err)
			cancel()
		})
	}
	// seats bound the jobs running at Concurrency; a job waiting under a
	// model endpoint's rate limit gives its seat to another (see seats).
	seated := newSeats(r.cfg.Concurrency)
	// next runs one job from jobCh in a seat; false when the worker stops.
	next := func(w *worker) bool {
		if !seated.sit(ctx) {
			return false
		}
		st := seated.take()
		defer st.end()
		j, ok := <-jobCh
		if !ok || ctx.Err() != nil {
			return false
		}
		if budget.over() {
			return true // never started, never recorded: --resume runs it
		}
		var res *results.Job
		if r.cfg.Around == nil {
			res = r.runJob(st.withHook(ctx), j, w)
		} else if res = r.cfg.Around(j, func() *results.Job { return r.runJob(st.withHook(ctx), j, w) }); res == nil {
			return true // the caller left it unrun
		}
		if ctx.Err() != nil && !res.Completed {
			// Interrupted, not judged: leave it for --resume rather than record a failure.
			return false
		}
		r.account(res)
		budget.add(res)
		if concurrent != nil {
			if err := concurrent.Write(res); err != nil {
				failWrite(err)
				resCh <- res
				return false
			}
		}
		resCh <- res
		return true
	}
	worker := func() {
		defer wg.Done()
		var w worker
		defer w.end()
		for next(&w) {
		}
	}
	seated.spawn = func() { wg.Add(1); go worker() }
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		defer close(jobCh)
		done := ctx.Done()
		for j, err := range jobs {
			select {
			case <-done: // also while skipping recorded jobs, which never block
				return
			default:
			}
			if err != nil {
				srcErr = err
				cancel()
				return
			}
			if r.cfg.Skip != nil && r.cfg.Skip(j.ID) {
				skipped++
				continue
			}
			if budget.over() {
				return
			}
			if seated.addWorker() {
				wg.Add(1)
				go worker()
			}
			select {
			case jobCh <- j:
			case <-done:
				return
			}
		}
	}()
	collected := make(chan struct{})
	// Workers are started by the feeder: wait for it before waiting for them.
	go func() { <-fed; wg.Wait(); close(resCh); close(collected) }()
	var p Progress
	p.Total = total
	for res := range resCh {
		sum.Jobs++
		if res.Completed {
			sum.Completed++
		}
		if res.Passed {
			sum.Passed++
		}
		// Without a ConcurrentSink only this goroutine sets writeErr, so it
		// reads it here without a race; after a failed write, no more.
		if concurrent == nil && r.cfg.Results != nil && writeErr == nil {
			if err := r.cfg.Results.Write(res); err != nil {
				failWrite(err)
			}
		}
		if r.cfg.Progress != nil {
			p.Done = sum.Jobs
			p.Passed = sum.Passed
			p.Incomplete = sum.Jobs - sum.Completed
			p.Failed = sum.Completed - sum.Passed
			p.Elapsed = time.Since(start)
			p.Last = res
			if r.cfg.Limits != nil {
				p.Throttle = r.cfg.Limits.Stats()
			}
			r.cfg.Progress(p)
		}
	}
	<-collected
	<-fed
	if r.endAgent != nil {
		sum.Notes = r.endAgent()
	}
	sum.Skipped = skipped
	sum.Duration = time.Since(start)
	sum.Budget = budget.use(sum.Duration)
	switch {
	case writeErr != nil:
		return sum, writeErr
	case srcErr != nil:
		return sum, fmt.Errorf("runner: job source: %w", srcErr)
	}
	return sum, context.Cause(ctx)
}

// account totals res's judge usage (its evaluations', beside the
// termination conditions' already counted) and prices its model calls.
func (r *run) account(res *results.Job) {
	for i := range res.Evaluations {
		res.JudgeUsage = res.JudgeUsage.Add(res.Evaluations[i].Usage)
	}
	res.Usage.CostUSD = math.Round(res.Usage.CostUSD*1e9) / 1e9 // replies' costs summed carry float noise
	if r.cfg.Price != nil {
		res.Cost = r.cfg.Price(res)
	}
}

// runJob runs a job with its retries. It never panics. A job that cannot
// run here (see Config.Unrunnable) is recorded incomplete without an attempt.
func (r *run) runJob(ctx context.Context, j matrix.Job, w *worker) (res *results.Job) {
	s := j.Scenario
	if s != w.last {
		// A worker's jobs follow each other through a scenario's runs and a
		// matrix's combinations, which share the evaluations no axis
		// changes: it compiles again only when they differ.
		if w.last == nil || !sameEvaluations(s, w.last) {
			w.compiled, w.compileErr = evaluate.Compile(r.cfg.Registries.Evaluations, s)
		}
		w.last = s
		w.reasons = r.unrunnable(j, w.compiled)
	}
	if reasons := w.reasons; len(reasons) > 0 {
		res = r.newResult(j)
		res.Error = "cannot run here: " + strings.Join(reasons, "; ")
		res.Reason = "not completed: " + res.Error
		res.Cause = results.CauseNoVerdict
		return res
	}
	return r.attempts(ctx, j, w)
}

func (r *run) attemptSafely(ctx context.Context, j matrix.Job, attempt int, w *worker) (res *results.Job) {
	defer func() {
		if p := recover(); p != nil {
			res = r.newResult(j)
			res.Error = fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
			res.Reason = "the run panicked; see error"
			res.Cause = results.CauseNoVerdict
		}
	}()
	return r.attempt(ctx, j, attempt, w)
}

// unrunnable applies Config.Unrunnable's rules with the run's compiled
// evaluations c (nil when they do not compile); it never panics.
func (r *run) unrunnable(j matrix.Job, c *evaluate.Compiled) (reasons []string) {
	defer func() {
		if p := recover(); p != nil {
			reasons = []string{fmt.Sprintf("checking what the job needs panicked: %v", p)}
		}
	}()
	return unrunnable(&r.cfg, j.Scenario, c)
}

func (r *run) newResult(j matrix.Job) *results.Job {
	res := &results.Job{Record: results.RecordJob, ID: j.ID, Index: j.Index, Scenario: j.Scenario.ID, ScenarioName: j.Scenario.Name,
		Matrix: j.Matrix, Run: j.Run, Strategy: j.Scenario.Judgment.Strategy, Started: time.Now(), Agent: j.Agent, Model: j.Model}
	if j.Combination != matrix.SingleCombination {
		res.Combination = j.Combination
	}
	if len(j.Params) > 0 {
		res.Params = make(map[string]any, len(j.Params))
		for _, p := range j.Params {
			// Every run of a combination holds the same value: each result gets a copy of its own.
			res.Params[p.Path] = jsonvalue.Clone(p.Value)
		}
	}
	return res
}

// sameEvaluations reports whether a and b hold the same evaluation lists
// (the same elements, not equal copies: a matrix job shares the lists its
// axes do not touch with the base) under equal judgment weights, so that
// what evaluate.Compile made of one serves the other.
func sameEvaluations(a, b *scenario.Scenario) bool {
	if len(a.Run) != len(b.Run) || !maps.Equal(a.Judgment.Weights, b.Judgment.Weights) {
		return false
	}
	for i := range a.Run {
		x, y := &a.Run[i], &b.Run[i]
		if !sameList(x.Evaluations, y.Evaluations) || (x.Conversation == nil) != (y.Conversation == nil) {
			return false
		}
		if c, d := x.Conversation, y.Conversation; c != nil &&
			(!sameList(c.TurnEvaluations, d.TurnEvaluations) || !sameList(c.FinalEvaluations, d.FinalEvaluations)) {
			return false
		}
	}
	return true
}

// sameList reports whether x and y are the same elements of one array.
func sameList(x, y []scenario.Evaluation) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}
