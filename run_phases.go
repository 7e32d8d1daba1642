package agenteval

import (
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// suitePhases is a suite's part of one run: its agents built per model,
// its selection and the phases it adds around the runner (warm-up,
// reseeding between agents, seeding a missing manifest).
type suitePhases struct {
	suite    *scenario.Suite
	variants []matrix.Variant
	agents   map[matrix.Variant]runner.Agent
	log      io.Writer
}

// newSuitePhases builds cfg.Suite's agents with cfg.AgentOptions (and the run's Limits).
func (k *Kit) newSuitePhases(cfg RunConfig, log io.Writer) (*suitePhases, error) {
	variants, agents, ignored, err := k.SuiteAgents(cfg.Suite, cfg.agentOptions())
	if err != nil {
		return nil, configErr("suite: %v", err)
	}
	for _, name := range ignored {
		fmt.Fprintf(log, "agenteval run: warning: agent %s takes no instructions or env; they are not used\n", name)
	}
	return &suitePhases{suite: cfg.Suite, variants: variants, agents: agents, log: log}, nil
}

// selectFiles keeps the files the suite selects (scenario.Suite.Select).
func (rs *suitePhases) selectFiles(files []*scenario.File) ([]*scenario.File, error) {
	out, err := rs.suite.Select(files)
	if err != nil {
		return nil, configErr("suite: %v", err)
	}
	return out, nil
}

// apply gives the runner the suite's agents and tool categories, and its
// job timeout to scenarios that set none.
func (rs *suitePhases) apply(files []*scenario.File, cfg *runner.Config) {
	cfg.Agent, cfg.Variants, cfg.ToolCategories = nil, rs.agents, rs.suite.ToolCategories
	if d := sources.SuiteTimeouts(rs.suite, files); d > 0 {
		cfg.StepTimeout = d
	}
}

// settings are the suite's part of the plan's settings: resume refuses
// when they changed.
func (rs *suitePhases) settings(file string) map[string]string {
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
		"suite":      file,
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
func (rs *suitePhases) warmup(ctx context.Context, cfg runner.Config, srcs []sources.Source) {
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
		fmt.Fprintf(rs.log, "agenteval run: warm-up: %v\n", err)
		return
	}
	fmt.Fprintf(rs.log, "warm-up: %d uncounted session(s), one per agent and model, in %v\n", sum.Jobs, time.Since(start).Round(time.Millisecond))
}

// reseed returns the fixtures of the manifest to their seeded state
// between two agents' jobs (fixtures.reseed_between_agents).
func (rs *suitePhases) reseedBetweenAgents(ctx context.Context, mgr fixture.Manager, cfg *fixture.Binder) error {
	rep, err := mgr.Reset(ctx, cfg.Manifest)
	if err != nil {
		return err
	}
	if err := rep.Err(); err != nil {
		return err
	}
	fmt.Fprintln(rs.log, "fixtures reseeded before the next agent")
	return nil
}

// discardSink drops results (the warm-up's).
type discardSink struct{}

func (discardSink) Write(*results.Job) error { return nil }

// agentJobs returns the jobs of one agent of a suite run.
func agentJobs(jobs iter.Seq2[matrix.Job, error], agent string) iter.Seq2[matrix.Job, error] {
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
func (rs *suitePhases) run(ctx context.Context, cfg runner.Config, fileSources []sources.Source,
	jobs iter.Seq2[matrix.Job, error], mgr fixture.Manager, fixtures *fixture.Binder) (runner.Summary, error) {
	reseed := rs.suite.Fixtures != nil && rs.suite.Fixtures.ReseedBetweenAgents && len(rs.suite.Agents) > 1
	if reseed {
		switch {
		case mgr == nil || fixtures == nil || fixtures.Manifest == nil:
			return runner.Summary{}, configErr("the suite reseeds fixtures between agents (fixtures.reseed_between_agents), which needs a fixture manifest and a GitHub token (or --graphql-url); nothing ran")
		case cfg.Budget != nil:
			return runner.Summary{}, configErr("--budget with fixtures.reseed_between_agents: the agents run one after the other, each on its own; drop one of them; nothing ran")
		}
	}
	rs.warmup(ctx, cfg, fileSources)
	if !reseed {
		return runner.Run(ctx, cfg, jobs)
	}
	var total runner.Summary
	start := time.Now()
	for i, a := range rs.suite.Agents {
		if i > 0 {
			if err := rs.reseedBetweenAgents(ctx, mgr, fixtures); err != nil {
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
func (rs *suitePhases) seedMissingManifest(ctx context.Context, mgr fixture.Manager, manifest, seedFile string) error {
	f := rs.suite.Fixtures
	if f == nil || !f.SeedIfMissing || manifest == "" {
		return nil
	}
	if _, err := os.Stat(manifest); err == nil {
		return nil
	}
	switch {
	case seedFile == "":
		return configErr("the fixture manifest %s does not exist and the suite seeds it if missing (fixtures.seed_if_missing), which needs a seed file (fixtures.seed_file or --seed-file)", manifest)
	case mgr == nil:
		return configErr("the fixture manifest %s does not exist and the suite seeds it if missing (fixtures.seed_if_missing), which needs GITHUB_TOKEN or GH_TOKEN (or --graphql-url)", manifest)
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
	fmt.Fprintf(rs.log, "seeded the missing fixture manifest %s (%d fixtures)\n", manifest, len(m.Fixtures))
	return nil
}
