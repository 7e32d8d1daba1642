package checkpoint

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"sync"

	"github.com/agenteval/agenteval/scenario"
)

// CheckFunc tests a task's data against a condition. passed is the verdict;
// detail says what was observed and, when the check fails, why (for example
// "count is 1, want >= 2"). err is for a check that could not be made (a
// malformed condition, a scorer that failed), not for a check that failed.
// data is plain JSON (see Normalize).
type CheckFunc func(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)

// Scorer is a custom condition: a checkpoint whose condition is
// {type: custom, scorer: NAME} is decided by the Scorer registered under
// NAME. Score has the contract of CheckFunc. Implementations must be safe for
// concurrent use; a panic fails only the checkpoint being scored.
type Scorer interface {
	Score(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)
}

// ScorerFunc adapts a function to the Scorer interface.
type ScorerFunc func(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)

// Score calls f.
func (f ScorerFunc) Score(ctx context.Context, data any, cond scenario.Condition) (bool, string, error) {
	return f(ctx, data, cond)
}

// Describer is implemented by a Scorer that can say in words what it
// expects; reports show it as the checkpoint's expected value. Without it a
// custom condition is described as "custom scorer: NAME".
type Describer interface {
	Describe(cond scenario.Condition) string
}

// ConditionType is one entry of a Registry: a condition type, described well
// enough to document itself.
type ConditionType struct {
	// Name is the condition's type as written in files (count_gte).
	Name string
	// Doc says in a sentence or two what the condition holds for.
	Doc string
	// Check decides the condition; required.
	Check CheckFunc
	// Describe says what the condition expects, in words (count >= 2);
	// required.
	Describe func(cond scenario.Condition) string
	// Validate reports a malformed condition (wrapping ErrInvalidCondition);
	// nil accepts every condition of this type.
	Validate func(cond scenario.Condition) error
}

// Registry holds the condition types checkpoints may use and the custom
// scorers the custom type dispatches to. Create one with NewRegistry, which
// registers the eight built-in types; a host adds its scorers (and, if it
// likes, its own condition types) before scoring. A Registry is safe for
// concurrent use.
type Registry struct {
	mu      sync.RWMutex
	types   map[string]ConditionType
	order   []string
	scorers map[string]Scorer
}

// NewRegistry returns a registry holding the built-in condition types
// non_empty, empty, count_gte, count_eq, field_equals, field_contains,
// field_gte and custom, and no scorers. Its custom type dispatches to this
// registry's scorers.
func NewRegistry() *Registry {
	r := &Registry{types: map[string]ConditionType{}, scorers: map[string]Scorer{}}
	for _, t := range builtinTypes(r) {
		r.types[t.Name] = t
		r.order = append(r.order, t.Name)
	}
	return r
}

// Register adds a condition type. It fails when the name is taken (wrapping
// ErrDuplicate) or the entry lacks a name, Check or Describe.
func (r *Registry) Register(t ConditionType) error {
	if t.Name == "" || t.Check == nil || t.Describe == nil {
		return fmt.Errorf("condition type %q: name, Check and Describe are required", t.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.types[t.Name]; dup {
		return fmt.Errorf("condition type %q: %w", t.Name, ErrDuplicate)
	}
	r.types[t.Name] = t
	r.order = append(r.order, t.Name)
	return nil
}

// RegisterScorer registers a custom scorer under name, which custom
// conditions name in their scorer field. It fails when the name is taken
// (wrapping ErrDuplicate), empty, or s is nil.
func (r *Registry) RegisterScorer(name string, s Scorer) error {
	if name == "" || s == nil {
		return fmt.Errorf("custom scorer %q: a name and a scorer are required", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.scorers[name]; dup {
		return fmt.Errorf("custom scorer %q: %w", name, ErrDuplicate)
	}
	r.scorers[name] = s
	return nil
}

// HasScorer reports whether a custom scorer is registered under name. It
// fits scenario.Options.CustomScorer, so that loading a scenario whose custom
// condition names an unregistered scorer is an error:
//
//	scenario.NewLoader(scenario.Options{CustomScorer: reg.HasScorer})
func (r *Registry) HasScorer(name string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.scorers[name]
	return ok
}

// Scorers returns the names of the registered custom scorers, sorted.
func (r *Registry) Scorers() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.scorers))
	for n := range r.scorers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Type returns the condition type registered under name.
func (r *Registry) Type(name string) (ConditionType, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.types[name]
	return t, ok
}

// Types returns the registered condition types in registration order (the
// built-ins first).
func (r *Registry) Types() []ConditionType {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ts := make([]ConditionType, len(r.order))
	for i, n := range r.order {
		ts[i] = r.types[n]
	}
	return ts
}

func (r *Registry) scorer(name string) (Scorer, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.scorers[name]
	return s, ok
}

// Validate reports whether cond can be checked: its type is registered
// (else ErrUnknownType), its fields fit the type (else ErrInvalidCondition)
// and a custom condition's scorer is registered (else ErrUnknownScorer).
func (r *Registry) Validate(cond scenario.Condition) error {
	t, ok := r.Type(cond.Type)
	if !ok {
		return r.unknownType(cond.Type)
	}
	if t.Validate == nil {
		return nil
	}
	return t.Validate(cond)
}

func (r *Registry) unknownType(name string) error {
	r.mu.RLock()
	names := slices.Clone(r.order)
	r.mu.RUnlock()
	if s := scenario.Suggest(name, names); s != "" {
		return fmt.Errorf("%w %q (did you mean %q?)", ErrUnknownType, name, s)
	}
	return fmt.Errorf("%w %q", ErrUnknownType, name)
}

// Describe says what cond expects, in words: "count >= 2",
// `state == "closed"`, "custom scorer: NAME".
func (r *Registry) Describe(cond scenario.Condition) string {
	t, ok := r.Type(cond.Type)
	if !ok {
		return fmt.Sprintf("unknown condition type %q", cond.Type)
	}
	return t.Describe(cond)
}

// Check validates cond, normalizes data (see Normalize) and decides cond
// over it. A panic in the condition or a custom scorer is returned as a
// *PanicError.
func (r *Registry) Check(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error) {
	if err := r.Validate(cond); err != nil {
		return false, "", err
	}
	t, _ := r.Type(cond.Type)
	plain, err := Normalize(data)
	if err != nil {
		return false, "", err
	}
	defer func() {
		if v := recover(); v != nil {
			passed, detail, err = false, "", &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	return t.Check(ctx, plain, cond)
}
