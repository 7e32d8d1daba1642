package evaluate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// Registry is a set of evaluation kinds. Build one with [NewRegistry] or
// [DefaultRegistry]; it is immutable and safe for concurrent use.
type Registry struct {
	kinds map[string]*Kind
	names []string
	types *scenario.Registry
}

// NewRegistry returns a registry of the given kinds. Names must be unique
// and non-empty, and every kind needs NewParams and New.
func NewRegistry(kinds ...*Kind) (*Registry, error) {
	r := &Registry{kinds: make(map[string]*Kind, len(kinds))}
	types := make([]*scenario.EvaluationType, 0, len(kinds))
	for _, k := range kinds {
		switch {
		case k == nil || k.Name == "":
			return nil, errors.New("evaluate: evaluation kind without a name")
		case k.NewParams == nil || k.New == nil:
			return nil, fmt.Errorf("evaluate: evaluation kind %q needs both NewParams and New", k.Name)
		case r.kinds[k.Name] != nil:
			return nil, fmt.Errorf("evaluate: evaluation kind %q registered twice", k.Name)
		}
		r.kinds[k.Name] = k
		r.names = append(r.names, k.Name)
		types = append(types, &scenario.EvaluationType{Name: k.Name, Doc: k.Doc, NewParams: k.NewParams})
	}
	slices.Sort(r.names)
	// The scenario registry checks what only it knows about, such as a
	// parameter field that would shadow a field every evaluation has.
	t, err := scenario.NewRegistry(types...)
	if err != nil {
		return nil, fmt.Errorf("evaluate: %w", err)
	}
	r.types = t
	return r, nil
}

// DefaultRegistry returns a new registry of the built-in kinds.
func DefaultRegistry() *Registry {
	r, err := NewRegistry(Builtins()...)
	if err != nil {
		panic(err) // the built-ins are fixed; a clash is a bug in this package
	}
	return r
}

// With returns a new registry holding r's kinds and the given ones, so a
// host can write DefaultRegistry().With(myKind).
func (r *Registry) With(kinds ...*Kind) (*Registry, error) {
	return NewRegistry(append(r.Kinds(), kinds...)...)
}

// Kinds returns the registered kinds sorted by name.
func (r *Registry) Kinds() []*Kind {
	out := make([]*Kind, len(r.names))
	for i, n := range r.names {
		out[i] = r.kinds[n]
	}
	return out
}

// Names returns the registered names in sorted order.
func (r *Registry) Names() []string { return slices.Clone(r.names) }

// Lookup returns the kind named name, or nil.
func (r *Registry) Lookup(name string) *Kind { return r.kinds[name] }

// Types returns the same names, docs and parameter structs as a
// scenario.Registry, for scenario.Options.Registry and
// scenario.GenerateSchema, so files are loaded and validated against exactly
// the kinds this registry can build.
func (r *Registry) Types() *scenario.Registry { return r.types }

// UnknownTypeError is returned when an evaluation names a type the registry
// does not hold.
type UnknownTypeError struct {
	// Type is the name asked for.
	Type string
	// Known are the registered names.
	Known []string
}

// Error names the type and lists the known ones.
func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("unknown evaluation type %q (known: %s)", e.Type, strings.Join(e.Known, ", "))
}

// Build returns the evaluator of one evaluation. Its Results carry the
// evaluation's type, description, weight (default 1) and critical flag, and
// Scope, Step and Turn from the Input; a panic inside the evaluator becomes
// an error Result and a *[PanicError]. Params may be nil (the kind's zero
// parameters with their defaults) or the pointer the kind's NewParams
// returns, as the scenario loader fills it.
func (r *Registry) Build(e scenario.Evaluation) (Evaluator, error) {
	k := r.kinds[e.Type]
	if k == nil {
		return nil, &UnknownTypeError{Type: e.Type, Known: r.Names()}
	}
	w := e.WeightOr(1)
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
