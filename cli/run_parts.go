package cli

import (
	"fmt"
	"os"
	"path/filepath"
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
// and, with --record DIR, every model answer recorded there (replayed
// only, with --replay).
func agentOptions(env *cliEnv, record string, replay bool) (runner.AgentOptions, error) {
	opts := runner.AgentOptions{Getenv: env.getenv, WrapModel: func(m llm.Model, _ string) llm.Model { return m }}
	if record == "" {
		return opts, nil
	}
	cache, err := llm.NewDirCache(record, env.redactor)
	if err != nil {
		return opts, err
	}
	opts.WrapModel = func(m llm.Model, name string) llm.Model {
		return &llm.Recorded{Model: m, Name: name, Cache: cache, Replay: replay}
	}
	return opts, nil
}

// runModels sets the simulated user's model and the judge from their
// flags, wrapped as the agents' models are (--record).
func runModels(env *cliEnv, cfg *agenteval.RunConfig, userModel, judgeModel, judgeCache, out string) error {
	wrap := cfg.AgentOptions.WrapModel
	var err error
	if cfg.UserModel, err = buildModel(userModel, env); err != nil {
		return fmt.Errorf("--user-model: %w", err)
	}
	if !strings.HasPrefix(userModel, "script") {
		cfg.UserModel = wrap(cfg.UserModel, userModel)
	}
	if judgeModel == "" {
		return nil
	}
	m, err := buildModel(judgeModel, env)
	if err != nil {
		return fmt.Errorf("--judge-model: %w", err)
	}
	m = wrap(m, judgeModel)
	if judgeCache == "" {
		judgeCache = filepath.Join(out, "judge-cache")
	}
	cache, err := llm.NewDirCache(judgeCache, env.redactor)
	if err != nil {
		return fmt.Errorf("--judge-cache: %w", err)
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
func githubParts(env *cliEnv, graphqlURL string) (runner.CheckpointScorer, fixture.Manager) {
	token := firstNonEmpty(env.getenv("GITHUB_TOKEN"), env.getenv("GH_TOKEN"))
	if token == "" && graphqlURL == "" {
		return nil, nil
	}
	gh := github.NewClient(github.Config{Token: token, GraphQLURL: graphqlURL, Timeout: 60 * time.Second})
	exec := github.NewExecutor(gh, github.ExecutorOptions{})
	return runner.Checkpoints(checkpoint.Checker{Executor: exec, Conditions: env.kit.Conditions}), github.NewManager(gh, github.ManagerConfig{})
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
