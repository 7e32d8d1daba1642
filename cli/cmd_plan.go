package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/internal/infile"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// runPlan forecasts a run: the same jobs run would run (paths, --runs,
// --filter, --shard), their model calls by role, tokens, cost and wall time.
func runPlan(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "plan", "[flags] PATH...  (the scenario files, matrix files or directories run would take)")
	agentSpec := fs.String("agent", "echo", "agent the run would use, as run --agent takes it (agenteval types lists the kinds)")
	agentModelName := fs.String("agent-model", "", "the model the agent uses, to price its tokens (default: MODEL of --agent openai:MODEL)")
	userModel := fs.String("user-model", "script", "user simulator: script (no model calls) or openai:MODEL")
	judgeModel := fs.String("judge-model", "", "judge model: openai:MODEL")
	concurrency := fs.Int("concurrency", 4*runtime.GOMAXPROCS(0), "jobs at once, as run's --concurrency")
	maxRequests := fs.Int("max-requests", 0, "model requests in flight at once, as run's --max-requests: jobs that call a model run at most this many at once in the forecast; 0: no limit")
	runs := fs.Int("runs", 1, "runs per plain scenario, at least 1 (matrices use runs_per_combination)")
	shardSpec := fs.String("shard", "", "forecast only part i of n (i/n), or auto (as run)")
	shardCount := fs.Int("shards", 0, "with --shard auto: the number of shards (default $"+shardCountVariable+")")
	maxJobs := fs.Int64("max-jobs", runMaxJobs, "refuse runs with more jobs than this")
	strict := fs.Bool("strict", false, "unknown fields are errors")
	pricesFile := fs.String("prices", "", "prices file (YAML/JSON: as_of, models: {NAME: {input_per_mtok, output_per_mtok}}) over the built-in table")
	format := fs.String("format", "text", "output format: text or json (the shape of plan/plan.schema.json)")
	suiteFile := fs.String("suite", "", "forecast a suite (*.suite.yaml, or ghx's eval.config.yaml) as run --suite runs it: every agent x model x selected scenario x repetition")
	var filters, history, modes stringList
	fs.Var(&modes, "mode", "with --suite: NAME=AGENT gives the agent NAME (a ghx mode) its spec; NAME alone plans only the agents so named (repeatable)")
	var sf suiteFlags
	sf.define(fs)
	fs.Var(&filters, "filter", "matrix filter path=value (repeatable, ANDed)")
	fs.Var(&history, "history", "past results to forecast from: a results.jsonl, or a DIR for every results folder under it (repeatable); without it, the scenarios' limits")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval plan: "+format+"\n", a...)
		return exitUsage
	}
	if msg, usage := suiteArgs(*suiteFile, fs.NArg(), len(modes), sf.given()); usage {
		fs.Usage()
		return exitUsage
	} else if msg != "" {
		return usageErr("%s", msg)
	}
	switch {
	case !fs.oneOf("format", *format, "text", "json"):
		return exitUsage
	case *concurrency < 1:
		return usageErr("--concurrency %d: want at least 1 job at once", *concurrency)
	case *runs < 1:
		return usageErr("--runs %d: want at least 1 run per scenario", *runs)
	case *maxRequests < 0:
		return usageErr("--max-requests %d: want 0 (no limit) or at least 1 request at once", *maxRequests)
	}
	shard, err := cliShard(env, *shardSpec, *shardCount)
	if err != nil {
		return usageErr("%v", err)
	}
	paths := fs.Args()
	var suite *runSuite
	if *suiteFile != "" {
		// The suite's settings (repetitions, models, concurrency) become the
		// defaults of the flags not given, as for run.
		if suite, err = loadRunSuite(env, fs, *suiteFile, modes, &sf, runner.AgentOptions{Getenv: env.getenv}); err != nil {
			return usageErr("%v", err)
		}
		paths = suite.paths()
	}
	opts, err := planOptions(*agentSpec, *agentModelName, *userModel, *judgeModel, *pricesFile, *concurrency, env)
	if err != nil {
		return usageErr("%v", err)
	}
	var historyPaths []string
	if len(history) > 0 {
		if historyPaths, err = resultsPaths(history); err != nil {
			return usageErr("--history: %v", err)
		}
	}
	var set *scenario.Set
	boundedLoad(env, func() { set, err = env.kit.Loader(scenario.Options{Strict: *strict}).LoadPaths(paths...) })
	if set == nil {
		return usageErr("%v", err)
	}
	for _, d := range set.Diagnostics {
		if d.Severity == scenario.Error {
			fmt.Fprintln(env.stderr, d.String())
		}
	}
	if set.Diagnostics.HasErrors() {
		fmt.Fprintf(env.stderr, "agenteval plan: %d error(s) in the input; nothing forecast\n", len(set.Diagnostics.Errors()))
		return exitUsage
	}
	files := set.Files
	if suite != nil {
		if files, err = suite.suite.Select(files); err != nil {
			return usageErr("--suite: %v", err)
		}
	}
	// The jobs run would run, as the library builds them (Kit.Jobs).
	jobCfg := agenteval.RunConfig{Runs: *runs, Filters: filters, MaxJobs: *maxJobs, Shard: shard}
	if suite != nil {
		jobCfg.Suite = suite.suite
		suite.planOptions(files, &opts, *agentModelName)
	}
	opts.MaxRequests = *maxRequests
	if suite != nil {
		// A model's max_requests bounds its jobs as run applies it: the
		// forecast takes the tightest.
		for _, m := range suite.suite.Models {
			if m.MaxRequests > 0 && (opts.MaxRequests == 0 || m.MaxRequests < opts.MaxRequests) {
				opts.MaxRequests = m.MaxRequests
			}
		}
	}
	if historyPaths != nil {
		// Read once the inputs are loaded: the history's table is not
		// under the load's transient peak.
		opts.History = plan.NewHistory()
		for _, p := range historyPaths {
			f, err := infile.Open(p)
			if err != nil {
				return usageErr("--history: %v", err)
			}
			err = opts.History.Read(p, readerUntil{ctx, f})
			f.Close()
			if err != nil && ctx.Err() != nil {
				fmt.Fprintf(env.stderr, "agenteval plan: --history: %v\n", err)
				return exitFail // interrupted
			}
			if err != nil {
				return usageErr("--history: %v", err)
			}
		}
	}
	jobs, _, err := env.kit.Jobs(jobCfg, files...)
	if err != nil {
		return usageErr("%v", err)
	}
	p, err := plan.Make(ctx, jobs, opts)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval plan: %v\n", err)
		return exitFail
	}
	if suite != nil && suite.suite.Warmup {
		p.Notes = append(p.Notes, fmt.Sprintf("the suite's warm-up (one uncounted session for each of its %d agent x model) is not counted", len(suite.variants)))
	}
	if *format == "json" {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(p)
	} else {
		err = p.WriteText(env.stdout)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval plan: %v\n", err)
		return exitFail
	}
	return exitOK
}

// cliShard reads --shard (i/n or auto, with --shards) as run does.
func cliShard(env *cliEnv, spec string, count int) (matrix.Shard, error) {
	switch {
	case spec == "auto":
		s, from, err := autoShard(count, env.getenv)
		if err != nil {
			return matrix.Shard{}, err
		}
		fmt.Fprintf(env.stderr, "shard %s (from %s)\n", s, from)
		spec = s
	case count != 0:
		return matrix.Shard{}, fmt.Errorf("--shards %d counts the shards of --shard auto; with --shard i/n, n is the count", count)
	}
	if spec == "" {
		return matrix.Shard{}, nil
	}
	return matrix.ParseShard(spec)
}

// planOptions are the forecast's models and prices from run's flags.
func planOptions(agentSpec, agentModelFlag, userModel, judgeModel, pricesFile string, concurrency int, env *cliEnv) (plan.Options, error) {
	prices, err := loadPrices(pricesFile, readInput)
	if err != nil {
		return plan.Options{}, fmt.Errorf("--prices: %w", err)
	}
	o := plan.Options{Concurrency: concurrency, Prices: prices, Evaluations: env.kit.Evaluations,
		AgentModel: agentModel(agentSpec, agentModelFlag), NoAgentModel: agentSpec == "echo" && agentModelFlag == ""}
	switch name, m, _ := strings.Cut(userModel, ":"); name {
	case "script":
		o.NoUserModel = true
	case "openai":
		o.UserModel = m
	}
	if m, ok := strings.CutPrefix(judgeModel, "openai:"); ok {
		o.JudgeModel = m
	}
	return o, nil
}

// agentModel says which model each job of the suite runs with, for its
// price: the job's model (an exec agent reads it, an openai agent without
// one takes it), the model an openai:MODEL agent names, none for echo,
// else the one --agent-model names.
func (rs *runSuite) agentModel(fallback string) func(matrix.Job) (string, bool) {
	specs := map[string]string{}
	for _, a := range rs.suite.Agents {
		specs[a.Name] = a.Agent
	}
	return func(j matrix.Job) (string, bool) {
		spec := specs[j.Agent]
		switch {
		case spec == "echo":
			return "", true
		case strings.HasPrefix(spec, "openai:") && len(spec) > len("openai:"):
			return strings.TrimPrefix(spec, "openai:"), false
		case j.Model != "":
			return j.Model, false
		}
		return fallback, false
	}
}

// planOptions makes opts forecast the suite's jobs as run runs them: each
// job priced by its agent's model, the suite's step and job timeouts.
func (rs *runSuite) planOptions(files []*scenario.File, opts *plan.Options, agentModelFlag string) {
	opts.JobAgentModel, opts.NoAgentModel = rs.agentModel(agentModelFlag), false
	var rc runner.Config
	rs.applyTimeouts(files, &rc)
	opts.StepTimeout = rc.StepTimeout
}

// readerUntil reads r until ctx ends, then fails with its cause: a long
// history stops being read when the command is interrupted.
type readerUntil struct {
	ctx context.Context
	r   io.Reader
}

func (u readerUntil) Read(b []byte) (int, error) {
	if u.ctx.Err() != nil {
		return 0, context.Cause(u.ctx)
	}
	return u.r.Read(b)
}
