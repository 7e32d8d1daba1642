package evaluate

import (
	"errors"
	"fmt"
	"math"

	"github.com/agenteval/agenteval/internal/formats"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// NewRegistry returns a registry holding the 13 built-in kinds,
// registered exactly as a host registers its own.
func NewRegistry() *registry.Registry[*Kind] {
	r := registry.New("evaluation type", func(k *Kind) string { return k.Name }, checkKind)
	if err := r.Register(builtins()...); err != nil {
		panic(err) // the built-ins are fixed; a clash is a bug in this package
	}
	return r
}

// checkKind refuses a kind the loader or the runner could not use.
func checkKind(k *Kind) error {
	if k.NewParams == nil || k.New == nil {
		return errors.New("an evaluation kind needs both NewParams and New")
	}
	return formats.CheckParams(k.Name, k.NewParams)
}

// Build returns the evaluator of one evaluation, of a kind reg holds. Its
// Results carry the evaluation's type, description, weight (default 1) and
// critical flag, and Scope, Step and Turn from the Input; a panic inside
// the evaluator becomes an error results.Evaluation (the stack in its details as
// panic_stack) and an error. Params may be
// nil (the kind's zero parameters with their defaults) or the pointer the
// kind's NewParams returns, as the loader fills it
// (scenario.Loader.DecodeEvaluation decodes one). An unknown type is a
// *registry.Error.
func Build(reg *registry.Registry[*Kind], e scenario.Evaluation) (Evaluator, error) {
	k, err := reg.Get(e.Type)
	if err != nil {
		return nil, err
	}
	w := 1.0
	if e.Weight != nil {
		w = *e.Weight
	}
	if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("%s: weight %v must be a number ≥ 0", e.Type, w)
	}
	params := e.Params
	if params == nil {
		params = k.NewParams()
		if d, ok := params.(interface{ SetDefaults() }); ok {
			d.SetDefaults()
		}
	}
	ev, err := k.New(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Type, err)
	}
	if ev == nil {
		return nil, fmt.Errorf("%s: New returned no evaluator", e.Type)
	}
	return &described{
		ev:          ev,
		typ:         e.Type,
		description: e.Description,
		weight:      w,
		critical:    e.Critical,
	}, nil
}
