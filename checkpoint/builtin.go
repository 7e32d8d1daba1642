package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// builtins returns new values of the eight built-in condition types; custom
// dispatches to the scorers registered in scorers.
func builtins(scorers *registry.Registry[*Scorer]) []*ConditionType {
	c := customScorers{scorers}
	return []*ConditionType{
		{
			Name: "non_empty",
			Doc: "Holds when the result is not empty. A list (an array, or an object's items or nodes array) " +
				"needs an element; a string needs a character; an object needs a key; numbers and booleans are never empty.",
			Check:    checkNonEmpty,
			Describe: func(scenario.Condition) string { return "non-empty result" },
		},
		{
			Name:     "empty",
			Doc:      "Holds when the result is empty: null, a list without elements (so {items: []} is empty), \"\" or {}.",
			Check:    checkEmpty,
			Describe: func(scenario.Condition) string { return "empty result" },
		},
		{
			Name: "count_gte",
			Doc: "Holds when the result's list has at least value elements. The list is the result itself when it is an " +
				"array, else its items (or nodes) array; any other result fails.",
			Needs:    []string{"value"},
			Value:    "number",
			Check:    checkCount(">=", func(c int) bool { return c >= 0 }),
			Describe: func(c scenario.Condition) string { return "count >= " + formatNumber(c.Value) },
			Validate: validateNumber,
		},
		{
			Name:     "count_eq",
			Doc:      "Holds when the result's list (as for count_gte) has exactly value elements.",
			Needs:    []string{"value"},
			Value:    "number",
			Check:    checkCount("==", func(c int) bool { return c == 0 }),
			Describe: func(c scenario.Condition) string { return "count == " + formatNumber(c.Value) },
			Validate: validateNumber,
		},
		{
			Name: "field_equals",
			Doc: "Holds when the value at path equals value (a string, number, boolean or null). Numbers compare by value " +
				"whatever their type; a number never equals a string (42 is not \"42\"); a missing field equals nothing, not even null.",
			Needs:    []string{"path", "value"},
			Value:    "scalar",
			Check:    checkFieldEquals,
			Describe: func(c scenario.Condition) string { return pathName(c.Path) + " == " + formatScalar(c.Value) },
			Validate: validateScalar,
		},
		{
			Name: "field_contains",
			Doc: "Holds when the value at path is a string containing value (case-sensitive), or a list with an element " +
				"equal to value (so labels contains \"bug\" when \"bug\" is one of the labels).",
			Needs:    []string{"path", "value"},
			Value:    "string",
			Check:    checkFieldContains,
			Describe: func(c scenario.Condition) string { return pathName(c.Path) + " contains " + formatScalar(c.Value) },
			Validate: validateString,
		},
		{
			Name: "field_gte",
			Doc: "Holds when the value at path is a number greater than or equal to value (a number). Anything else fails: " +
				"a missing field, a string such as \"5\", a list (use path.length to count it: items.length), an object, null.",
			Needs:    []string{"path", "value"},
			Value:    "number",
			Check:    checkFieldGTE,
			Describe: func(c scenario.Condition) string { return pathName(c.Path) + " >= " + formatNumber(c.Value) },
			Validate: validateNumber,
		},
		{
			Name: "custom",
			Doc: "Holds when the custom scorer registered under scorer says so. Naming a scorer that is not registered is an " +
				"error when the scenario is loaded and when it is scored.",
			Needs:    []string{"scorer"},
			Check:    c.check,
			Describe: c.describe,
			Validate: c.validate,
		},
	}
}

// pathName is how a path is shown: the path, or "result" for the empty path
// (the whole result).
func pathName(p string) string {
	if p == "" {
		return "result"
	}
	return p
}

func checkNonEmpty(_ context.Context, data any, _ scenario.Condition) (bool, string, error) {
	return !isEmpty(data), observe(data), nil
}

func checkEmpty(_ context.Context, data any, _ scenario.Condition) (bool, string, error) {
	return isEmpty(data), observe(data), nil
}

// observe says in a few words what a result holds.
func observe(data any) string {
	if l, where, ok := list(data); ok {
		if len(l) == 0 {
			return where + " has no items"
		}
		return fmt.Sprintf("%s has %s: %s", where, plural(len(l), "item"), preview(l))
	}
	switch v := data.(type) {
	case nil:
		return "result is null"
	case map[string]any:
		if len(v) == 0 {
			return "result is {}"
		}
		return fmt.Sprintf("result is an object with %s: %s", plural(len(v), "key"), preview(v))
	}
	return "result is " + preview(data)
}

// checkCount builds count_gte and count_eq: holds reports whether the
// comparison of the count with the value (-1, 0, 1) satisfies op.
func checkCount(op string, holds func(cmp int) bool) checkFunc {
	return func(_ context.Context, data any, cond scenario.Condition) (bool, string, error) {
		if err := validateNumber(cond); err != nil {
			return false, "", err
		}
		l, where, ok := list(data)
		if !ok {
			return false, fmt.Sprintf("result is %s, not a list (want an array, or an object with an items or nodes array): %s",
				kindOf(data), preview(data)), nil
		}
		cmp, _ := compareNumbers(len(l), cond.Value) // both are numbers: validated above
		passed := holds(cmp)
		var b strings.Builder
		fmt.Fprintf(&b, "count is %d", len(l))
		if !passed {
			fmt.Fprintf(&b, ", want %s %s (%s: %s)", op, formatNumber(cond.Value), where, preview(l))
		}
		if hasMorePages(data) {
			b.WriteString("; only the first page was counted (pageInfo.hasNextPage is true)")
		}
		return passed, b.String(), nil
	}
}

func checkFieldEquals(_ context.Context, data any, cond scenario.Condition) (bool, string, error) {
	if err := validateScalar(cond); err != nil {
		return false, "", err
	}
	name := pathName(cond.Path)
	got, ok := lookup(data, cond.Path)
	if !ok {
		return false, fmt.Sprintf("%s is missing, want %s (result: %s)", name, formatScalar(cond.Value), preview(data)), nil
	}
	if scalarEqual(got, cond.Value) {
		return true, name + " is " + preview(got), nil
	}
	if kg, kw := kindOf(got), kindOf(cond.Value); kg != kw {
		return false, fmt.Sprintf("%s is %s (%s), want %s (%s)", name, preview(got), kg, formatScalar(cond.Value), kw), nil
	}
	return false, fmt.Sprintf("%s is %s, want %s", name, preview(got), formatScalar(cond.Value)), nil
}

func checkFieldContains(_ context.Context, data any, cond scenario.Condition) (bool, string, error) {
	name := pathName(cond.Path)
	want, isString := cond.Value.(string)
	if !isString {
		return false, "", validateString(cond)
	}
	got, ok := lookup(data, cond.Path)
	if !ok {
		return false, fmt.Sprintf("%s is missing, want it to contain %s (result: %s)", name, formatScalar(want), preview(data)), nil
	}
	switch v := got.(type) {
	case string:
		if strings.Contains(v, want) {
			return true, name + " is " + preview(v), nil
		}
		return false, fmt.Sprintf("%s is %s, which does not contain %s (case-sensitive)", name, preview(v), formatScalar(want)), nil
	case []any:
		if slices.ContainsFunc(v, func(e any) bool { s, ok := e.(string); return ok && s == want }) {
			return true, fmt.Sprintf("%s has the element %s", name, formatScalar(want)), nil
		}
		return false, fmt.Sprintf("%s has no element %s: %s", name, formatScalar(want), preview(v)), nil
	}
	return false, fmt.Sprintf("%s is %s (%s), want a string or a list of strings", name, preview(got), kindOf(got)), nil
}

func checkFieldGTE(_ context.Context, data any, cond scenario.Condition) (bool, string, error) {
	if err := validateNumber(cond); err != nil {
		return false, "", err
	}
	name, want := pathName(cond.Path), formatNumber(cond.Value)
	got, ok := lookup(data, cond.Path)
	if !ok {
		return false, fmt.Sprintf("%s is missing, want a number >= %s (result: %s)", name, want, preview(data)), nil
	}
	cmp, isNumber := compareNumbers(got, cond.Value)
	switch {
	case !isNumber:
		msg := fmt.Sprintf("%s is %s (%s), want a number >= %s", name, preview(got), kindOf(got), want)
		if _, isList := got.([]any); isList {
			msg += "; to compare its length use the path " + strings.TrimPrefix(cond.Path+".length", ".")
		}
		return false, msg, nil
	case cmp >= 0:
		return true, name + " is " + preview(got), nil
	}
	return false, fmt.Sprintf("%s is %s, want >= %s", name, preview(got), want), nil
}

func validateNumber(c scenario.Condition) error {
	if !isNumber(c.Value) {
		return fmt.Errorf("%w: %s needs a number as value, got %s", ErrInvalidCondition, c.Type, describeValue(c.Value))
	}
	if _, ok := number(c.Value); !ok {
		return fmt.Errorf("%w: %s needs a number as value, got NaN", ErrInvalidCondition, c.Type)
	}
	return nil
}

func validateScalar(c scenario.Condition) error {
	if !isScalar(c.Value) {
		return fmt.Errorf("%w: %s needs a string, number, boolean or null as value, got %s", ErrInvalidCondition, c.Type, describeValue(c.Value))
	}
	return nil
}

func validateString(c scenario.Condition) error {
	if _, ok := c.Value.(string); !ok {
		return fmt.Errorf("%w: %s needs a string as value, got %s", ErrInvalidCondition, c.Type, describeValue(c.Value))
	}
	return nil
}

// describeValue names a condition value's type and shows it.
func describeValue(v any) string {
	if v == nil {
		return "none"
	}
	p, err := normalize(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return kindOf(p) + " " + preview(p)
}

// customScorers is the custom condition type's view of its scorers.
type customScorers struct{ r *registry.Registry[*Scorer] }

func (r customScorers) validate(c scenario.Condition) error {
	if c.Scorer == "" {
		return fmt.Errorf("%w: custom needs a scorer name", ErrInvalidCondition)
	}
	if _, ok := r.r.Lookup(c.Scorer); !ok {
		if s := textdist.Suggest(c.Scorer, r.r.Names()); s != "" {
			return fmt.Errorf("%w %q (did you mean %q?)", ErrUnknownScorer, c.Scorer, s)
		}
		return fmt.Errorf("%w %q", ErrUnknownScorer, c.Scorer)
	}
	return nil
}

func (r customScorers) check(ctx context.Context, data any, c scenario.Condition) (bool, string, error) {
	s, ok := r.r.Lookup(c.Scorer)
	if !ok {
		return false, "", fmt.Errorf("%w %q", ErrUnknownScorer, c.Scorer)
	}
	passed, detail, err := s.Score(ctx, data, c)
	if err != nil {
		return false, detail, fmt.Errorf("custom scorer %q: %w", c.Scorer, err)
	}
	return passed, detail, nil
}

func (r customScorers) describe(c scenario.Condition) string {
	if s, ok := r.r.Lookup(c.Scorer); ok && s.Describe != nil {
		return s.Describe(c)
	}
	return "custom scorer: " + c.Scorer
}
