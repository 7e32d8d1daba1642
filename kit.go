package agenteval

import (
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/agent/claudecode"
	"github.com/agenteval/agenteval/agent/codex"
	"github.com/agenteval/agenteval/agent/echo"
	"github.com/agenteval/agenteval/agent/eliza"
	"github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/agent/geminicli"
	"github.com/agenteval/agenteval/agent/openai"
	"github.com/agenteval/agenteval/agent/opencode"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Kit is the one place a host program wires agenteval. It owns every
// registry (evaluation kinds, judgment strategies, checkpoint condition
// types and custom scorers, termination types, agent types, environment
// types) and hands out what reads them: the loader, the JSON Schema, agents
// by spec and evaluators, all seeing the same registrations, including
// those made after a loader was handed out. The agenteval command is built
// on a Kit; so is agentevaltest.
//
// Register plugins on its registries before (or while) using it; they are
// safe for concurrent use.
type Kit struct {
	*runner.Registries
}

// New returns a kit with every built-in registered, exactly as a host
// registers its own: runner.NewRegistries's and the agent types echo,
// exec, openai, eliza, opencode, codex, claude-code and gemini-cli
// (packages agent/echo, agent/exec, agent/openai, agent/eliza,
// agent/opencode, agent/codex, agent/claudecode, agent/geminicli).
func New() *Kit {
	r := runner.NewRegistries()
	if err := r.Agents.Register(echo.Type(), exec.Type(), openai.Type(), eliza.Type(), opencode.Type(), codex.Type(), claudecode.Type(), geminicli.Type()); err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return &Kit{Registries: r}
}

// Loader returns a loader that accepts what the kit's registries hold.
func (k *Kit) Loader(opts scenario.Options) *scenario.Loader {
	return scenario.NewLoader(k.Registries, opts)
}

// Load loads files and directories with default options, as agenteval run
// does: see scenario.Loader.LoadPaths. The error, when the files were read,
// is their scenario.Diagnostics (file:line:col: error: field.path: message),
// which hold at least one error.
func (k *Kit) Load(paths ...string) ([]*scenario.File, error) {
	set, err := k.Loader(scenario.Options{}).LoadPaths(paths...)
	if set == nil {
		return nil, err
	}
	return set.Files, err
}

// Schema returns the JSON Schema of a document kind, listing what the
// kit's registries hold.
func (k *Kit) Schema(kind scenario.Kind) ([]byte, error) {
	return scenario.GenerateSchema(kind, k.Registries)
}

// Agent builds an agent from a spec such as "echo", "exec:./bot" or
// "openai:gpt-4o-mini", with the agent type the kit holds under the part
// before the colon.
func (k *Kit) Agent(spec string, opts runner.AgentOptions) (runner.Agent, error) {
	name, arg, _ := strings.Cut(spec, ":")
	t, err := k.Agents.Get(name)
	if err != nil {
		return nil, err
	}
	return t.New(arg, opts)
}

// Evaluator turns one evaluation given as data (YAML or JSON text, or a
// map) into a runnable evaluator, with the loader's defaults and checks:
// scenario.Loader.DecodeEvaluation, then evaluate.Build.
func (k *Kit) Evaluator(data any) (evaluate.Evaluator, error) {
	e, err := k.Loader(scenario.Options{}).DecodeEvaluation(data)
	if err != nil {
		return nil, err
	}
	ev, err := evaluate.Build(k.Evaluations, e)
	if err != nil {
		return nil, fmt.Errorf("evaluation %s: %w", e.Type, err)
	}
	return ev, nil
}
