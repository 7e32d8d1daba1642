package cli

import (
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/ghxmode"
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

// suiteFlags are the flags of ghx's `eval run` that change what a suite
// (or ghx's eval.config.yaml) runs: its models, scenarios and warm-up.
type suiteFlags struct {
	models, scenarios stringList
	scenarioSet       string
	skipWarmup        bool
}

// define declares the flags on fs.
func (sf *suiteFlags) define(fs *flagSet) {
	fs.Var(&sf.models, "model", "with --suite: run these models instead of the suite's (repeatable; ghx's --model)")
	fs.Var(&sf.scenarios, "scenario", "with --suite: run only these scenario ids (repeatable; ghx's --scenario)")
	fs.StringVar(&sf.scenarioSet, "scenario-set", "", "with --suite: run this set of scenario-sets.json (ghx's --scenario-set; ids still win)")
	fs.BoolVar(&sf.skipWarmup, "skip-warmup", false, "with --suite: no warm-up sessions (ghx's --skip-warmup)")
}

// given reports whether any of the flags was given.
func (sf *suiteFlags) given() bool {
	return len(sf.models)+len(sf.scenarios) > 0 || sf.scenarioSet != "" || sf.skipWarmup
}

// loadRunSuite loads the suite (or ghx's eval.config.yaml) with the
// --mode NAME=AGENT specs (a bare --mode NAME runs only the agents or
// modes so named, as ghx's --mode does; without one every agent runs) and makes its settings the defaults of the flags the
// command line did not set, so a flag still wins over the file. ghx's
// modes given no agent, in a configuration whose provider is OpenCode, run
// as ghx defines them (internal/ghxmode), and ghx's environment overrides
// apply to its configuration.
func loadRunSuite(env *cliEnv, fs *flagSet, file string, modes []string, sf *suiteFlags, opts runner.AgentOptions) (*runSuite, error) {
	specs := map[string]string{}
	var only []string
	for _, m := range modes {
		name, spec, ok := strings.Cut(m, "=")
		if !ok && name != "" {
			only = append(only, name)
			continue
		}
		if name == "" || spec == "" {
			return nil, fmt.Errorf("--mode %q: want NAME=AGENT, such as --mode ghx=exec:./agent, or NAME to run only that agent", m)
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
	if f.Kind == scenario.KindEvalConfig {
		if err := ghxConfig(env, s, specs, &only); err != nil {
			return nil, fmt.Errorf("--suite %s: %w", file, err)
		}
	}
	if err := applySuiteFlags(s, sf, only); err != nil {
		return nil, fmt.Errorf("--suite %s: %w", file, err)
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

// ghxConfig applies ghx's environment overrides to the suite of an
// eval.config.yaml (PROFILER_REPETITIONS, PROFILER_WARMUP, PROFILER_MODES,
// EVAL_MODEL, EVAL_PROVIDER_ID; EVAL_PROVIDER_PORT and PROFILER_LOG_LEVEL
// concern ghx's own OpenCode server and console, which agenteval has not)
// and defines each mode given no agent as ghx does. PROFILER_MODES selects
// the modes unless --mode did.
func ghxConfig(env *cliEnv, s *scenario.Suite, specs map[string]string, only *[]string) error {
	if v := env.getenv("PROFILER_REPETITIONS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("PROFILER_REPETITIONS=%q: want a whole number of at least 1", v)
		}
		s.Repetitions = n
	}
	if v := env.getenv("PROFILER_WARMUP"); v != "" {
		s.Warmup = v == "true" // ghx's rule: anything else is false
	}
	if v := env.getenv("EVAL_MODEL"); v != "" {
		s.Models = []scenario.SuiteModel{{ID: v, Label: v}}
	}
	if v := env.getenv("PROFILER_MODES"); v != "" && *only == nil {
		for _, m := range strings.Split(v, ",") {
			*only = append(*only, strings.TrimSpace(m))
		}
	}
	for _, m := range *only {
		if !slices.Contains(ghxmode.Modes, m) {
			return fmt.Errorf("unknown mode %q; ghx's modes are %s", m, strings.Join(ghxmode.Modes, ", "))
		}
		if !slices.ContainsFunc(s.Agents, func(a scenario.SuiteAgent) bool { return a.Name == m }) {
			s.Agents = append(s.Agents, scenario.SuiteAgent{Name: m, Agent: "opencode"}) // ghx runs the modes it is told
		}
	}
	provider := env.getenv("EVAL_PROVIDER_ID")
	dir := filepath.Dir(s.Dir) // ghx's working directory: packages/eval, above config/
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for i, a := range s.Agents {
		if _, given := specs[a.Name]; given {
			continue
		}
		if provider != "" && provider != "opencode" {
			return fmt.Errorf("EVAL_PROVIDER_ID=%s: ghx's modes are defined for OpenCode only; give mode %s an agent with --mode %s=AGENT", provider, a.Name, a.Name)
		}
		def, err := ghxmode.Agent(a.Name, dir, env.getenv)
		if err != nil {
			return err
		}
		s.Agents[i] = def
	}
	return nil
}

// applySuiteFlags applies ghx's run flags to s: the models, scenario ids or
// set, no warm-up, and only the agents (modes) named.
func applySuiteFlags(s *scenario.Suite, sf *suiteFlags, only []string) error {
	if sf != nil {
		if len(sf.models) > 0 {
			s.Models = nil
			for _, m := range sf.models {
				s.Models = append(s.Models, scenario.SuiteModel{ID: m, Label: m})
			}
		}
		if sf.scenarioSet != "" {
			s.Scenarios.Set = sf.scenarioSet
		}
		if len(sf.scenarios) > 0 {
			s.Scenarios.IDs, s.Scenarios.Set = slices.Clone(sf.scenarios), "" // ghx: ids win over a set
		}
		if sf.skipWarmup {
			s.Warmup = false
		}
	}
	if only == nil {
		return nil
	}
	var agents []scenario.SuiteAgent
	for _, name := range only {
		i := slices.IndexFunc(s.Agents, func(a scenario.SuiteAgent) bool { return a.Name == name })
		if i < 0 {
			names := make([]string, len(s.Agents))
			for k, a := range s.Agents {
				names[k] = a.Name
			}
			return fmt.Errorf("--mode %s: the suite has no agent %q; its agents are %s", name, name, strings.Join(names, ", "))
		}
		if !slices.ContainsFunc(agents, func(a scenario.SuiteAgent) bool { return a.Name == name }) {
			agents = append(agents, s.Agents[i])
		}
	}
	s.Agents = agents
	return nil
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
