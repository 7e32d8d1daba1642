package checkpoint

import (
	"context"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// testRegistry is a condition registry with the scorers its custom type
// dispatches to, as the tests use them.
type testRegistry struct {
	*registry.Registry[*ConditionType]
	scorers *registry.Registry[*Scorer]
}

func newTestRegistry() testRegistry {
	s := NewScorers()
	return testRegistry{NewRegistry(s), s}
}

func (r testRegistry) Check(ctx context.Context, data any, cond scenario.Condition) (bool, string, error) {
	return check(ctx, r.Registry, data, cond)
}

func (r testRegistry) Validate(cond scenario.Condition) error { return validate(r.Registry, cond) }

func (r testRegistry) Describe(cond scenario.Condition) string { return describe(r.Registry, cond) }

// ScorerFunc is a scorer's Score, and describer one with a Describe too.
type ScorerFunc func(ctx context.Context, data any, cond scenario.Condition) (bool, string, error)

// RegisterScorer registers a ScorerFunc or a describer under name.
func (r testRegistry) RegisterScorer(name string, s any) error {
	sc := &Scorer{Name: name}
	switch f := s.(type) {
	case ScorerFunc:
		sc.Score = checkFunc(f)
	case describer:
		sc.Score, sc.Describe = checkFunc(f.ScorerFunc), f.Describe
	}
	return r.scorers.Register(sc)
}

func (r testRegistry) HasScorer(name string) bool {
	_, ok := r.scorers.Lookup(name)
	return ok
}

// Version and Vocabulary show the loader the condition types and scorers
// (and nothing else), as agenteval.Kit does with all its registries.
func (r testRegistry) Version() uint64 { return r.Registry.Version() + r.scorers.Version() }

func (r testRegistry) Vocabulary() *scenario.Vocabulary {
	v := &scenario.Vocabulary{}
	for _, c := range r.All() {
		v.Conditions = append(v.Conditions, scenario.Term{Name: c.Name, Doc: c.Doc, Needs: c.Needs, Value: c.Value})
	}
	for _, s := range r.scorers.All() {
		v.Scorers = append(v.Scorers, scenario.Term{Name: s.Name, Doc: s.Doc})
	}
	return v
}
