package cli

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// runSuite is what `run --suite FILE` and `plan --suite FILE` take from
// the suite besides the RunConfig it goes into: its variants (agent ×
// model), to price and forecast each job by its own.
type runSuite struct {
	file     string
	suite    *scenario.Suite
	variants []matrix.Variant
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
	// The run builds the agents again with their options; here they give
	// the variants, in the suite's order, for pricing and forecasting.
	variants, _, _, err := env.kit.SuiteAgents(s, opts)
	if err != nil {
		return nil, fmt.Errorf("--suite: %w", err)
	}
	return &runSuite{file: file, suite: s, variants: variants}, nil
}

// paths returns the suite's scenario paths, resolved.
func (rs *runSuite) paths() []string {
	out := make([]string, len(rs.suite.Scenarios.Paths))
	for i, p := range rs.suite.Scenarios.Paths {
		out[i] = rs.suite.Resolve(p)
	}
	return out
}

// applyTimeouts gives the suite's job timeout to scenarios that set none,
// as agenteval.Kit.Run does, for plan's forecast.
func (rs *runSuite) applyTimeouts(files []*scenario.File, cfg *runner.Config) {
	if d := sources.SuiteTimeouts(rs.suite, files); d > 0 {
		cfg.StepTimeout = d
	}
}
