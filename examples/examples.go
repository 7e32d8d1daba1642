package examples

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/internal/runout"
	"github.com/agenteval/agenteval/internal/view"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Files holds the example scenarios (scenarios/) and the GitHub eval
// scenario (github/).
//
//go:embed scenarios github fixtures
var Files embed.FS

// Options configure Run.
type Options struct {
	// Out is the directory for results.jsonl (created if missing).
	Out string
	// Log receives progress and the summary; nil discards them.
	Log io.Writer
}

// Run runs every bundled example with Agent and writes the results to
// Out/results.jsonl. GitHub is githubtest's in-process fake, seeded with a
// pull request under review and reset before each run of the GitHub
// scenario, so nothing leaves the machine. It returns the run's summary;
// the error reports a failure of the run itself or of an input file.
func Run(ctx context.Context, opts Options) (runner.Summary, error) {
	log := opts.Log
	if log == nil {
		log = io.Discard
	}
	gh := githubfake.NewServer(nil)
	defer gh.Close()
	mgr, manifest, err := SeedGitHub(ctx, gh)
	if err != nil {
		return runner.Summary{}, err
	}

	kit := agenteval.New()
	loader := kit.Loader(scenario.Options{})
	var files []*scenario.File
	for _, dir := range []string{"scenarios", "github"} {
		set, err := loader.LoadDirFS(Files, dir)
		if err != nil {
			return runner.Summary{}, err
		}
		files = append(files, set.Files...)
	}
	jobs, total, err := kit.Jobs(agenteval.RunConfig{Runs: 2}, files...)
	if err != nil {
		return runner.Summary{}, err
	}
	var names []string // the files that hold jobs
	for _, f := range files {
		if f.Matrix != nil || f.Scenario != nil {
			names = append(names, f.Name)
		}
	}
	// The demo's results are replaced on every run; the folder's lock still
	// keeps two demos from writing one file at once.
	plan := &results.Plan{RunID: "examples", Started: time.Now().UTC(), TotalJobs: total, ShardJobs: total, Agent: "examples.Agent", Sources: names, Seed: 1}
	w, err := results.Open(filepath.Join(opts.Out, "results.jsonl"), plan, results.Options{Overwrite: true})
	if err != nil {
		return runner.Summary{}, err
	}
	exec := github.NewExecutor(github.NewClient(github.Config{GraphQLURL: gh.GraphQLURL(), Transport: gh.Client().Transport}), github.ExecutorOptions{})
	cfg := runner.Config{
		Agent:         &Agent{GitHub: NewGitHubClient(gh.GraphQLURL(), gh.Client())},
		Registries:    kit.Registries,
		UserModel:     conversation.ScriptedUser(2),
		AllowCommands: true, // the workspace example checks a command's exit code
		Concurrency:   1,    // the GitHub example shares one fake repository between its runs
		Checkpoints:   checkpoint.Checker{Executor: exec, Conditions: kit.Conditions},
		Fixtures: &fixture.Binder{Manifest: manifest, Reset: func(ctx context.Context, s *scenario.Scenario) error {
			return fixture.ResetScenario(ctx, mgr, manifest, s)
		}},
		Seed:     1,
		Results:  w,
		Progress: (&runout.ProgressPrinter{W: log, Every: 1000}).Update,
	}
	cfg.Total = total
	sum, runErr := runner.Run(ctx, cfg, jobs)
	if err := w.Close(); err != nil && runErr == nil {
		runErr = err
	}
	// The viewer's index, as Kit.Run writes it when a run ends, so that
	// `agenteval view out` reads no record.
	if ctx.Err() == nil && runErr == nil {
		if err := view.SaveIndex(ctx, filepath.Join(opts.Out, "results.jsonl"), nil); err != nil {
			fmt.Fprintf(log, "the viewer's index was not saved (view builds it when opened): %v\n", err)
		}
	}
	fmt.Fprintf(log, "%d job(s): %d passed, %d failed, %d incomplete; results in %s\n",
		sum.Jobs, sum.Passed, sum.Completed-sum.Passed, sum.Jobs-sum.Completed, filepath.Join(opts.Out, "results.jsonl"))
	return sum, runErr
}

// SeedGitHub seeds the GitHub example's fixture (fixtures/seed.yaml: a pull
// request with one resolved and one unresolved review thread) into gh with
// package github's Manager, exactly as on a real repository, and returns the
// manager and the manifest it wrote.
func SeedGitHub(ctx context.Context, gh *githubfake.Server) (fixture.Manager, *scenario.Manifest, error) {
	gh.AddRepo("acme/demo")
	data, err := fs.ReadFile(Files, "fixtures/seed.yaml")
	if err != nil {
		return nil, nil, err
	}
	seed, err := fixture.ParseSeedFile("fixtures/seed.yaml", data)
	if err != nil {
		return nil, nil, err
	}
	mgr := github.NewManager(github.NewClient(github.Config{GraphQLURL: gh.GraphQLURL(), Transport: gh.Client().Transport}), github.ManagerConfig{VerifyDelay: time.Millisecond})
	m, rep, err := mgr.Seed(ctx, seed)
	if err == nil {
		err = rep.Err()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("seeding the GitHub example: %w", err)
	}
	return mgr, m, nil
}
