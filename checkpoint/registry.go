package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// checkFunc is the shape of ConditionType.Check and Scorer.Score.
type checkFunc = func(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)

// ConditionType is a condition type: a plugin value, registered in a
// [registry.Registry] ([NewRegistry]) under its Name (the value of condition.type in files) and
// described well enough to document itself and to be checked when a file
// is loaded.
type ConditionType struct {
	// Name is the condition's type as written in files (count_gte).
	Name string
	// Doc says in a sentence or two what the condition holds for.
	Doc string
	// Needs lists the condition's fields a file must give with this type
	// ("path", "value", "scorer"); the loader and the schema require them.
	Needs []string
	// Value is the JSON type the condition's value must have: "number",
	// "string" or "scalar" (string, number, boolean or null); "" leaves it
	// free. The loader and the schema check it.
	Value string
	// Check decides the condition over a task's data (plain JSON: see
	// normalize); required. passed is the verdict; detail says what was
	// observed and, when the check fails, why ("count is 1, want >= 2").
	// err is for a check that could not be made (a malformed condition, a
	// scorer that failed), not for a check that failed.
	Check func(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)
	// Describe says what the condition expects, in words (count >= 2);
	// required.
	Describe func(cond scenario.Condition) string
	// Validate reports a malformed condition (wrapping ErrInvalidCondition);
	// nil accepts every condition of this type.
	Validate func(cond scenario.Condition) error
}

// Scorer is a custom condition: a checkpoint whose condition is
// {type: custom, scorer: NAME} is decided by the Scorer registered under
// NAME (agenteval.Kit's Scorers, [NewScorers]).
type Scorer struct {
	// Name is what custom conditions give as their scorer.
	Name string
	// Doc says what the scorer decides.
	Doc string
	// Score has the contract of ConditionType.Check. It must be safe for
	// concurrent use; a panic fails only the checkpoint being scored.
	Score func(ctx context.Context, data any, cond scenario.Condition) (passed bool, detail string, err error)
	// Describe, when set, says in words what the scorer expects; reports
	// show it as the checkpoint's expected value ("custom scorer: NAME"
	// without it).
	Describe func(cond scenario.Condition) string
}

// NewScorers returns an empty registry of custom scorers.
func NewScorers() *registry.Registry[*Scorer] {
	return registry.New("custom scorer", func(s *Scorer) string { return s.Name }, func(s *Scorer) error {
		if s.Score == nil {
			return errors.New("a scorer needs Score")
		}
		return nil
	})
}

// NewRegistry returns a registry holding the eight built-in condition types
// (built in here): non_empty, empty, count_gte, count_eq, field_equals,
// field_contains, field_gte and custom, which dispatches to scorers.
func NewRegistry(scorers *registry.Registry[*Scorer]) *registry.Registry[*ConditionType] {
	r := registry.New("condition type", func(t *ConditionType) string { return t.Name }, func(t *ConditionType) error {
		if t.Check == nil || t.Describe == nil {
			return errors.New("a condition type needs Check and Describe")
		}
		return nil
	})
	if err := r.Register(builtins(scorers)...); err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}

// validate reports whether cond can be checked with the types reg holds:
// its type is registered (else ErrUnknownType), its fields fit the type
// (else ErrInvalidCondition) and a custom condition's scorer is registered
// (else ErrUnknownScorer).
func validate(reg *registry.Registry[*ConditionType], cond scenario.Condition) error {
	t, ok := reg.Lookup(cond.Type)
	if !ok {
		if s := textdist.Suggest(cond.Type, reg.Names()); s != "" {
			return fmt.Errorf("%w %q (did you mean %q?)", ErrUnknownType, cond.Type, s)
		}
		return fmt.Errorf("%w %q", ErrUnknownType, cond.Type)
	}
	if t.Validate == nil {
		return nil
	}
	return t.Validate(cond)
}

// describe says what cond expects, in words: "count >= 2",
// `state == "closed"`, "custom scorer: NAME".
func describe(reg *registry.Registry[*ConditionType], cond scenario.Condition) string {
	t, ok := reg.Lookup(cond.Type)
	if !ok {
		return fmt.Sprintf("unknown condition type %q", cond.Type)
	}
	return t.Describe(cond)
}

// check validates cond, normalizes data (see normalize) and decides cond
// over it with the types reg holds. A panic in the condition or a custom
// scorer is returned as an *Error whose Panic is set.
func check(ctx context.Context, reg *registry.Registry[*ConditionType], data any, cond scenario.Condition) (passed bool, detail string, err error) {
	if err := validate(reg, cond); err != nil {
		return false, "", err
	}
	t, _ := reg.Lookup(cond.Type)
	return decide(ctx, t, data, cond, "")
}

// decide tests data, normalized, with the condition type t, for a
// condition already validated; a panic in it comes back as an *Error
// naming task.
func decide(ctx context.Context, t *ConditionType, data any, cond scenario.Condition, task string) (passed bool, detail string, err error) {
	plain, err := normalize(data)
	if err != nil {
		return false, "", err
	}
	defer func() {
		if v := recover(); v != nil {
			passed, detail, err = false, "", newPanicError(task, v, debug.Stack())
		}
	}()
	return t.Check(ctx, plain, cond)
}
