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

func runRun(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "run", "[flags] PATH...  (scenario files, matrix files or directories)")
	agentSpec := fs.String("agent", "echo", "agent under test: echo, exec:COMMAND or openai:MODEL")
	concurrency := fs.Int("concurrency", 4*runtime.GOMAXPROCS(0), "jobs at once, at least 1; 4 x CPUs by default")
	maxRequests := fs.Int("max-requests", 0, "requests in flight at once per model endpoint (base URL, key, model), shared by the agent, user simulator and judge; 0: learned from the provider's 429s and x-ratelimit headers")
	out := fs.String("out", "out", "directory for results.jsonl")
	resume := fs.Bool("resume", false, "finish the run recorded in DIR/results.jsonl: skip its recorded jobs and append (refused when the inputs or flags differ)")
	retry := fs.String("retry", "", "failed or incomplete: rerun only the jobs of the run recorded in DIR whose latest record failed or is incomplete, appending their new records (readers take a job's latest record)")
	overwrite := fs.Bool("overwrite", false, "replace DIR/results.jsonl when it exists (without it, or --resume, an existing file is refused)")
	shardSpec := fs.String("shard", "", "run only part i of n (i/n), or auto: the part the engine running this copy names (JOB_COMPLETION_INDEX, CI_NODE_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB, CLOUD_RUN_TASK_INDEX, AWS_BATCH_JOB_ARRAY_INDEX)")
	shardCount := fs.Int("shards", 0, "with --shard auto: the number of shards, where the engine does not say (default $"+shardCountVariable+")")
	exitZero := fs.Bool("exit-zero", false, "exit 0 once every job is recorded, even when some failed or were incomplete (a shard whose merged report decides); bad input still exits 2 and an interrupted run 1")
	seed := fs.Int64("seed", 1, "seed for mock probabilities and the user simulator")
	allowCommands := fs.Bool("allow-commands", false, "let scenarios run commands (code steps, command_exit_code_is); without it such jobs are incomplete and run nothing")
	envFallback := fs.String("env-fallback", "", "run scenarios whose environment has no provider here (e2b) in this one instead: local")
	strict := fs.Bool("strict", false, "unknown fields are errors; unmatched mock calls fail the run")
	runs := fs.Int("runs", 1, "runs per plain scenario, at least 1 (matrices use runs_per_combination)")
	userModel := fs.String("user-model", "script", "user simulator: script (offline, deterministic) or openai:MODEL")
	judgeModel := fs.String("judge-model", "", "model for llm_judge: openai:MODEL (OPENAI_BASE_URL, OPENAI_API_KEY)")
	judgeCache := fs.String("judge-cache", "", "directory caching judge verdicts (default DIR/judge-cache)")
	manifest := fs.String("manifest", "", "fixture manifest for {{placeholders}} and checkpoints")
	seedFile := fs.String("seed-file", "", "seed file declaring the fixtures seed_per_iteration scenarios get afresh for each run (needs a GitHub token or --graphql-url)")
	graphqlURL := fs.String("graphql-url", "", "GitHub GraphQL endpoint for checkpoints (default api.github.com)")
	keepDirs := fs.Bool("keep-dirs", false, "keep run directories (in DIR/work, until the next run into DIR)")
	transcripts := fs.String("transcripts", "all", "which jobs keep their transcript (tool calls with arguments and results), code-step output and agent log in the results: all, failing or none")
	maxJobs := fs.Int64("max-jobs", runMaxJobs, "refuse runs with more jobs than this")
	verbose := fs.Bool("v", false, "print every failing job")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	record := fs.String("record", "", "record the run in this directory (a cassette): every model call (agent, user simulator, judge), mock draw and checkpoint answer, each under its job, role, sample and ordinal")
	replay := fs.Bool("replay", false, "with --record: replay the recorded run offline, every answer from the cassette; a call not recorded (or asked differently) leaves its job incomplete, with the difference")
	infraRetries := fs.Int("infra-retries", 2, "more attempts for a job whose attempt was lost to the infrastructure (timeout, agent crash, 429, 5xx, lost connection), besides the scenario's allowed_retries; 0 for none")
	var filters stringList
	fs.Var(&filters, "filter", "matrix filter path=value (repeatable, ANDed)")
	budgetSpec := fs.String("budget", "", "stop starting jobs once a limit is reached: tokens=N, cost=USD, time=DURATION, comma-separated (tokens=200k,cost=5usd,time=30m); unstarted jobs are left for --resume")
	pricesFile := fs.String("prices", "", "prices file (YAML/JSON, US dollars per million tokens) over the built-in table: each job's cost (agent, user, judge) and --budget cost=")
	agentModelName := fs.String("agent-model", "", "the model the agent uses, to price its tokens (default: MODEL of --agent openai:MODEL)")
	suiteFile := fs.String("suite", "", "run a suite (*.suite.yaml, or ghx's eval.config.yaml): every agent x model x selected scenario x repetition into one results file; its settings are the defaults of these flags")
	var modes stringList
	fs.Var(&modes, "mode", "with --suite: NAME=AGENT gives the agent NAME (a ghx mode) its spec, such as ghx=exec:./agent (repeatable)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	env.redactor.AddURL(*graphqlURL)
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval run: "+format+"\n", a...)
		return exitUsage
	}
	if msg, usage := suiteArgs(*suiteFile, fs.NArg(), len(modes)); usage {
		fs.Usage()
		return exitUsage
	} else if msg != "" {
		return fail("%s", msg)
	}
	switch {
	case *concurrency < 1:
		return fail("--concurrency %d: want at least 1 job at once", *concurrency)
	case *maxRequests < 0:
		return fail("--max-requests %d: want 0 (learned) or at least 1 request at once", *maxRequests)
	case *runs < 1:
		return fail("--runs %d: want at least 1 run per scenario", *runs)
	case *maxJobs < 1:
		return fail("--max-jobs %d: want at least 1", *maxJobs)
	case *resume && *overwrite:
		return fail("--resume finishes the recorded run and --overwrite replaces it: give one of them")
	case *replay && *record == "":
		return fail("--replay needs --record DIR")
	case *infraRetries < 0:
		return fail("--infra-retries %d: want 0 or more", *infraRetries)
	case !fs.oneOf("transcripts", *transcripts, "all", "failing", "none"):
		return exitUsage
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fail("--cpuprofile: %v", err)
		}
		defer stop()
	}
	if _, err := env.kit.Environments.Get(*envFallback); *envFallback != "" && err != nil {
		return fail("--env-fallback %q: %v", *envFallback, err)
	}
	shard, err := cliShard(env, *shardSpec, *shardCount)
	if err != nil {
		return fail("%v", err)
	}
	agentOpts, cassette, err := agentOptions(env, *record, *replay)
	if err != nil {
		return fail("--record: %v", err)
	}
	// One set of limiters for every model client of the run: the agent,
	// the user simulator and the judge share an endpoint's limit.
	agentOpts.EndpointLimits = llm.EndpointLimits{MaxRequests: *maxRequests}
	agentOpts.Limits = llm.NewLimits(agentOpts.EndpointLimits)
	budget, prices, err := runBudget(*budgetSpec, *pricesFile, *agentSpec, *agentModelName, *suiteFile != "")
	if err != nil {
		return fail("%v", err)
	}
	paths := fs.Args()
	var suite *runSuite
	if *suiteFile != "" { // its settings become the defaults of the flags not given
		if suite, err = loadRunSuite(env, fs, *suiteFile, modes, agentOpts); err != nil {
			return fail("%v", err)
		}
		if err := suite.priceBudget(budget, prices, *agentModelName); err != nil {
			return fail("%v", err)
		}
		paths, *agentSpec = suite.paths(), ""
	}
	cfg := agenteval.RunConfig{AgentSpec: *agentSpec, AgentOptions: agentOpts, SuiteFile: *suiteFile, Concurrency: *concurrency,
		Runs: *runs, Filters: filters, Shard: shard, MaxJobs: *maxJobs, Out: *out, Resume: *resume, Retry: *retry, Overwrite: *overwrite,
		Redactor: env.redactor, AllowCommands: *allowCommands, StrictMocks: *strict, EnvFallback: *envFallback, Seed: *seed,
		KeepDirs: *keepDirs, Transcripts: *transcripts, Manifest: *manifest, SeedFile: *seedFile, Budget: budget, Log: env.stderr,
		Settings: map[string]string{"user-model": *userModel, "judge-model": *judgeModel}, Cassette: cassette, InfraRetries: *infraRetries}
	cfg.Limits = agentOpts.Limits
	if *infraRetries == 0 { // none; 0 in RunConfig means the default
		cfg.InfraRetries = -1
	}
	if suite != nil {
		cfg.Suite = suite.suite
	}
	cfg.Estimate = func(ctx context.Context, jobs iter.Seq2[matrix.Job, error], files []*scenario.File) (*results.Estimate, error) {
		return runEstimate(ctx, env, jobs, suite, files, *agentSpec, *agentModelName, *userModel, *judgeModel, *pricesFile, *concurrency)
	}
	cfg.Price = jobPricer(prices, suite, *agentSpec, *agentModelName, *userModel, *judgeModel)
	if err := runModels(env, &cfg, *userModel, *judgeModel, *judgeCache, *out); err != nil {
		return fail("%v", err)
	}
	cfg.Checkpoints, cfg.Fixtures = githubParts(env, *graphqlURL, cassette, *replay)
	files, code := loadRunFiles(env, *strict, *verbose, paths)
	if files == nil {
		return code
	}
	pp := &runout.ProgressPrinter{W: env.stderr, Terminal: env.isTerminal, Every: 10000, Verbose: *verbose}
	cfg.Progress = pp.Update
	sum, err := env.kit.Run(ctx, cfg, files...)
	return runExit(env, sum, err, filepath.Join(*out, "results.jsonl"), *exitZero)
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
		return runner.ScriptedUser(n), nil
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
func suiteArgs(suiteFile string, paths, modes int) (msg string, usage bool) {
	switch {
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
