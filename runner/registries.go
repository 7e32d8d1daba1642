package runner

import (
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/environment"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// Registries are every extension point of one program, each a registry of
// plugin values: evaluation kinds, judgment strategies, checkpoint
// condition types and custom scorers, termination types, agent types and
// environment types. agenteval.Kit holds one and gives the same values to
// the loader (Registries implements scenario.Registries), the schema, the
// runner and the CLI, so a plugin registered once is known everywhere.
type Registries struct {
	Evaluations  *registry.Registry[*evaluate.Kind]
	Strategies   *registry.Registry[*judge.Strategy]
	Conditions   *registry.Registry[*checkpoint.ConditionType]
	Scorers      *registry.Registry[*checkpoint.Scorer]
	Terminations *registry.Registry[*conversation.TerminationType]
	Agents       *registry.Registry[*AgentType]
	Environments *registry.Registry[*environment.Type]
}

// NewRegistries returns registries holding every built-in of the packages
// runner imports, registered exactly as a host registers its own. Its agent
// types registry is empty: the agents live in their own packages
// (agent/echo, agent/exec, agent/openai, agent/eliza), above runner, and agenteval.New
// registers them.
func NewRegistries() *Registries {
	scorers := checkpoint.NewScorers()
	return &Registries{
		Evaluations:  evaluate.NewRegistry(),
		Strategies:   judge.NewRegistry(),
		Conditions:   checkpoint.NewRegistry(scorers),
		Scorers:      scorers,
		Terminations: conversation.NewRegistry(),
		Agents:       newAgentTypes(),
		Environments: environment.NewRegistry(),
	}
}

// Version changes whenever a registration does (it sums the registries'
// counts, each of which only grows).
func (r *Registries) Version() uint64 {
	return r.Evaluations.Version() + r.Strategies.Version() + r.Conditions.Version() + r.Scorers.Version() +
		r.Terminations.Version() + r.Agents.Version() + r.Environments.Version()
}

// Vocabulary returns what the registries hold, as the loader and the
// schema see it.
func (r *Registries) Vocabulary() *scenario.Vocabulary {
	v := &scenario.Vocabulary{}
	for _, k := range r.Evaluations.All() {
		v.Evaluations = append(v.Evaluations, scenario.EvaluationType{Name: k.Name, Doc: k.Doc, NewParams: k.NewParams, Conversation: k.Conversation})
	}
	for _, s := range r.Strategies.All() {
		v.Strategies = append(v.Strategies, scenario.Term{Name: s.Name, Doc: s.Doc})
	}
	for _, c := range r.Conditions.All() {
		v.Conditions = append(v.Conditions, scenario.Term{Name: c.Name, Doc: c.Doc, Needs: c.Needs, Value: c.Value})
	}
	for _, s := range r.Scorers.All() {
		v.Scorers = append(v.Scorers, scenario.Term{Name: s.Name, Doc: s.Doc})
	}
	for _, t := range r.Terminations.All() {
		v.Terminations = append(v.Terminations, scenario.Term{Name: t.Name, Doc: t.Doc, Needs: terminationNeeds(t)})
	}
	for _, e := range r.Environments.All() {
		v.Environments = append(v.Environments, scenario.Term{Name: e.Name, Doc: e.Doc})
	}
	for _, a := range r.Agents.All() {
		v.Agents = append(v.Agents, scenario.Term{Name: a.Name, Doc: a.Doc})
	}
	return v
}

// terminationNeeds says what a condition of type t must give: keywords or
// llm_judge when the type has no default keywords and cannot decide alone.
func terminationNeeds(t *conversation.TerminationType) []string {
	if len(t.Keywords) == 0 && t.Holds == nil {
		return []string{"keywords|llm_judge"}
	}
	return nil
}

// orDefault returns r, or new registries when r is nil; a nil registry in
// r is filled with the built-ins.
func (r *Registries) orDefault() *Registries {
	if r == nil {
		return NewRegistries()
	}
	if r.Evaluations != nil && r.Strategies != nil && r.Conditions != nil && r.Scorers != nil &&
		r.Terminations != nil && r.Agents != nil && r.Environments != nil {
		return r
	}
	d := NewRegistries()
	c := *r
	if c.Evaluations == nil {
		c.Evaluations = d.Evaluations
	}
	if c.Strategies == nil {
		c.Strategies = d.Strategies
	}
	if c.Conditions == nil {
		c.Conditions, c.Scorers = d.Conditions, d.Scorers
	}
	if c.Scorers == nil {
		c.Scorers = d.Scorers
	}
	if c.Terminations == nil {
		c.Terminations = d.Terminations
	}
	if c.Agents == nil {
		c.Agents = d.Agents
	}
	if c.Environments == nil {
		c.Environments = d.Environments
	}
	return &c
}
