package main

import (
	"context"
	"flag"
	"fmt"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// runSuite is what `run --suite FILE` takes from the suite: its agents
// built per model, the selection and what the runner needs besides flags.
type runSuite struct {
	file     string
	suite    *scenario.Suite
	variants []matrix.Variant
	agents   map[matrix.Variant]runner.Agent
}

// loadRunSuite loads the suite (or ghx's eval.config.yaml) with the
// --mode NAME=AGENT specs and makes its settings the defaults of the flags
// the command line did not set, so a flag still wins over the file.
func loadRunSuite(env *cliEnv, fs *flagSet, file string, modes []string, opts runner.AgentOptions) (*runSuite, error) {
	specs := map[string]string{}
	for _, m := range modes {
		name, spec, ok := strings.Cut(m, "=")
		if !ok || name == "" || spec == "" {
			return nil, fmt.Errorf("--mode %q: want NAME=AGENT, such as --mode ghx=exec:./agent", m)
		}
		specs[name] = spec
	}
	s, f, err := env.kit.Loader(scenario.Options{}).LoadSuite(file, specs)
	if f != nil {
		for _, d := range f.Diagnostics {
			fmt.Fprintln(env.stderr, d.String())
		}
	}
	if err != nil {
		if f != nil && f.Diagnostics.HasErrors() {
			return nil, fmt.Errorf("--suite %s has %d error(s)", file, len(f.Diagnostics.Errors()))
		}
		return nil, fmt.Errorf("--suite: %w", err)
	}
	if s.Secrets != nil {
		if err := addSecretRules(env, redact.Rules{Names: s.Secrets.Names, Patterns: s.Secrets.Patterns}); err != nil {
			return nil, fmt.Errorf("--suite %s: secrets: %w", file, err)
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["agent"] {
		return nil, fmt.Errorf("--agent and --suite: the suite names its agents; give one of them (--mode NAME=AGENT sets a suite agent's spec)")
	}
	defaults := map[string]string{
		"out":         s.Resolve(s.Output),
		"runs":        strconv.Itoa(s.Repetitions),
		"judge-model": s.JudgeModel,
		"user-model":  s.UserModel,
	}
	if s.Concurrency > 0 {
		defaults["concurrency"] = strconv.Itoa(s.Concurrency)
	}
	if s.Fixtures != nil {
		defaults["manifest"] = s.Resolve(s.Fixtures.Manifest)
		defaults["seed-file"] = s.Resolve(s.Fixtures.SeedFile)
	}
	for _, name := range slices.Sorted(maps.Keys(defaults)) {
		if fs.Lookup(name) == nil {
			continue // a command without the flag (plan has no --out)
		}
		if v := defaults[name]; v != "" && !set[name] {
			if err := fs.Set(name, v); err != nil {
				return nil, fmt.Errorf("--suite: %s: %w", name, err)
			}
		}
	}
	variants, agents, ignored, err := env.kit.SuiteAgents(s, opts)
	if err != nil {
		return nil, fmt.Errorf("--suite: %w", err)
	}
	for _, name := range ignored {
		fmt.Fprintf(env.stderr, "agenteval run: warning: agent %s takes no instructions or env; they are not used\n", name)
	}
	return &runSuite{file: file, suite: s, variants: variants, agents: agents}, nil
}

// paths returns the suite's scenario paths, resolved.
func (rs *runSuite) paths() []string {
	out := make([]string, len(rs.suite.Scenarios.Paths))
	for i, p := range rs.suite.Scenarios.Paths {
		out[i] = rs.suite.Resolve(p)
	}
	return out
}

// selectFiles keeps the files the suite selects (scenario.Suite.Select).
func (rs *runSuite) selectFiles(files []*scenario.File) ([]*scenario.File, error) {
	out, err := rs.suite.Select(files)
	if err != nil {
		return nil, fmt.Errorf("--suite: %w", err)
	}
	return out, nil
}

// applyTimeouts gives the suite's job timeout to scenarios that set none.
func (rs *runSuite) applyTimeouts(files []*scenario.File, cfg *runner.Config) {
	if d := time.Duration(rs.suite.Timeouts.Step); d > 0 {
		cfg.StepTimeout = d
	}
	job := time.Duration(rs.suite.Timeouts.Job)
	if job <= 0 {
		return
	}
	for _, f := range files {
		for _, s := range []*scenario.Scenario{f.Scenario, baseScenario(f)} {
			if s != nil && s.TimeoutMS == 0 {
				s.TimeoutMS = int(job / time.Millisecond)
			}
		}
	}
}

func baseScenario(f *scenario.File) *scenario.Scenario {
	if f.Base != nil {
		return f.Base.Scenario
	}
	return nil
}

// settings are the suite's part of the plan's settings: resume refuses
// when they changed.
func (rs *runSuite) settings() map[string]string {
	var agents []string
	for _, a := range rs.suite.Agents {
		agents = append(agents, a.Name+"="+a.Agent)
	}
	var models []string
	for _, m := range rs.suite.Models {
		models = append(models, m.ID)
	}
	var cats []string
	for _, c := range rs.suite.ToolCategories {
		cats = append(cats, c.Name)
	}
	sel := rs.suite.Scenarios
	return map[string]string{
		"suite":      rs.file,
		"agents":     strings.Join(agents, " "),
		"models":     strings.Join(models, " "),
		"selection":  fmt.Sprintf("set=%s ids=%s tags=%s category=%s difficulty=%s", sel.Set, strings.Join(sel.IDs, ","), strings.Join(sel.Tags, ","), strings.Join(sel.Category, ","), strings.Join(sel.Difficulty, ",")),
		"warmup":     strconv.FormatBool(rs.suite.Warmup),
		"timeouts":   fmt.Sprintf("step=%v job=%v", time.Duration(rs.suite.Timeouts.Step), time.Duration(rs.suite.Timeouts.Job)),
		"categories": strings.Join(cats, " "),
	}
}

// warmup runs one uncounted session per agent and model, with the first
// job of the run, before the counted jobs: start-up costs (a program's
// first start, a cold cache) stay out of the numbers. Its results are
// dropped.
func (rs *runSuite) warmup(ctx context.Context, env *cliEnv, cfg runner.Config, srcs []sources.Source) {
	if !rs.suite.Warmup || len(srcs) == 0 {
		return
	}
	var first *sources.Source
	for i := range srcs {
		if srcs[i].Count > 0 {
			first = &srcs[i]
			break
		}
	}
	if first == nil {
		return
	}
	inner := first.Jobs
	one := sources.Source{Name: first.Name, Count: 1, Jobs: func(offset int64, _ matrix.Shard) iter.Seq2[matrix.Job, error] {
		return func(yield func(matrix.Job, error) bool) {
			for j, err := range inner(offset, matrix.Shard{}) {
				j.Index = offset
				yield(j, err)
				return
			}
		}
	}}
	cfg.Results = discardSink{}
	cfg.Progress, cfg.Skip, cfg.Budget = nil, nil, nil
	srcs, err := sources.Suite(rs.variants, []sources.Source{one}, 0)
	if err != nil {
		return
	}
	jobs, _, err := sources.Combine(srcs, matrix.Shard{})
	if err != nil {
		return
	}
	start := time.Now()
	sum, err := runner.Run(ctx, cfg, jobs)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval run: warm-up: %v\n", err)
		return
	}
	fmt.Fprintf(env.stderr, "warm-up: %d uncounted session(s), one per agent and model, in %v\n", sum.Jobs, time.Since(start).Round(time.Millisecond))
}

// reseed returns the fixtures of the manifest to their seeded state
// between two agents' jobs (fixtures.reseed_between_agents).
func reseedBetweenAgents(ctx context.Context, env *cliEnv, mgr fixture.Manager, cfg *runner.FixtureConfig) error {
	rep, err := mgr.Reset(ctx, cfg.Manifest)
	if err != nil {
		return err
	}
	if err := rep.Err(); err != nil {
		return err
	}
	fmt.Fprintln(env.stderr, "fixtures reseeded before the next agent")
	return nil
}

// discardSink drops results (the warm-up's).
type discardSink struct{}

func (discardSink) Write(*results.Job) error { return nil }

// agentJobs returns the jobs of one agent of a suite run.
func agentJobs(jobs func(yield func(matrix.Job, error) bool), agent string) func(yield func(matrix.Job, error) bool) {
	return func(yield func(matrix.Job, error) bool) {
		for j, err := range jobs {
			if err == nil && j.Agent != agent {
				continue
			}
			if !yield(j, err) {
				return
			}
		}
	}
}

// run runs the suite's jobs after the warm-up: in one run, or, when the
// suite reseeds fixtures between agents, one agent after the other with
// the fixtures reset in between (ghx's reseed_between_modes).
func (rs *runSuite) run(ctx context.Context, env *cliEnv, cfg runner.Config, fileSources []sources.Source,
	jobs func(yield func(matrix.Job, error) bool), owned int64, mgr fixture.Manager, fixtures *runner.FixtureConfig) (runner.Summary, error) {
	reseed := rs.suite.Fixtures != nil && rs.suite.Fixtures.ReseedBetweenAgents && len(rs.suite.Agents) > 1
	if reseed {
		switch {
		case mgr == nil || fixtures == nil || fixtures.Manifest == nil:
			return runner.Summary{}, fmt.Errorf("the suite reseeds fixtures between agents (fixtures.reseed_between_agents), which needs a fixture manifest and a GitHub token (or --graphql-url); nothing ran")
		case cfg.Budget != nil:
			return runner.Summary{}, fmt.Errorf("--budget with fixtures.reseed_between_agents: the agents run one after the other, each on its own; drop one of them; nothing ran")
		}
	}
	rs.warmup(ctx, env, cfg, fileSources)
	if !reseed {
		cfg.Total = owned
		return runner.Run(ctx, cfg, jobs)
	}
	var total runner.Summary
	start := time.Now()
	for i, a := range rs.suite.Agents {
		if i > 0 {
			if err := reseedBetweenAgents(ctx, env, mgr, fixtures); err != nil {
				return total, fmt.Errorf("before agent %s: %w", a.Name, err)
			}
		}
		sum, err := runner.Run(ctx, cfg, agentJobs(jobs, a.Name))
		total.Jobs += sum.Jobs
		total.Completed += sum.Completed
		total.Passed += sum.Passed
		total.Skipped += sum.Skipped
		total.Notes = append(total.Notes, sum.Notes...)
		if err != nil {
			total.Duration = time.Since(start)
			return total, err
		}
	}
	total.Duration = time.Since(start)
	return total, nil
}

// seedMissingManifest seeds the fixtures and writes the manifest when the
// suite asks for it (fixtures.seed_if_missing) and the manifest does not
// exist yet, as `agenteval fixture seed` would.
func (rs *runSuite) seedMissingManifest(ctx context.Context, env *cliEnv, mgr fixture.Manager, manifest, seedFile string) error {
	f := rs.suite.Fixtures
	if f == nil || !f.SeedIfMissing || manifest == "" {
		return nil
	}
	if _, err := os.Stat(manifest); err == nil {
		return nil
	}
	switch {
	case seedFile == "":
		return fmt.Errorf("the fixture manifest %s does not exist and the suite seeds it if missing (fixtures.seed_if_missing), which needs a seed file (fixtures.seed_file or --seed-file)", manifest)
	case mgr == nil:
		return fmt.Errorf("the fixture manifest %s does not exist and the suite seeds it if missing (fixtures.seed_if_missing), which needs GITHUB_TOKEN or GH_TOKEN (or --graphql-url)", manifest)
	}
	sf, err := fixture.LoadSeedFile(seedFile)
	if err != nil {
		return err
	}
	if f.Repo != "" {
		sf.Repo = f.Repo
	}
	m, rep, err := mgr.Seed(ctx, sf)
	if err == nil && rep != nil {
		err = rep.Err()
	}
	if err != nil {
		return fmt.Errorf("seeding the missing fixture manifest %s: %w", manifest, err)
	}
	if err := os.MkdirAll(filepath.Dir(manifest), 0o755); err != nil {
		return err
	}
	if err := fixture.WriteManifest(manifest, m); err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "seeded the missing fixture manifest %s (%d fixtures)\n", manifest, len(m.Fixtures))
	return nil
}
