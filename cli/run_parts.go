package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// The parts of run's RunConfig that flags name and the library cannot
// guess: models, GitHub, the files to load.

// startCPUProfile writes a CPU profile of the run to file until stop.
func startCPUProfile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// agentOptions are the options agents are built with: the environment,
// and, with --record DIR, the run's cassette (llm.Cassette), which keeps
// every model call, mock draw and checkpoint answer under its job, attempt,
// role, sample and ordinal; --replay answers them from it alone.
func agentOptions(env *cliEnv, record string, replay bool) (runner.AgentOptions, *llm.Cassette, error) {
	opts := runner.AgentOptions{Getenv: env.getenv, WrapModel: recordAs(nil, "")}
	if record == "" {
		return opts, nil, nil
	}
	c, err := llm.NewCassette(record, replay, env.redactor)
	if err != nil {
		return opts, nil, err
	}
	opts.WrapModel = recordAs(c, llm.CallerAgent)
	return opts, c, nil
}

// recordAs wraps models of one role in c (none when c is nil).
func recordAs(c *llm.Cassette, role string) func(llm.Model, string) llm.Model {
	if c == nil {
		return func(m llm.Model, _ string) llm.Model { return m }
	}
	return func(m llm.Model, name string) llm.Model {
		return &llm.Recorded{Model: m, Name: name, Role: role, Cassette: c}
	}
}

// runModels sets the simulated user's model and the judge from their
// flags, wrapped as the agents' models are (--record).
func runModels(env *cliEnv, cfg *agenteval.RunConfig, userModel, judgeModel, judgeCache, out string) error {
	var err error
	if cfg.UserModel, err = buildModel(userModel, env, cfg.AgentOptions); err != nil {
		return fmt.Errorf("--user-model: %w", err)
	}
	if !strings.HasPrefix(userModel, "script") {
		cfg.UserModel = recordAs(cfg.Cassette, llm.CallerUser)(cfg.UserModel, userModel)
	}
	if judgeModel == "" {
		return nil
	}
	m, err := buildModel(judgeModel, env, cfg.AgentOptions)
	if err != nil {
		return fmt.Errorf("--judge-model: %w", err)
	}
	m = recordAs(cfg.Cassette, llm.CallerJudge)(m, judgeModel)
	var cache llm.Cache
	if cfg.Cassette == nil {
		// With --record the cassette holds every judge answer, each sample
		// and job its own: a cache shared across jobs would hand one job
		// another's answer, and the recording would not be the run.
		if judgeCache == "" {
			judgeCache = filepath.Join(out, "judge-cache")
		}
		if cache, err = llm.NewDirCache(judgeCache, env.redactor); err != nil {
			return fmt.Errorf("--judge-cache: %w", err)
		}
	}
	// The agent scenario format names model sizes (model_type: TEXT_LARGE),
	// not models: they all mean the judge model given here.
	sizes := map[string]llm.Model{}
	for _, t := range []string{"TEXT_SMALL", "TEXT_LARGE", "TEXT_REASONING_SMALL", "TEXT_REASONING_LARGE", "OBJECT_SMALL", "OBJECT_LARGE"} {
		sizes[t] = m
	}
	if cfg.Judge, err = judge.New(judge.Config{Model: m, ModelName: judgeModel, Models: sizes, Cache: cache}); err != nil {
		return fmt.Errorf("--judge-model: %w", err)
	}
	return nil
}

// githubParts are the checkpoint scorer and fixture manager of GitHub,
// with a token (GITHUB_TOKEN, GH_TOKEN) or --graphql-url; none without.
// With a cassette the checkpoint answers are recorded in it, and replayed
// from it with no GitHub at all.
func githubParts(env *cliEnv, graphqlURL string, c *llm.Cassette, replay bool) (runner.CheckpointScorer, fixture.Manager) {
	token := firstNonEmpty(env.getenv("GITHUB_TOKEN"), env.getenv("GH_TOKEN"))
	if token == "" && graphqlURL == "" {
		if c != nil && replay {
			return checkpoint.Checker{Executor: checkpoint.Recorded(nil, c), Conditions: env.kit.Conditions}, nil
		}
		return nil, nil
	}
	gh := github.NewClient(github.Config{Token: token, GraphQLURL: graphqlURL, Timeout: 60 * time.Second})
	var exec checkpoint.Executor = github.NewExecutor(gh, github.ExecutorOptions{})
	if c != nil {
		exec = checkpoint.Recorded(exec, c)
	}
	return checkpoint.Checker{Executor: exec, Conditions: env.kit.Conditions}, github.NewManager(gh, github.ManagerConfig{})
}

// loadRunFilesBounded is loadRunFiles under env.loadMemoryLimit, when
// set: the collector works sooner while the inputs' node trees are built,
// and once they are let go (all but the values and their positions) one
// collection sets the heap's goal by what the run keeps; the run itself
// keeps the usual pacing. Without it the goal stayed twice the load's
// transient peak, and the run's first allocations grew the heap to it.
func loadRunFilesBounded(env *cliEnv, strict, verbose bool, paths []string) ([]*scenario.File, int) {
	var files []*scenario.File
	var code int
	boundedLoad(env, func() { files, code = loadRunFiles(env, strict, verbose, paths) })
	return files, code
}

// boundedLoad runs load (run's and plan's loading of their inputs) under
// env.loadMemoryLimit, when set, and collects once it is done (see
// loadRunFilesBounded).
func boundedLoad(env *cliEnv, load func()) {
	if env.loadMemoryLimit <= 0 {
		load()
		return
	}
	prev := debug.SetMemoryLimit(env.loadMemoryLimit)
	defer debug.SetMemoryLimit(prev)
	load()
	runtime.GC()
}

// loadRunFiles loads paths, printing their errors (and, verbose, every
// diagnostic); nil and the exit code when they hold errors.
func loadRunFiles(env *cliEnv, strict, verbose bool, paths []string) ([]*scenario.File, int) {
	set, err := env.kit.Loader(scenario.Options{Strict: strict}).LoadPaths(paths...)
	if set == nil {
		fmt.Fprintf(env.stderr, "agenteval run: %v\n", err)
		return nil, exitUsage
	}
	for _, d := range set.Diagnostics {
		if d.Severity == scenario.Error || verbose {
			fmt.Fprintln(env.stderr, d.String())
		}
	}
	if set.Diagnostics.HasErrors() {
		fmt.Fprintf(env.stderr, "agenteval run: %d error(s) in the input; nothing ran\n", len(set.Diagnostics.Errors()))
		return nil, exitUsage
	}
	return set.Files, exitOK
}
