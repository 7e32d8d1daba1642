package cli

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/internal/runout"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// runMaxJobs is run's default cap on the jobs of a run; validate holds
// matrices to it too.
const runMaxJobs = 10_000_000

// stringList is a repeatable flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// runFlags are run's flags.
type runFlags struct {
	agentSpec, out, retry, shard, envFallback, userModel, judgeModel, judgeCache   string
	manifest, seedFile, graphqlURL, cpuProfile, record, budget, prices, agentModel string
	suite, transcripts, steps                                                      string
	concurrency, maxRequests, tokensPerMinute, shards, runs, infraRetries          int
	seed, maxJobs                                                                  int64
	resume, overwrite, exitZero, allowCommands, strict, keepDirs, verbose, replay  bool
	live                                                                           bool
	filters, modes                                                                 stringList
	suiteFlags                                                                     suiteFlags
}

// define declares run's flags on fs.
func (f *runFlags) define(fs *flagSet) {
	fs.StringVar(&f.agentSpec, "agent", "echo", "agent under test: echo, exec:COMMAND, openai:MODEL, opencode:MODEL, codex:MODEL, claude-code:MODEL, gemini-cli:MODEL or eliza[:PROJECT_DIR] (agenteval types lists them)")
	fs.IntVar(&f.concurrency, "concurrency", 4*runtime.GOMAXPROCS(0), "jobs at once, at least 1; 4 x CPUs by default")
	fs.IntVar(&f.maxRequests, "max-requests", 0, "requests in flight at once per model endpoint (base URL, key, model), shared by the agent, user simulator and judge; 0: learned from the provider's 429s and x-ratelimit headers")
	fs.IntVar(&f.tokensPerMinute, "tokens-per-minute", 0, "the provider's token rate limit per model endpoint, when known: requests (agent, user simulator and judge) are paced to stay under it; 0: learned from the provider's x-ratelimit headers")
	fs.StringVar(&f.out, "out", "out", "directory for results.jsonl")
	fs.BoolVar(&f.resume, "resume", false, "finish the run recorded in DIR/results.jsonl: skip its recorded jobs and append (refused when the inputs or flags differ)")
	fs.StringVar(&f.retry, "retry", "", "failed or incomplete: rerun only the jobs of the run recorded in DIR whose latest record failed or is incomplete, appending their new records (readers take a job's latest record)")
	fs.BoolVar(&f.overwrite, "overwrite", false, "replace DIR/results.jsonl when it exists (without it, or --resume, an existing file is refused)")
	fs.StringVar(&f.shard, "shard", "", "run only part i of n (i/n), or auto: the part the engine running this copy names (JOB_COMPLETION_INDEX, CI_NODE_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB, CLOUD_RUN_TASK_INDEX, AWS_BATCH_JOB_ARRAY_INDEX)")
	fs.IntVar(&f.shards, "shards", 0, "with --shard auto: the number of shards, where the engine does not say (default $"+shardCountVariable+")")
	fs.BoolVar(&f.exitZero, "exit-zero", false, "exit 0 once every job is recorded, even when some failed or were incomplete (a shard whose merged report decides); bad input still exits 2 and an interrupted run 1")
	fs.Int64Var(&f.seed, "seed", 1, "seed for mock probabilities and the user simulator")
	fs.BoolVar(&f.allowCommands, "allow-commands", false, "let scenarios run commands (code steps, command_exit_code_is); without it such jobs are incomplete and run nothing")
	fs.StringVar(&f.envFallback, "env-fallback", "", "run scenarios whose environment has no provider here (e2b) in this one instead: local")
	fs.BoolVar(&f.live, "live", false, "apply no setup.mocks: the agent calls its real services (as elizaos scenario run --live)")
	fs.BoolVar(&f.strict, "strict", false, "unknown fields are errors; unmatched mock calls fail the run")
	fs.IntVar(&f.runs, "runs", 1, "runs per plain scenario, at least 1 (matrices use runs_per_combination)")
	fs.StringVar(&f.userModel, "user-model", "script", "user simulator: script (offline, deterministic) or openai:MODEL")
	fs.StringVar(&f.judgeModel, "judge-model", "", "model for llm_judge: openai:MODEL (OPENAI_BASE_URL, OPENAI_API_KEY)")
	fs.StringVar(&f.judgeCache, "judge-cache", "", "directory caching judge verdicts (default DIR/judge-cache)")
	fs.StringVar(&f.manifest, "manifest", "", "fixture manifest for {{placeholders}} and checkpoints")
	fs.StringVar(&f.seedFile, "seed-file", "", "seed file declaring the fixtures seed_per_iteration scenarios get afresh for each run (needs a GitHub token or --graphql-url)")
	fs.StringVar(&f.graphqlURL, "graphql-url", "", "GitHub GraphQL endpoint for checkpoints (default api.github.com)")
	fs.BoolVar(&f.keepDirs, "keep-dirs", false, "keep run directories (in DIR/work, until the next run into DIR)")
	fs.StringVar(&f.steps, "steps", "auto", "print each job as elizaos scenario run does (each step's output, ✅/❌ per evaluation, SCENARIO STATUS) on stdout: auto (a run of one job, stdout a terminal), always or never")
	fs.StringVar(&f.transcripts, "transcripts", "all", "which jobs keep their transcript (tool calls with arguments and results), code-step output and agent log in the results: all, failing or none")
	fs.Int64Var(&f.maxJobs, "max-jobs", runMaxJobs, "refuse runs with more jobs than this")
	fs.BoolVar(&f.verbose, "v", false, "print every failing job")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to this file")
	fs.StringVar(&f.record, "record", "", "record the run in this directory (a cassette): every model call (agent, user simulator, judge), mock draw and checkpoint answer, each under its job, role, sample and ordinal")
	fs.BoolVar(&f.replay, "replay", false, "with --record: replay the recorded run offline, every answer from the cassette; a call not recorded (or asked differently) leaves its job incomplete, with the difference")
	fs.IntVar(&f.infraRetries, "infra-retries", 2, "more attempts for a job whose attempt was lost to the infrastructure (timeout, agent crash, 429, 5xx, lost connection), besides the scenario's allowed_retries; 0 for none")
	fs.Var(&f.filters, "filter", "matrix filter path=value (repeatable, ANDed)")
	fs.StringVar(&f.budget, "budget", "", "stop starting jobs once a limit is reached: tokens=N, cost=USD, time=DURATION, comma-separated (tokens=200k,cost=5usd,time=30m); unstarted jobs are left for --resume")
	fs.StringVar(&f.prices, "prices", "", "prices file (YAML/JSON, US dollars per million tokens) over the built-in table: each job's cost (agent, user, judge) and --budget cost=")
	fs.StringVar(&f.agentModel, "agent-model", "", "the model the agent uses, to price its tokens (default: MODEL of --agent openai:MODEL)")
	fs.StringVar(&f.suite, "suite", "", "run a suite (*.suite.yaml, or ghx's eval.config.yaml): every agent x model x selected scenario x repetition into one results file; its settings are the defaults of these flags")
	fs.Var(&f.modes, "mode", "with --suite: NAME=AGENT gives the agent NAME (a ghx mode) its spec, such as ghx=exec:./agent; NAME alone runs only the agents so named (repeatable)")
	f.suiteFlags.define(fs)
}

// check says what is wrong with the flags' values ("" when nothing).
func (f *runFlags) check() string {
	switch {
	case f.concurrency < 1:
		return fmt.Sprintf("--concurrency %d: want at least 1 job at once", f.concurrency)
	case f.maxRequests < 0:
		return fmt.Sprintf("--max-requests %d: want 0 (learned) or at least 1 request at once", f.maxRequests)
	case f.tokensPerMinute < 0:
		return fmt.Sprintf("--tokens-per-minute %d: want 0 (learned) or at least 1 token a minute", f.tokensPerMinute)
	case f.runs < 1:
		return fmt.Sprintf("--runs %d: want at least 1 run per scenario", f.runs)
	case f.retry != "" && f.retry != "failed" && f.retry != "incomplete":
		// Checked here so that the message names the flag, not RunConfig.Retry.
		return fmt.Sprintf("--retry %q: want failed or incomplete", f.retry)
	case f.steps != "auto" && f.steps != "always" && f.steps != "never":
		return fmt.Sprintf("--steps %q: want auto, always or never", f.steps)
	case f.maxJobs < 1:
		return fmt.Sprintf("--max-jobs %d: want at least 1", f.maxJobs)
	case f.resume && f.overwrite:
		return "--resume finishes the recorded run and --overwrite replaces it: give one of them"
	case f.replay && f.record == "":
		return "--replay needs --record DIR"
	case f.infraRetries < 0:
		return fmt.Sprintf("--infra-retries %d: want 0 or more", f.infraRetries)
	case f.transcripts != "all" && f.transcripts != "failing" && f.transcripts != "none":
		return fmt.Sprintf("--transcripts %q: want all, failing or none", f.transcripts)
	}
	return ""
}

// runRun is the run command: its flags become one agenteval.RunConfig
// (runFlags.config), and Kit.Run runs it.
func runRun(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "run", "[flags] PATH...  (scenario files, matrix files or directories)")
	var f runFlags
	f.define(fs)
	if code, ok := fs.parse(args); !ok {
		return code
	}
	env.redactor.AddURL(f.graphqlURL)
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval run: "+format+"\n", a...)
		return exitUsage
	}
	if msg, usage := suiteArgs(f.suite, fs.NArg(), len(f.modes), f.suiteFlags.given()); usage {
		fs.Usage()
		return exitUsage
	} else if msg != "" {
		return fail("%s", msg)
	}
	if msg := f.check(); msg != "" {
		return fail("%s", msg)
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			return fail("--cpuprofile: %v", err)
		}
		defer stop()
	}
	cfg, paths, err := f.config(env, fs)
	if err != nil {
		return fail("%v", err)
	}
	files, code := loadRunFilesBounded(env, f.strict, f.verbose, paths)
	if files == nil {
		return code
	}
	sum, err := env.kit.Run(ctx, cfg, files...)
	if cfg.Suite != nil && cfg.Suite.SessionExport {
		if n, err := exportSessions(env, f.out); err != nil {
			fmt.Fprintf(env.stderr, "agenteval run: session export: %v\n", err)
		} else if n > 0 {
			fmt.Fprintf(env.stderr, "%d session trace(s) in %s\n", n, filepath.Join(f.out, "sessions"))
		}
	}
	return runExit(env, sum, err, filepath.Join(f.out, "results.jsonl"), f.exitZero)
}

// config turns the flags into the run's RunConfig and the paths to load;
// with --suite, the suite's settings are the defaults of the flags not
// given.
func (f *runFlags) config(env *cliEnv, fs *flagSet) (agenteval.RunConfig, []string, error) {
	var cfg agenteval.RunConfig
	if _, err := env.kit.Environments.Get(f.envFallback); f.envFallback != "" && err != nil {
		return cfg, nil, fmt.Errorf("--env-fallback %q: %v", f.envFallback, err)
	}
	shard, err := cliShard(env, f.shard, f.shards)
	if err != nil {
		return cfg, nil, err
	}
	agentOpts, cassette, err := agentOptions(env, f.record, f.replay)
	if err != nil {
		return cfg, nil, fmt.Errorf("--record: %v", err)
	}
	// One set of limiters for every model client of the run: the agent,
	// the user simulator and the judge share an endpoint's limit.
	agentOpts.EndpointLimits = llm.EndpointLimits{MaxRequests: f.maxRequests, TokensPerMinute: f.tokensPerMinute}
	agentOpts.Limits = llm.NewLimits(agentOpts.EndpointLimits)
	budget, prices, err := runBudget(f.budget, f.prices, f.agentSpec, f.agentModel, f.suite != "")
	if err != nil {
		return cfg, nil, err
	}
	paths := fs.Args()
	var suite *runSuite
	if f.suite != "" { // its settings become the defaults of the flags not given
		if suite, err = loadRunSuite(env, fs, f.suite, f.modes, &f.suiteFlags, agentOpts); err != nil {
			return cfg, nil, err
		}
		if err := suite.priceBudget(budget, prices, f.agentModel); err != nil {
			return cfg, nil, err
		}
		paths, f.agentSpec = suite.paths(), ""
		cfg.Suite = suite.suite
	}
	cfg = agenteval.RunConfig{AgentSpec: f.agentSpec, AgentOptions: agentOpts, Suite: cfg.Suite, SuiteFile: f.suite, Concurrency: f.concurrency,
		Runs: f.runs, Filters: f.filters, Shard: shard, MaxJobs: f.maxJobs, Out: f.out, Resume: f.resume, Retry: f.retry, Overwrite: f.overwrite,
		Redactor: env.redactor, AllowCommands: f.allowCommands, StrictMocks: f.strict, Live: f.live, EnvFallback: f.envFallback, Seed: f.seed,
		KeepDirs: f.keepDirs, Transcripts: f.transcripts, Manifest: f.manifest, SeedFile: f.seedFile, Budget: budget, Log: env.stderr, Limits: agentOpts.Limits,
		Settings: map[string]string{"user-model": f.userModel, "judge-model": f.judgeModel}, Cassette: cassette, InfraRetries: f.infraRetries}
	if f.infraRetries == 0 { // none; 0 in RunConfig means the default
		cfg.InfraRetries = -1
	}
	cfg.Estimate = func(ctx context.Context, jobs iter.Seq2[matrix.Job, error], files []*scenario.File) (*results.Estimate, error) {
		return runEstimate(ctx, env, jobs, suite, files, f.agentSpec, f.agentModel, f.userModel, f.judgeModel, f.prices, f.concurrency)
	}
	cfg.Price = jobPricer(prices, suite, f.agentSpec, f.agentModel, f.userModel, f.judgeModel)
	if err := runModels(env, &cfg, f.userModel, f.judgeModel, f.judgeCache, f.out); err != nil {
		return cfg, nil, err
	}
	cfg.Checkpoints, cfg.Fixtures = githubParts(env, f.graphqlURL, cassette, f.replay)
	pp := &runout.ProgressPrinter{W: env.stderr, Terminal: env.isTerminal, Every: 10000, Verbose: f.verbose}
	cfg.Progress = pp.Update
	if f.steps == "always" || (f.steps == "auto" && env.stdoutTerminal) {
		steps := &runout.Steps{W: env.stdout, Always: f.steps == "always", Color: env.stdoutTerminal}
		cfg.Progress = func(pr runner.Progress) {
			pp.Update(pr)
			steps.Job(pr.Last, pr.Total)
		}
	}
	return cfg, paths, nil
}

// runExit prints what a run did, for this invocation and, with a results
// file, for the whole run it recorded (resumes and retries included), and
// says the exit code: a recorded failure or incomplete job fails the run
// (unless exitZero), whichever invocation recorded it.
func runExit(env *cliEnv, sum agenteval.RunSummary, err error, resultsPath string, exitZero bool) int {
	switch {
	case errors.Is(err, results.ErrExist):
		fmt.Fprintf(env.stderr, "agenteval run: %s holds the results of an earlier run; finish that run with --resume, replace it with --overwrite, or choose another --out\n", resultsPath)
		return exitUsage
	case errors.Is(err, results.ErrPlanMismatch):
		fmt.Fprintf(env.stderr, "agenteval run: --resume: %s\nnothing was written; resume with the inputs and flags of the recorded run, or start a new run with another --out (or --overwrite)\n", withoutConfig(err))
		return exitUsage
	case errors.Is(err, agenteval.ErrConfig), errors.Is(err, runner.ErrNoAgent):
		fmt.Fprintf(env.stderr, "agenteval run: %s\n", withoutConfig(err))
		return exitUsage
	}
	fmt.Fprintf(env.stderr, "%d job(s): %d passed, %d failed, %d incomplete, %d skipped (already recorded) in %v; results in %s\n",
		sum.Jobs, sum.Passed, sum.Completed-sum.Passed, sum.Jobs-sum.Completed, sum.Skipped, sum.Duration.Round(time.Millisecond), sum.Path)
	whole := sum.Recorded
	if sum.Passed < sum.Jobs && sum.Path != "" {
		dir := filepath.Dir(sum.Path)
		fmt.Fprintf(env.stderr, "why they did not pass: agenteval report %s (grouped by reason), or agenteval view %s\n", dir, dir)
	}
	if sum.Skipped > 0 {
		fmt.Fprintf(env.stderr, "the whole run: %d job(s) recorded: %d passed, %d failed, %d incomplete\n", whole.Jobs, whole.Passed, whole.Failed, whole.Incomplete)
	}
	switch {
	case err != nil && errors.Is(err, context.Canceled):
		fmt.Fprintln(env.stderr, "agenteval run: interrupted; run again with --resume to finish")
		return exitFail
	case err != nil:
		fmt.Fprintf(env.stderr, "agenteval run: %v\n", err)
		return exitFail
	case sum.AtBudget:
		return exitFail // jobs are left: the run is not finished
	case exitZero:
		return exitOK
	case sum.Passed != sum.Jobs || whole.Passed != whole.Jobs:
		return exitFail
	}
	return exitOK
}

// buildModel reads "script", "script:N" or "openai:MODEL"; a model shares
// the run's limits (opts.Limits, opts.EndpointLimits).
func buildModel(spec string, env *cliEnv, opts runner.AgentOptions) (llm.Model, error) {
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "script":
		n := 2
		if arg != "" {
			v, err := strconv.Atoi(arg)
			if err != nil {
				return nil, fmt.Errorf("script:N wants a number of agent replies before the user is satisfied")
			}
			n = v
		}
		return conversation.ScriptedUser(n), nil
	case "openai":
		if arg == "" {
			return nil, fmt.Errorf("name a model, as in openai:gpt-4o-mini")
		}
		return llm.NewOpenAI(llm.OpenAIConfig{BaseURL: env.getenv("OPENAI_BASE_URL"), APIKey: env.getenv("OPENAI_API_KEY"), Model: arg,
			Limits: opts.Limits, MaxRequests: opts.EndpointLimits.MaxRequests, TokensPerMinute: opts.EndpointLimits.TokensPerMinute})
	}
	return nil, fmt.Errorf("unknown model %q; want script or openai:MODEL", spec)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// suiteArgs checks how a verb that takes scenarios either as PATHs or from
// a suite (run, plan) was given them: the message for a wrong combination,
// or usage true when neither was given.
func suiteArgs(suiteFile string, paths, modes int, suiteFlags bool) (msg string, usage bool) {
	switch {
	case suiteFile == "" && suiteFlags:
		return "--model, --scenario, --scenario-set and --skip-warmup change a suite; use them with --suite", false
	case suiteFile != "" && paths > 0:
		return "--suite names the scenarios (scenarios.paths); give no PATH with it", false
	case suiteFile == "" && modes > 0:
		return "--mode gives a suite's agent its spec; use it with --suite", false
	case suiteFile == "" && paths == 0:
		return "", true
	}
	return "", false
}

// withoutConfig is err's text without agenteval.ErrConfig's prefix.
func withoutConfig(err error) string {
	return strings.TrimPrefix(err.Error(), agenteval.ErrConfig.Error()+": ")
}
