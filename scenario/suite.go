package scenario

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// Suite is a *.suite.yaml file: which agents to compare, on which models
// and scenarios, how many times, and how. One `agenteval run --suite FILE`
// runs every agent × model × scenario × repetition into one results file.
type Suite struct {
	// Name is the suite's title, shown in reports.
	Name string `json:"name,omitempty"`
	// Description says what the comparison is for.
	Description string `json:"description,omitempty"`
	// Agents are the agents under test, in the order reports list them.
	Agents []SuiteAgent `json:"agents" jsonschema:"minItems=1"`
	// Models are the models every agent runs with; none runs each agent once, with the model its spec names.
	Models []SuiteModel `json:"models,omitempty"`
	// Scenarios selects the scenarios to run.
	Scenarios SuiteScenarios `json:"scenarios"`
	// Repetitions is how many counted runs each agent, model and scenario get (default 1).
	Repetitions int `json:"repetitions,omitempty" jsonschema:"minimum=1,default=1"`
	// Warmup runs one uncounted session per agent and model before the counted ones, so start-up costs (a cold cache, a program's first start) stay out of the numbers.
	Warmup bool `json:"warmup,omitempty"`
	// Timeouts bound steps and whole jobs.
	Timeouts SuiteTimeouts `json:"timeouts,omitempty"`
	// Fixtures says where the fixture manifest is and how fixtures are seeded.
	Fixtures *SuiteFixtures `json:"fixtures,omitempty"`
	// JudgeModel is the model of llm_judge evaluations: openai:MODEL.
	JudgeModel string `json:"judge_model,omitempty" jsonschema:"pattern=^openai:.+$"`
	// UserModel plays the simulated user of conversations: script (offline, the default) or openai:MODEL.
	UserModel string `json:"user_model,omitempty" jsonschema:"pattern=^(script|openai:.+)$"`
	// Concurrency is how many jobs run at once (default 4 × CPUs).
	Concurrency int `json:"concurrency,omitempty" jsonschema:"minimum=1"`
	// Output is the results directory, relative to the suite file (default out/ beside it).
	Output string `json:"output,omitempty"`
	// SessionExport writes each job's session trace beside the results, one file per session as ghx's session_export does (sessions/SCENARIO/AGENT-iter-N.json); ghx's eval.config.yaml sets it by default.
	SessionExport bool `json:"session_export,omitempty"`
	// MCPServers are MCP servers every coding-agent CLI agent of the suite is configured with, by name (an agent's own of the same name wins).
	MCPServers map[string]MCPServer `json:"mcp_servers,omitempty" jsonschema:"propertyNames=^[A-Za-z0-9_-]+$"`
	// ToolCategories are categories of tool calls of your own, checked in order before ghx's built-in ones (ghx, mcp, gh_cli, bash, file_ops, other); a category named like a built-in adds tools to it.
	ToolCategories []ToolCategory `json:"tool_categories,omitempty"`
	// Secrets adds to what every output masks: environment variables whose names match (beyond those agenteval knows) and patterns masked wherever they match.
	Secrets *SuiteSecrets `json:"secrets,omitempty"`
	// Dir is the directory relative paths are resolved against: the
	// suite file's ([Loader.LoadSuite] sets it).
	Dir string `json:"-"`
}

// SuiteAgent is one agent under test.
type SuiteAgent struct {
	// Name names the agent in job ids, results and reports.
	Name string `json:"name" jsonschema:"pattern=^[A-Za-z0-9][A-Za-z0-9._-]*$"`
	// Agent is the agent spec: echo, exec:COMMAND, openai[:MODEL], eliza[:DIR], opencode[:MODEL], codex[:MODEL], claude-code[:MODEL] or gemini-cli[:MODEL]. An openai, opencode, codex, claude-code or gemini-cli agent without a model takes each of the suite's models; an exec agent reads the job's model from AGENTEVAL_MODEL.
	Agent string `json:"agent" jsonschema:"minLength=1"`
	// Instructions are system instructions the agent gets with every session (a character's system prompt; AGENTEVAL_INSTRUCTIONS for an exec agent).
	Instructions string `json:"instructions,omitempty"`
	// Env are environment variables an exec agent's program gets, beside the process's own.
	Env map[string]string `json:"env,omitempty"`
	// MCPServers are MCP servers a coding-agent CLI (opencode, codex) is configured with in every session, by name, beside the suite's.
	MCPServers map[string]MCPServer `json:"mcp_servers,omitempty" jsonschema:"propertyNames=^[A-Za-z0-9_-]+$"`
}

// MCPServer is an MCP server a coding-agent CLI gets: a program it starts (stdio) or a URL (streamable HTTP).
type MCPServer struct {
	// Command is the program and its arguments of a stdio server.
	Command []string `json:"command,omitempty" jsonschema:"minItems=1"`
	// Env are environment variables of a stdio server's program.
	Env map[string]string `json:"env,omitempty"`
	// URL is a remote server's address.
	URL string `json:"url,omitempty" jsonschema:"format=uri"`
	// BearerTokenEnv names the environment variable whose value is sent to URL as a bearer token (the token is never written to a file).
	BearerTokenEnv string `json:"bearer_token_env,omitempty"`
	// Headers are further HTTP headers sent to URL.
	Headers map[string]string `json:"headers,omitempty"`
}

// SuiteModel is one model every agent runs with.
type SuiteModel struct {
	// ID is the model's identifier as the provider knows it (gpt-4o-mini, openai/gpt-5.3-codex).
	ID string `json:"id" jsonschema:"minLength=1"`
	// Label is the model's name in reports (default: the id).
	Label string `json:"label,omitempty"`
	// MaxRequests bounds the requests in flight at once to the model's endpoint, shared by every model client of the run (default: run's --max-requests, else learned from the provider's 429s).
	MaxRequests int `json:"max_requests,omitempty" jsonschema:"minimum=0"`
	// TokensPerMinute is the provider's token rate limit for the model, when known: requests are paced to stay under it.
	TokensPerMinute int `json:"tokens_per_minute,omitempty" jsonschema:"minimum=0"`
}

// SuiteScenarios selects scenarios: the files and directories of Paths,
// then those of the set, the ids, tags, categories and difficulties given
// (each given filter must hold).
type SuiteScenarios struct {
	// Paths are scenario and matrix files and directories, relative to the suite file.
	Paths []string `json:"paths" jsonschema:"minItems=1"`
	// Set is a scenario set of scenario-sets.json, beside the GitHub scenarios of Paths.
	Set string `json:"set,omitempty"`
	// IDs keeps only these scenario ids.
	IDs []string `json:"ids,omitempty"`
	// Tags keeps scenarios with at least one of these tags.
	Tags []string `json:"tags,omitempty"`
	// Category keeps GitHub scenarios of this category (or these categories).
	Category StringList `json:"category,omitempty"`
	// Difficulty keeps GitHub scenarios of this difficulty (or these difficulties).
	Difficulty StringList `json:"difficulty,omitempty"`
}

// SuiteTimeouts bound the runs of a suite.
type SuiteTimeouts struct {
	// Step bounds a step (a prompt) that sets no timeout of its own (default 5m).
	Step Duration `json:"step,omitempty"`
	// Job bounds a whole job of a scenario that sets no timeout of its own; 0 means no bound beyond the steps'.
	Job Duration `json:"job,omitempty"`
}

// SuiteFixtures is a suite's fixture policy.
type SuiteFixtures struct {
	// Repo is the fixture repository (owner/name), for seeding.
	Repo string `json:"repo,omitempty" jsonschema:"pattern=^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$"`
	// Manifest is the fixture manifest, relative to the suite file.
	Manifest string `json:"manifest,omitempty"`
	// SeedFile declares the fixtures to seed, relative to the suite file.
	SeedFile string `json:"seed_file,omitempty"`
	// SeedIfMissing seeds the fixtures (from SeedFile) when the manifest does not exist yet.
	SeedIfMissing bool `json:"seed_if_missing,omitempty"`
	// ReseedBetweenAgents resets every fixture before each agent's jobs, so one agent's changes never reach the next.
	ReseedBetweenAgents bool `json:"reseed_between_agents,omitempty"`
}

// SuiteSecrets are a suite's additions to what is masked (see redact.Rules).
type SuiteSecrets struct {
	// Names are globs over environment variable names (MYCO_*, *_SALT; any case): their values are masked.
	Names []string `json:"names,omitempty"`
	// Patterns are regular expressions (RE2) masked wherever they match.
	Patterns []string `json:"patterns,omitempty"`
}

// ToolCategory is a category of tool calls of the suite's own. A call is
// in it when its tool's name is one of Tools or starts with one of
// Prefixes, or, for a shell tool (bash, shell, terminal, Bash,
// run_terminal_cmd, computer), when its command matches one of Commands.
type ToolCategory struct {
	// Name is the category's name in results and reports.
	Name string `json:"name" jsonschema:"pattern=^[a-z][a-z0-9_]*$"`
	// Tools are exact tool names.
	Tools []string `json:"tools,omitempty"`
	// Prefixes are tool name prefixes.
	Prefixes []string `json:"prefixes,omitempty"`
	// Commands are regular expressions (RE2) matched against a shell tool's command.
	Commands []string `json:"commands,omitempty"`
}

// agentNames returns the agents' names in order.
func (s *Suite) agentNames() []string {
	out := make([]string, len(s.Agents))
	for i, a := range s.Agents {
		out[i] = a.Name
	}
	return out
}

// Resolve returns a path of the suite relative to the directory the
// program runs in: p itself when absolute, else p under Dir.
func (s *Suite) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(s.Dir, filepath.FromSlash(p))
}

// LoadSuite loads a suite (*.suite.yaml) or ghx's eval.config.yaml, whose
// modes become agents. specs gives agent specs by name (`agenteval run
// --mode NAME=AGENT`): for a ghx configuration every mode needs one; for a
// suite they replace the spec of the agent of that name. The suite's Dir
// is the file's directory. The error is the file's Diagnostics when it has
// errors, or says which modes have no agent or which names no agent has.
func (l *Loader) LoadSuite(name string, specs map[string]string) (*Suite, *File, error) {
	f, err := l.LoadFile(name)
	if f.Kind == KindUnknown && f.Doc != nil {
		// Told apart by neither name nor content: read it as a suite, whose
		// diagnostics say what is missing.
		opts := l.opts
		opts.Kind = KindSuite
		f, err = NewLoader(l.reg, opts).LoadFile(name)
	}
	return l.suiteOf(name, f, err, specs)
}

func (l *Loader) suiteOf(name string, f *File, err error, specs map[string]string) (*Suite, *File, error) {
	if f.Doc != nil && f.Kind != KindSuite && f.Kind != KindEvalConfig {
		return nil, f, fmt.Errorf("%s is a %s file, not a suite (*.suite.yaml) or ghx's eval.config.yaml", name, f.Kind)
	}
	if err != nil {
		return nil, f, err
	}
	var s *Suite
	switch {
	case f.evalConfig != nil:
		// The loader made the suite (its modes as agents without specs);
		// the specs given here complete it.
		for _, n := range slices.Sorted(maps.Keys(specs)) {
			if !slices.Contains(f.evalConfig.Modes, n) {
				return nil, f, fmt.Errorf("%s has no mode %q to give the spec %q; its modes are %s", name, n, specs[n], strings.Join(f.evalConfig.Modes, ", "))
			}
		}
		s = f.Suite
		var missing []string
		for i := range s.Agents {
			if s.Agents[i].Agent = specs[s.Agents[i].Name]; s.Agents[i].Agent != "" {
				continue
			}
			if f.evalConfig.Provider.ID == "opencode" {
				// ghx runs every mode on OpenCode: a mode given no agent
				// is OpenCode, with the mode's instructions and tools as
				// ghx defines them (the CLI adds them: internal/ghxmode).
				s.Agents[i].Agent = "opencode"
				continue
			}
			missing = append(missing, s.Agents[i].Name)
		}
		if err := checkModes(missing); err != nil {
			return nil, f, fmt.Errorf("%s: %w", name, err)
		}
	case f.Suite != nil:
		s = f.Suite
		names := s.agentNames()
		for _, n := range slices.Sorted(maps.Keys(specs)) {
			i := slices.Index(names, n)
			if i < 0 {
				msg := fmt.Sprintf("%s has no agent %q to give the spec %q; its agents are %s", name, n, specs[n], strings.Join(names, ", "))
				if sug := textdist.Suggest(n, names); sug != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", sug)
				}
				return nil, f, errors.New(msg)
			}
			s.Agents[i].Agent = specs[n]
		}
	default:
		return nil, f, fmt.Errorf("%s: no suite could be read", name)
	}
	s.Dir = filepath.Dir(name)
	if s.Output == "" {
		s.Output = "out"
	}
	return s, f, nil
}

// Select keeps the scenario and matrix files the suite selects: those
// of its set (a scenario-sets.json among the files), ids, tags, categories
// and difficulties, each given one must hold. A matrix is judged by its
// base scenario, or its own id.
func (s *Suite) Select(files []*File) ([]*File, error) {
	sel := s.Scenarios
	var setIDs []string
	if sel.Set != "" {
		found := false
		for _, f := range files {
			if f.Kind == KindScenarioSets {
				if ids, ok := f.Sets[sel.Set]; ok {
					setIDs, found = append(setIDs, ids...), true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no scenario-sets.json among the suite's paths has the set %q", sel.Set)
		}
	}
	var out []*File
	for _, f := range files {
		sc := f.Scenario
		if f.Base != nil {
			sc = f.Base.Scenario
		}
		if sc == nil || (f.Kind != KindScenario && f.Kind != KindGitHub && f.Kind != KindMatrix) {
			out = append(out, f) // not a job source: the run's sources leave it out
			continue
		}
		ids := []string{sc.ID, f.ID}
		switch {
		case sel.Set != "" && !slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(setIDs, id) }):
		case len(sel.IDs) > 0 && !slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(sel.IDs, id) }):
		case len(sel.Tags) > 0 && !slices.ContainsFunc(sc.Tags, func(t string) bool { return slices.Contains(sel.Tags, t) }):
		case len(sel.Category) > 0 && (f.gitHub == nil || !slices.Contains(sel.Category, f.gitHub.Category)):
		case len(sel.Difficulty) > 0 && (f.gitHub == nil || !slices.Contains(sel.Difficulty, f.gitHub.Difficulty)):
		default:
			out = append(out, f)
		}
	}
	return out, nil
}

// setDefaults fills what the file leaves out.
func (s *Suite) setDefaults() {
	if s.Repetitions == 0 {
		s.Repetitions = 1
	}
}

// evalConfig is ghx's eval.config.yaml (packages/eval/config), as ghx's
// own schema reads it. It is the loader's decoding step, converted to a
// Suite (File.Suite). Its modes become agents: a suite or `agenteval run --mode NAME=AGENT`
// says what each mode runs.
type evalConfig struct {
	// Modes are the execution modes to compare, in order; each becomes an agent of that name.
	Modes []string `json:"modes" jsonschema:"minItems=1"`
	// Scenarios selects a named set or explicit ids (ids win).
	Scenarios evalConfigScenarios `json:"scenarios,omitempty"`
	// Execution holds repetitions, warm-up and the per-prompt timeout.
	Execution evalConfigExecution `json:"execution,omitempty"`
	// Output holds ghx's output settings; results_dir becomes the results directory.
	Output evalConfigOutput `json:"output,omitempty"`
	// Provider is ghx's session provider: with opencode (the default), a mode given no agent runs on OpenCode as ghx defines it; with another, every mode needs an agent.
	Provider evalConfigProvider `json:"provider,omitempty"`
	// Models are the models every mode runs with.
	Models []SuiteModel `json:"models" jsonschema:"minItems=1"`
	// Fixtures says where fixtures live and how they are seeded.
	Fixtures evalConfigFixtures `json:"fixtures,omitempty"`
}

// evalConfigScenarios is ghx's scenario selection.
type evalConfigScenarios struct {
	// Set is a named set of scenario-sets.json.
	Set string `json:"set,omitempty"`
	// IDs are explicit scenario ids; they take precedence over set.
	IDs []string `json:"ids,omitempty"`
}

// evalConfigExecution is ghx's execution section.
type evalConfigExecution struct {
	// Repetitions is how many runs each scenario gets per mode and model (default 5).
	Repetitions int `json:"repetitions,omitempty" jsonschema:"minimum=1,default=5"`
	// Warmup runs an uncounted canary session first (default true).
	Warmup *bool `json:"warmup,omitempty" jsonschema:"default=true"`
	// TimeoutDefaultMS is the per-prompt timeout in milliseconds (default 120000).
	TimeoutDefaultMS int `json:"timeout_default_ms,omitempty" jsonschema:"minimum=1,default=120000"`
}

// evalConfigOutput is ghx's output section.
type evalConfigOutput struct {
	// ResultsDir is where results go (default results).
	ResultsDir string `json:"results_dir,omitempty"`
	// ReportsDir is where ghx writes reports.
	ReportsDir string `json:"reports_dir,omitempty"`
	// SessionExport makes ghx write per-session traces.
	SessionExport *bool `json:"session_export,omitempty"`
	// LogLevel is ghx's console log level.
	LogLevel string `json:"log_level,omitempty" jsonschema:"enum=debug,enum=info,enum=warn,enum=error"`
}

// evalConfigProvider is ghx's provider section.
type evalConfigProvider struct {
	// ID is the provider (opencode).
	ID string `json:"id,omitempty"`
	// Port is the provider server's port.
	Port int `json:"port,omitempty" jsonschema:"minimum=1"`
}

// evalConfigFixtures is ghx's fixtures section.
type evalConfigFixtures struct {
	// Repo is the fixture repository (owner/name).
	Repo string `json:"repo,omitempty"`
	// Manifest is the manifest path, relative to packages/eval (the directory above config/).
	Manifest string `json:"manifest,omitempty"`
	// SeedIfMissing seeds when the manifest is absent.
	SeedIfMissing bool `json:"seed_if_missing,omitempty"`
	// ReseedBetweenModes reseeds every fixture between modes.
	ReseedBetweenModes bool `json:"reseed_between_modes,omitempty"`
}

// suite returns the suite the configuration describes, with paths relative
// to the configuration file's directory: ghx reads scenarios/, the manifest
// and results relative to packages/eval, the directory above config/. Its
// agents are the modes, named and with no spec: agents gives each mode's
// spec (from a suite's agents or --mode NAME=AGENT); the names it lacks are
// returned as missing.
func (c *evalConfig) suite() *Suite {
	root := ".."
	s := &Suite{
		Name:        "ghx eval",
		Models:      slices.Clone(c.Models),
		Scenarios:   SuiteScenarios{Paths: []string{path.Join(root, "scenarios")}, Set: c.Scenarios.Set, IDs: slices.Clone(c.Scenarios.IDs)},
		Repetitions: c.Execution.Repetitions,
		Warmup:      c.Execution.Warmup == nil || *c.Execution.Warmup,
		Output:      path.Join(root, c.Output.ResultsDir),
		// ghx exports sessions unless told not to.
		SessionExport: c.Output.SessionExport == nil || *c.Output.SessionExport,
		Fixtures: &SuiteFixtures{Repo: c.Fixtures.Repo, Manifest: path.Join(root, c.Fixtures.Manifest),
			SeedIfMissing: c.Fixtures.SeedIfMissing, ReseedBetweenAgents: c.Fixtures.ReseedBetweenModes},
	}
	if len(s.Scenarios.IDs) > 0 {
		s.Scenarios.Set = "" // ghx: ids take precedence over set
	}
	s.Timeouts.Step = Duration(int64(c.Execution.TimeoutDefaultMS) * 1e6)
	seen := map[string]bool{}
	for _, m := range c.Modes {
		if seen[m] {
			continue // ghx allows a mode twice; it runs the same agent again
		}
		seen[m] = true
		s.Agents = append(s.Agents, SuiteAgent{Name: m})
	}
	return s
}

// setDefaults fills what ghx's schema defaults.
func (c *evalConfig) setDefaults() {
	if c.Execution.Repetitions == 0 {
		c.Execution.Repetitions = 5
	}
	if c.Execution.TimeoutDefaultMS == 0 {
		c.Execution.TimeoutDefaultMS = 120000
	}
	if c.Output.ResultsDir == "" {
		c.Output.ResultsDir = "results"
	}
	if c.Output.ReportsDir == "" {
		c.Output.ReportsDir = "reports"
	}
	if c.Output.LogLevel == "" {
		c.Output.LogLevel = "info"
	}
	if c.Provider.ID == "" {
		c.Provider.ID = "opencode"
	}
	if c.Provider.Port == 0 {
		c.Provider.Port = 3001
	}
	if c.Fixtures.Manifest == "" {
		c.Fixtures.Manifest = "fixtures/latest.json"
	}
}

// ghxModes are the modes ghx's schema accepts.
var ghxModes = []string{"ghx", "mcp", "baseline"}

// checkSuite applies the rules a schema cannot express: unique agent,
// model and category names, agent specs of a registered type, regular
// expressions that compile, paths confined to no absolute root.
func checkSuite(f *File, s *Suite) {
	agentTypes := f.gen.vocab.names(fieldAgent)
	first := map[string]int{}
	for i, a := range s.Agents {
		p := Path{}.Key("agents").Index(i)
		if j, dup := first[a.Name]; dup {
			f.addf(p.Key("name"), Error, "duplicate", "agent %q is defined twice (first at agents[%d]); give each agent its own name", a.Name, j)
		} else {
			first[a.Name] = i
		}
		checkAgentSpec(f, p.Key("agent"), a.Agent, agentTypes)
	}
	models := map[string]int{}
	for i, m := range s.Models {
		if j, dup := models[m.ID]; dup {
			f.addf(Path{}.Key("models").Index(i).Key("id"), Error, "duplicate", "model %q is listed twice (first at models[%d])", m.ID, j)
		} else {
			models[m.ID] = i
		}
	}
	cats := map[string]int{}
	for i, c := range s.ToolCategories {
		p := Path{}.Key("tool_categories").Index(i)
		if j, dup := cats[c.Name]; dup {
			f.addf(p.Key("name"), Error, "duplicate", "tool category %q is defined twice (first at tool_categories[%d])", c.Name, j)
		} else {
			cats[c.Name] = i
		}
		if len(c.Tools)+len(c.Prefixes)+len(c.Commands) == 0 {
			f.addf(p, Error, "tool-category", "tool category %q matches nothing; give it tools, prefixes or commands", c.Name)
		}
		for k, re := range c.Commands {
			if _, err := regexp.Compile(re); err != nil {
				f.addf(p.Key("commands").Index(k), Error, "regex", "not a regular expression (RE2): %v", err)
			}
		}
	}
	if s.Secrets != nil {
		for i, g := range s.Secrets.Names {
			if _, err := path.Match(g, ""); err != nil || strings.TrimSpace(g) == "" {
				f.addf(Path{}.Key("secrets").Key("names").Index(i), Error, "glob", "not a glob over variable names, such as MYCO_* (path.Match syntax)")
			}
		}
		for i, re := range s.Secrets.Patterns {
			c, err := regexp.Compile(re)
			switch {
			case err != nil:
				f.addf(Path{}.Key("secrets").Key("patterns").Index(i), Error, "regex", "not a regular expression (RE2): %v", err)
			case c.MatchString(""):
				f.addf(Path{}.Key("secrets").Key("patterns").Index(i), Error, "regex", "the pattern matches the empty text; make it match the secret itself")
			}
		}
	}
	for i, name := range s.Scenarios.Paths {
		if path.IsAbs(name) || strings.HasPrefix(name, "/") {
			f.addf(Path{}.Key("scenarios").Key("paths").Index(i), Warning, "absolute-path", "an absolute path ties the suite to one machine; write it relative to the suite file")
		}
	}
}

// checkAgentSpec checks that spec starts with a registered agent type.
func checkAgentSpec(f *File, p Path, spec string, types []string) {
	if spec == "" || len(types) == 0 {
		return
	}
	typ, _, _ := strings.Cut(spec, ":")
	if slices.Contains(types, typ) {
		return
	}
	d := f.addf(p, Error, "agent", "unknown agent type %q in %q; want one of %s, as TYPE or TYPE:ARGUMENT", typ, spec, strings.Join(types, ", "))
	d.Suggestion = textdist.Suggest(typ, types)
}

// checkEvalConfig applies ghx's rules the schema cannot express.
func checkEvalConfig(f *File, c *evalConfig) {
	for i, m := range c.Modes {
		if !slices.Contains(ghxModes, m) {
			d := f.addf(Path{}.Key("modes").Index(i), Error, "enum", "unknown mode %q; ghx's modes are %s", m, strings.Join(ghxModes, ", "))
			d.Suggestion = textdist.Suggest(m, ghxModes)
		}
	}
}

// checkModes reports the modes of a ghx configuration that agents does not
// define, as an error naming them and how to define them.
func checkModes(missing []string) error {
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("the configuration's modes %s have no agent; define each with --mode NAME=AGENT (such as --mode %s=exec:./agent) or in a suite's agents",
		strings.Join(missing, ", "), missing[0])
}
