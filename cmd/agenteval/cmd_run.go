package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/agenteval/agenteval/internal/infile"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/runout"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
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
	out := fs.String("out", "out", "directory for results.jsonl")
	resume := fs.Bool("resume", false, "finish the run recorded in DIR/results.jsonl: skip its recorded jobs and append (refused when the inputs or flags differ)")
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
	maxJobs := fs.Int64("max-jobs", runMaxJobs, "refuse runs with more jobs than this")
	verbose := fs.Bool("v", false, "print every failing job")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	record := fs.String("record", "", "record the run in this directory (a cassette): every model call (agent, user simulator, judge), mock draw and checkpoint answer, each under its job, role, sample and ordinal")
	infraRetries := fs.Int("infra-retries", 2, "more attempts for a job whose attempt was lost to the infrastructure (timeout, agent crash, 429, 5xx, lost connection), besides the scenario's allowed_retries; 0 for none")
	replay := fs.Bool("replay", false, "with --record: replay the recorded run offline, every answer from the cassette; a call not recorded (or asked differently) leaves its job incomplete, with the difference")
	var filters stringList
	fs.Var(&filters, "filter", "matrix filter path=value (repeatable, ANDed)")
	budgetSpec := fs.String("budget", "", "stop starting jobs once a limit is reached: tokens=N, cost=USD, time=DURATION, comma-separated (tokens=200k,cost=5usd,time=30m); unstarted jobs are left for --resume")
	pricesFile := fs.String("prices", "", "prices file (YAML/JSON, US dollars per million tokens) over the built-in table, for --budget cost=")
	agentModelName := fs.String("agent-model", "", "the model the agent uses, to price its tokens (default: MODEL of --agent openai:MODEL)")
	suiteFile := fs.String("suite", "", "run a suite (*.suite.yaml, or ghx's eval.config.yaml): every agent x model x selected scenario x repetition into one results file; its settings are the defaults of these flags")
	var modes stringList
	fs.Var(&modes, "mode", "with --suite: NAME=AGENT gives the agent NAME (a ghx mode) its spec, such as ghx=exec:./agent (repeatable)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	env.redactor.AddURL(*graphqlURL)
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval run: "+format+"\n", a...)
		return exitUsage
	}
	if msg, usage := suiteArgs(*suiteFile, fs.NArg(), len(modes)); usage {
		fs.Usage()
		return exitUsage
	} else if msg != "" {
		return usageErr("%s", msg)
	}
	switch {
	case *concurrency < 1:
		return usageErr("--concurrency %d: want at least 1 job at once", *concurrency)
	case *runs < 1:
		return usageErr("--runs %d: want at least 1 run per scenario", *runs)
	case *maxJobs < 1:
		return usageErr("--max-jobs %d: want at least 1", *maxJobs)
	case *resume && *overwrite:
		return usageErr("--resume finishes the recorded run and --overwrite replaces it: give one of them")
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return usageErr("--cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return usageErr("--cpuprofile: %v", err)
		}
		defer pprof.StopCPUProfile()
	}
	shard, err := cliShard(env, *shardSpec, *shardCount)
	if err != nil {
		return usageErr("%v", err)
	}
	if *infraRetries < 0 {
		return usageErr("--infra-retries must be 0 or more")
	}
	if *replay && *record == "" {
		return usageErr("--replay needs --record DIR")
	}
	budget, prices, err := runBudget(*budgetSpec, *pricesFile, *agentSpec, *agentModelName, *suiteFile != "")
	if err != nil {
		return usageErr("%v", err)
	}
	// --record DIR keeps every model call, mock draw and checkpoint answer
	// of the run in a cassette (llm.Cassette), keyed by job, attempt, role,
	// sample and ordinal; --replay answers them from it alone.
	wrapAs := func(string) func(llm.Model, string) llm.Model {
		return func(m llm.Model, _ string) llm.Model { return m }
	}
	var cassette *llm.Cassette
	if *record != "" {
		if cassette, err = llm.NewCassette(*record, *replay, env.redactor); err != nil {
			return usageErr("--record: %v", err)
		}
		wrapAs = func(role string) func(llm.Model, string) llm.Model {
			return func(m llm.Model, name string) llm.Model {
				return &llm.Recorded{Model: m, Name: name, Role: role, Cassette: cassette}
			}
		}
	}
	agentOpts := runner.AgentOptions{Getenv: env.getenv, WrapModel: wrapAs(llm.CallerAgent)}
	var suite *runSuite
	var agent runner.Agent
	paths := fs.Args()
	if *suiteFile != "" {
		if suite, err = loadRunSuite(env, fs, *suiteFile, modes, agentOpts); err != nil {
			return usageErr("%v", err)
		}
		paths = suite.paths()
		*agentSpec = "suite:" + *suiteFile
		if err := suite.priceBudget(budget, prices, *agentModelName); err != nil {
			return usageErr("%v", err)
		}
	} else if agent, err = env.kit.Agent(*agentSpec, agentOpts); err != nil {
		return usageErr("--agent: %v", err)
	}
	set, err := env.kit.Loader(scenario.Options{Strict: *strict}).LoadPaths(paths...)
	if set == nil {
		return usageErr("%v", err)
	}
	files, diags := set.Files, set.Diagnostics
	for _, d := range diags {
		if d.Severity == scenario.Error || *verbose {
			fmt.Fprintln(env.stderr, d.String())
		}
	}
	if diags.HasErrors() {
		fmt.Fprintf(env.stderr, "agenteval run: %d error(s) in the input; nothing ran\n", len(diags.Errors()))
		return exitUsage
	}
	if suite != nil {
		if files, err = suite.selectFiles(files); err != nil {
			return usageErr("%v", err)
		}
	}
	// recorded is the resumed file's jobs, known once it is open: the
	// sources skip them by id before building their scenarios.
	var recorded map[string]bool
	srcOpts := sources.Options{Runs: *runs, Filters: filters, MaxJobs: *maxJobs}
	if *resume {
		srcOpts.Skip = func(id string) bool { return recorded[id] }
	}
	srcs, err := sources.Files(files, srcOpts)
	if err != nil {
		return usageErr("%v", err)
	}
	fileSources := srcs
	if suite != nil {
		if srcs, err = sources.Suite(suite.variants, srcs, *maxJobs); err != nil {
			return usageErr("%v", err)
		}
	}
	// Run directories live in the results folder, under its lock: a run
	// killed with -9 leaves them where the next run into the folder finds
	// and removes them, never in the system's temp directory.
	workDir := filepath.Join(*out, "work")
	if *envFallback != "" {
		if _, err := env.kit.Environments.Get(*envFallback); err != nil {
			return usageErr("--env-fallback %q: %v", *envFallback, err)
		}
	}
	cfg := runner.Config{Agent: agent, Concurrency: *concurrency, Registries: env.kit.Registries, WorkDir: workDir, KeepDirs: *keepDirs,
		EnvFallback: *envFallback, AllowCommands: *allowCommands, StrictMocks: *strict, Seed: *seed, Budget: budget, Cassette: cassette,
		InfraRetries: *infraRetries}
	if *infraRetries == 0 { // none; 0 in Config means its default
		cfg.InfraRetries = -1
	}
	if suite != nil {
		cfg.Agent, cfg.Variants, cfg.ToolCategories = nil, suite.agents, suite.suite.ToolCategories
		suite.applyTimeouts(files, &cfg)
	}
	if cfg.UserModel, err = buildModel(*userModel, env); err != nil {
		return usageErr("--user-model: %v", err)
	}
	if !strings.HasPrefix(*userModel, "script") {
		cfg.UserModel = wrapAs(llm.CallerUser)(cfg.UserModel, *userModel)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return usageErr("--out: %v", err)
	}
	if *judgeModel != "" {
		m, err := buildModel(*judgeModel, env)
		if err != nil {
			return usageErr("--judge-model: %v", err)
		}
		m = wrapAs(llm.CallerJudge)(m, *judgeModel)
		var cache llm.Cache
		if cassette == nil {
			// With --record the cassette holds every judge answer, each
			// sample and job its own: a cache shared across jobs would hand
			// one job another's answer, and the recording would not be the run.
			dir := *judgeCache
			if dir == "" {
				dir = filepath.Join(*out, "judge-cache")
			}
			if cache, err = llm.NewDirCache(dir, env.redactor); err != nil {
				return usageErr("--judge-cache: %v", err)
			}
		}
		// The agent scenario format names model sizes (model_type: TEXT_LARGE),
		// not models: they all mean the judge model given here.
		sizes := map[string]llm.Model{}
		for _, t := range []string{"TEXT_SMALL", "TEXT_LARGE", "TEXT_REASONING_SMALL", "TEXT_REASONING_LARGE", "OBJECT_SMALL", "OBJECT_LARGE"} {
			sizes[t] = m
		}
		if cfg.Judge, err = judge.New(judge.Config{Model: m, ModelName: *judgeModel, Models: sizes, Cache: cache}); err != nil {
			return usageErr("--judge-model: %v", err)
		}
	}
	token := firstNonEmpty(env.getenv("GITHUB_TOKEN"), env.getenv("GH_TOKEN"))
	var fixtures *runner.FixtureConfig
	var gh *github.Client
	var mgr fixture.Manager
	if token != "" || *graphqlURL != "" {
		gh = github.NewClient(github.Config{Token: token, GraphQLURL: *graphqlURL, Timeout: 60 * time.Second})
		mgr = github.NewManager(gh, github.ManagerConfig{})
	}
	if suite != nil {
		if err := suite.seedMissingManifest(ctx, env, mgr, *manifest, *seedFile); err != nil {
			return usageErr("%v", err)
		}
	}
	if *manifest != "" {
		m, err := fixture.LoadManifest(*manifest)
		if err != nil {
			return usageErr("--manifest: %v", err)
		}
		fixtures = &runner.FixtureConfig{Manifest: m}
		if mgr != nil {
			// reseed_per_iteration: put the scenario's fixtures back before each run.
			fixtures.Reset = func(ctx context.Context, s *scenario.Scenario) error { return fixture.ResetScenario(ctx, mgr, m, s) }
		}
	}
	if *seedFile != "" {
		sf, err := fixture.LoadSeedFile(*seedFile)
		if err != nil {
			return usageErr("--seed-file: %v", err)
		}
		if fixtures == nil {
			fixtures = &runner.FixtureConfig{}
		}
		if mgr != nil {
			// seed_per_iteration: fresh fixtures for each run, removed after it.
			base := fixtures.Manifest
			fixtures.SeedFresh = func(ctx context.Context, s *scenario.Scenario) (*scenario.Manifest, func(context.Context) error, error) {
				return fixture.SeedScenario(ctx, mgr, sf, base, s)
			}
		}
	}
	var exec checkpoint.Executor
	if token != "" || *graphqlURL != "" {
		exec = github.NewExecutor(gh, github.ExecutorOptions{})
	}
	if cassette != nil && (exec != nil || *replay) {
		// Replaying needs no GitHub: the answers are in the cassette.
		exec = runner.RecordCheckpoints(exec, cassette)
	}
	if exec != nil {
		cfg.Checkpoints = runner.Checkpoints(checkpoint.Checker{Executor: exec, Conditions: env.kit.Conditions})
	}
	jobs, total, err := sources.Combine(srcs, shard)
	if err != nil {
		return usageErr("%v", err)
	}
	resultsPath := filepath.Join(*out, "results.jsonl")
	names := make([]string, len(srcs))
	for i, s := range srcs {
		names[i] = s.Name
	}
	inputs, err := planInputs(files, *manifest, *seedFile)
	if err != nil {
		return usageErr("%v", err)
	}
	shardText := "" // the plan records no shard for the whole run
	if !shard.IsWhole() {
		shardText = shard.String()
	}
	var estimate *results.Estimate
	if budget != nil {
		if estimate, err = runEstimate(ctx, env, jobs, suite, files, *agentSpec, *agentModelName, *userModel, *judgeModel, *pricesFile, *concurrency); err != nil {
			return usageErr("%v", err)
		}
	}
	plan := &results.Plan{Estimate: estimate, TotalJobs: total, Shard: shardText,
		ShardJobs: shard.Size(total), Agent: *agentSpec, Sources: names, Seed: *seed, Inputs: inputs,
		Settings: map[string]string{"filters": strings.Join(filters, " & "), "runs": strconv.Itoa(*runs), "user-model": *userModel,
			"judge-model": *judgeModel, "strict": strconv.FormatBool(*strict), "allow-commands": strconv.FormatBool(*allowCommands),
			"env-fallback": *envFallback}}
	if suite != nil {
		maps.Copy(plan.Settings, suite.settings())
	}
	w, err := results.Open(resultsPath, plan, results.Options{Resume: *resume, Overwrite: *overwrite, Redactor: env.redactor})
	switch {
	case errors.Is(err, results.ErrExist):
		return usageErr("%s holds the results of an earlier run; finish that run with --resume, replace it with --overwrite, or choose another --out", resultsPath)
	case errors.Is(err, results.ErrPlanMismatch):
		return usageErr("--resume: %v\nnothing was written; resume with the inputs and flags of the recorded run, or start a new run with another --out (or --overwrite)", err)
	case err != nil:
		return usageErr("%v", err)
	}
	defer w.Close() // releases the folder's lock on every path
	// Anything in DIR/work was left by a run that was killed: this run holds
	// the folder's lock, so no other uses it.
	if err := os.RemoveAll(workDir); err != nil {
		return usageErr("removing the run directories a killed run left in %s: %v", workDir, err)
	}
	owned := shard.Size(total)
	if done := w.Recorded(); done != nil {
		recorded = done
		cfg.Skip = func(id string) bool { return done[id] }
		owned -= int64(len(done))
	}
	if fixtures != nil {
		fixtures.Variables = map[string]any{fixture.VarRunID: plan.RunID}
		cfg.Fixtures = runner.Fixtures(*fixtures)
	}
	warnUnrunnable(env, cfg, files)
	cfg.Results = w
	pp := &runout.ProgressPrinter{W: env.stderr, Terminal: env.isTerminal, Every: 10000, Verbose: *verbose}
	cfg.Progress = pp.Update
	var sum runner.Summary
	var runErr error
	switch {
	case suite == nil:
		cfg.Total = owned
		sum, runErr = runner.Run(ctx, cfg, jobs)
	default:
		sum, runErr = suite.run(ctx, env, cfg, fileSources, jobs, owned, mgr, fixtures)
	}
	for _, n := range sum.Notes {
		fmt.Fprintf(env.stderr, "agenteval run: %s\n", n)
	}
	if !*keepDirs {
		_ = os.RemoveAll(workDir) // while the lock is held: the next run may start at Close
	}
	atBudget, err := endBudget(env, w, plan.RunID, budget, sum.Budget, owned, sum.Jobs)
	if err != nil && runErr == nil {
		runErr = err
	}
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}
	fmt.Fprintf(env.stderr, "%d job(s): %d passed, %d failed, %d incomplete, %d skipped (already recorded) in %v; results in %s\n",
		sum.Jobs, sum.Passed, sum.Completed-sum.Passed, sum.Jobs-sum.Completed, sum.Skipped, sum.Duration.Round(time.Millisecond), resultsPath)
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		fmt.Fprintln(env.stderr, "agenteval run: interrupted; run again with --resume to finish")
		return exitFail
	case runErr != nil:
		fmt.Fprintf(env.stderr, "agenteval run: %v\n", runErr)
		return exitFail
	case atBudget:
		return exitFail // jobs are left: the run is not finished
	case sum.Passed != sum.Jobs && !*exitZero:
		return exitFail
	}
	return exitOK
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

// buildModel reads "script", "script:N" or "openai:MODEL".
func buildModel(spec string, env *cliEnv) (llm.Model, error) {
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
		return llm.NewOpenAI(llm.OpenAIConfig{BaseURL: env.getenv("OPENAI_BASE_URL"), APIKey: env.getenv("OPENAI_API_KEY"), Model: arg})
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

// warnUnrunnable says, before anything runs, which files' jobs this
// configuration cannot run (runner.Config.Unrunnable): they are recorded
// incomplete with the same reasons while the other jobs run. A matrix is
// judged by its base scenario; each of its jobs is decided on its own.
func warnUnrunnable(env *cliEnv, cfg runner.Config, files []*scenario.File) {
	for _, f := range files {
		s := f.Scenario
		if f.Base != nil {
			s = f.Base.Scenario
		}
		if s == nil || (f.Kind != scenario.KindScenario && f.Kind != scenario.KindGitHub && f.Matrix == nil) {
			continue
		}
		for _, why := range cfg.Unrunnable(s) {
			fmt.Fprintf(env.stderr, "%s: warning: its jobs will be recorded incomplete: %s\n", f.Name, why)
		}
	}
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
