// Package testvocab gives the tests of packages the runner imports (matrix,
// checkpoint, fixture) what agenteval.New's registries tell the loader:
// they cannot import the runner, which holds the termination and
// environment types. runner's TestTestVocabularyIsTheBuiltins keeps the two
// equal.
package testvocab

import (
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// registries is scenario.Registries over the built-in evaluation kinds,
// strategies and condition types, and the format's termination and
// environment types.
type registries struct {
	evals      *registry.Registry[*evaluate.Kind]
	strategies *registry.Registry[*judge.Strategy]
	conditions *registry.Registry[*checkpoint.ConditionType]
}

// Registries returns the built-in vocabulary as a scenario.Registries.
func Registries() scenario.Registries {
	return registries{evaluate.NewRegistry(), judge.NewRegistry(), checkpoint.NewRegistry(checkpoint.NewScorers())}
}

func (r registries) Version() uint64 { return 1 }

func (r registries) Vocabulary() *scenario.Vocabulary {
	v := &scenario.Vocabulary{}
	for _, k := range r.evals.All() {
		v.Evaluations = append(v.Evaluations, scenario.EvaluationType{Name: k.Name, Doc: k.Doc, NewParams: k.NewParams, Conversation: k.Conversation})
	}
	for _, s := range r.strategies.All() {
		v.Strategies = append(v.Strategies, scenario.Term{Name: s.Name, Doc: s.Doc})
	}
	for _, c := range r.conditions.All() {
		v.Conditions = append(v.Conditions, scenario.Term{Name: c.Name, Doc: c.Doc, Needs: c.Needs, Value: c.Value})
	}
	for _, n := range []string{"max_turns_reached", "user_expresses_satisfaction", "agent_provides_solution", "conversation_stuck",
		"escalation_needed", "goal_achieved", "custom_condition"} {
		v.Terminations = append(v.Terminations, scenario.Term{Name: n})
	}
	v.Terminations[len(v.Terminations)-1].Needs = []string{"keywords|llm_judge"}
	v.Environments = []scenario.Term{{Name: "local"}, {Name: "e2b"}}
	v.Agents = []scenario.Term{{Name: "echo"}, {Name: "exec"}, {Name: "openai"}, {Name: "eliza"}, {Name: "opencode"}, {Name: "codex"}, {Name: "claude-code"}, {Name: "gemini-cli"}}
	return v
}
