package judge

import (
	"errors"

	"github.com/agenteval/agenteval/registry"
)

// NewRegistry returns a registry holding the four built-in strategies
// (all_pass, any_pass, majority_pass, weighted), registered exactly as a host registers its own.
func NewRegistry() *registry.Registry[*Strategy] {
	r := registry.New("judgment strategy", func(s *Strategy) string { return s.Name }, func(s *Strategy) error {
		if s.Decide == nil {
			return errors.New("a strategy needs Decide")
		}
		return nil
	})
	if err := r.Register(builtins()...); err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}

// Decide applies the strategy reg holds under name, after the rules every
// strategy shares: no outcomes never pass, and a failed critical outcome
// fails the decision whatever the strategy says. An unknown name is a
// *registry.Error that suggests the name likely meant.
func Decide(reg *registry.Registry[*Strategy], name string, outcomes []Outcome, opts Options) (Decision, error) {
	s, err := reg.Get(name)
	if err != nil {
		return Decision{}, err
	}
	if d, done := guard(name, outcomes); done {
		return d, nil
	}
	return s.Decide(outcomes, opts), nil
}
