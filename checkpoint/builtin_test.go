package checkpoint

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// conditionCase is one row of a condition's edge-case table.
type conditionCase struct {
	name    string
	data    any
	value   any
	path    string
	want    bool
	message string // a substring the message must contain, when set
}

// runConditionTable checks every case of typ against a fresh registry.
func runConditionTable(t *testing.T, typ string, cases []conditionCase) {
	t.Helper()
	reg := newTestRegistry()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cond := scenario.Condition{Type: typ, Value: tc.value, Path: tc.path}
			got, msg, err := reg.Check(context.Background(), tc.data, cond)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "message: %s", msg)
			assert.NotEmpty(t, msg)
			if tc.message != "" {
				assert.Contains(t, msg, tc.message)
			}
		})
	}
}

func obj(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func arr(v ...any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func TestNonEmpty(t *testing.T) {
	t.Parallel()
	runConditionTable(t, "non_empty", []conditionCase{
		{name: "array with elements", data: arr(1, 2), want: true},           // §8.17
		{name: "empty array", data: arr(), want: false, message: "no items"}, // §8.17
		// §8.17 says {items:[],pageInfo:{}} passes; we apply the list rule,
		// so a list capability that returned no items is empty (§9.2).
		{name: "items list empty", data: obj("items", arr(), "pageInfo", obj()), want: false, message: "result.items has no items"},
		{name: "items list with one", data: obj("items", arr(obj("id", "T1")), "pageInfo", obj()), want: true, message: "result.items has 1 item"},
		{name: "nodes list empty", data: obj("nodes", arr()), want: false},
		{name: "nodes list with one", data: obj("nodes", arr("x")), want: true},
		{name: "items wins over nodes", data: obj("items", arr(), "nodes", arr(1)), want: false},
		{name: "items not an array falls back to nodes", data: obj("items", "x", "nodes", arr(1)), want: true},
		// §8.17 says "" and {} pass; an empty string or object is empty here.
		{name: "empty string", data: "", want: false},
		{name: "empty object", data: obj(), want: false, message: "result is {}"},
		{name: "string", data: "a", want: true},
		{name: "zero", data: 0, want: true},      // §8.17
		{name: "false", data: false, want: true}, // §8.17
		{name: "object", data: obj("a", nil), want: true},
		{name: "null", data: nil, want: false, message: "null"}, // §8.17
	})
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	runConditionTable(t, "empty", []conditionCase{
		{name: "empty array", data: arr(), want: true}, // §8.18
		{name: "null", data: nil, want: true},          // §8.18
		{name: "array", data: arr(1), want: false, message: "result has 1 item: [1]"},
		// §8.18 says {items:[]} fails; by the list rule it is empty (§9.2).
		{name: "items list empty", data: obj("items", arr()), want: true},
		{name: "items list", data: obj("items", arr("a", "b")), want: false, message: `result.items has 2 items: ["a","b"]`},
		{name: "nodes list empty", data: obj("nodes", arr(), "totalCount", 0), want: true},
		// §8.18 says "" fails; an empty string is empty here.
		{name: "empty string", data: "", want: true},
		{name: "empty object", data: obj(), want: true},
		{name: "string", data: "x", want: false, message: `result is "x"`},
		{name: "zero", data: 0, want: false},
		{name: "false", data: false, want: false},
		{name: "object without list", data: obj("id", 1), want: false, message: "an object with 1 key"},
	})
}

func TestCountGTE(t *testing.T) {
	t.Parallel()
	page := func(n int, more bool) map[string]any {
		items := arr()
		for i := range n {
			items = append(items, obj("oid", i))
		}
		return obj("items", items, "pageInfo", obj("hasNextPage", more, "endCursor", "c"))
	}
	runConditionTable(t, "count_gte", []conditionCase{
		{name: "three >= 2", data: arr(1, 2, 3), value: 2.0, want: true, message: "count is 3"}, // §8.16
		{name: "one >= 3", data: arr(1), value: 3.0, want: false, message: "count is 1, want >= 3 (result: [1])"},
		{name: "equal", data: arr(1, 2), value: 2, want: true},
		{name: "empty >= 0", data: arr(), value: 0, want: true},
		{name: "empty >= 1", data: arr(), value: 1, want: false},
		{name: "negative value", data: arr(), value: -1.0, want: true},
		{name: "fractional value above", data: arr(1, 2), value: 1.5, want: true},
		{name: "fractional value below", data: arr(1), value: 1.5, want: false},
		// §8.19 says count_gte 0 on {items:[1,2]} fails; we count items (§9.2).
		{name: "items list", data: obj("items", arr(1, 2)), value: 0, want: true},
		{name: "items list short", data: page(1, false), value: 2, want: false, message: `count is 1, want >= 2 (result.items: [{"oid":0}])`},
		{name: "more pages noted", data: page(1, true), value: 2, want: false, message: "only the first page was counted"},
		{name: "nodes list", data: obj("nodes", arr(1, 2)), value: int64(2), want: true},
		{name: "json.Number value", data: arr(1, 2), value: json.Number("2"), want: true},
		{name: "uint value", data: arr(1), value: uint8(2), want: false},
		{name: "object without list", data: obj("id", 1), value: 0, want: false, message: "result is an object, not a list"},
		{name: "string", data: "ab", value: 0, want: false, message: "result is a string, not a list"},
		{name: "null", data: nil, value: 0, want: false, message: "result is null, not a list"},
		{name: "infinite value", data: arr(1), value: math.Inf(1), want: false},
	})
}

func TestCountEq(t *testing.T) {
	t.Parallel()
	runConditionTable(t, "count_eq", []conditionCase{
		{name: "empty == 0", data: arr(), value: 0.0, want: true},           // §8.19
		{name: "string is not a list", data: "ab", value: 2.0, want: false}, // §8.19
		{name: "two == 2", data: arr("a", "b"), value: 2, want: true, message: "count is 2"},
		{name: "two == 3", data: arr("a", "b"), value: 3, want: false, message: `count is 2, want == 3 (result: ["a","b"])`},
		{name: "fraction never equal", data: arr("a"), value: 1.5, want: false},
		{name: "float equal to int", data: arr("a"), value: float32(1), want: true},
		{name: "items list", data: obj("items", arr(1, 2), "pageInfo", obj("hasNextPage", false)), value: 2, want: true},
		{name: "items list empty", data: obj("items", arr()), value: 0, want: true},
		{name: "items not a list", data: obj("items", obj()), value: 0, want: false},
	})
}

func TestFieldEquals(t *testing.T) {
	t.Parallel()
	issue := obj("number", 42.0, "state", "CLOSED", "title", "Fix", "merged", true, "closedAt", nil,
		"items", arr(obj("state", "OPEN"), obj("state", "CLOSED")), "labels", arr("bug"))
	runConditionTable(t, "field_equals", []conditionCase{
		// §8.20
		{name: "number vs string", data: obj("number", 42.0), path: "number", value: "42", want: false, message: `number is 42 (a number), want "42" (a string)`},
		{name: "number vs number", data: obj("number", 42.0), path: "number", value: 42.0, want: true},
		{name: "missing vs null", data: obj(), path: "x", value: nil, want: false, message: "x is missing"},
		{name: "null vs null", data: obj("x", nil), path: "x", value: nil, want: true},
		{name: "array index", data: obj("items", arr(obj("state", "OPEN"))), path: "items.0.state", value: "OPEN", want: true},
		{name: "array length", data: obj("items", arr(1, 2)), path: "items.length", value: 2.0, want: true},
		{name: "no escape for dots", data: obj("a.b", 1.0), path: "a.b", value: 1.0, want: false},
		// numbers by value, whatever their Go type
		{name: "int vs float", data: obj("n", 42), path: "n", value: 42.0, want: true},
		{name: "int64 vs json.Number", data: obj("n", int64(42)), path: "n", value: json.Number("42"), want: true},
		{name: "json.Number vs int", data: obj("n", json.Number("4.2e1")), path: "n", value: 42, want: true},
		{name: "uint vs int", data: obj("n", uint(7)), path: "n", value: 7, want: true},
		{name: "float32 fraction", data: obj("n", float32(0.5)), path: "n", value: 0.5, want: true},
		{name: "large ints stay exact", data: obj("n", int64(1<<53+1)), path: "n", value: float64(1 << 53), want: false},
		{name: "NaN equals nothing", data: obj("n", math.NaN()), path: "n", value: 0, want: false},
		{name: "numbers differ", data: issue, path: "number", value: 43, want: false, message: "number is 42, want 43"},
		// strings exactly, case-sensitive
		{name: "state", data: issue, path: "state", value: "CLOSED", want: true, message: `state is "CLOSED"`},
		{name: "state case", data: issue, path: "state", value: "closed", want: false, message: `state is "CLOSED", want "closed"`},
		{name: "bool", data: issue, path: "merged", value: true, want: true},
		{name: "bool vs string", data: issue, path: "merged", value: "true", want: false},
		{name: "present null vs string", data: issue, path: "closedAt", value: "x", want: false, message: "closedAt is null (null), want \"x\" (a string)"},
		{name: "second element", data: issue, path: "items.1.state", value: "CLOSED", want: true},
		{name: "index out of range", data: issue, path: "items.2.state", value: "CLOSED", want: false, message: "items.2.state is missing"},
		{name: "negative index", data: issue, path: "items.-1.state", value: "CLOSED", want: false},
		{name: "signed index", data: issue, path: "items.+1.state", value: "CLOSED", want: false},
		{name: "zero-padded index", data: issue, path: "items.01.state", value: "CLOSED", want: false},
		{name: "string has no length", data: issue, path: "title.length", value: 3, want: false},
		{name: "segment on number", data: issue, path: "number.x", value: 1, want: false},
		{name: "object vs scalar", data: issue, path: "items.0", value: "OPEN", want: false, message: "(an object)"},
		{name: "list length", data: issue, path: "labels.length", value: 1, want: true},
		{name: "object key length", data: obj("o", obj("length", 3)), path: "o.length", value: 3, want: true},
		{name: "empty path is the result", data: "done", path: "", value: "done", want: true},
		{name: "empty path on object", data: issue, path: "", value: "done", want: false, message: "result is {"},
		{name: "top-level array", data: arr(obj("id", "a")), path: "0.id", value: "a", want: true},
	})
}

func TestFieldContains(t *testing.T) {
	t.Parallel()
	runConditionTable(t, "field_contains", []conditionCase{
		// §8.21
		{name: "case-sensitive", data: obj("body", "fix it"), path: "body", value: "Fix", want: false, message: `body is "fix it", which does not contain "Fix" (case-sensitive)`},
		// §8.21 says ["bug"] contains "bug" fails; lists match by element here.
		{name: "list element", data: obj("labels", arr("bug")), path: "labels", value: "bug", want: true, message: `labels has the element "bug"`},
		{name: "number", data: obj("n", 42.0), path: "n", value: "4", want: false, message: "n is 42 (a number), want a string or a list of strings"},
		{name: "empty in empty", data: obj("body", ""), path: "body", value: "", want: true},
		{name: "substring", data: obj("body", "LGTM, fix the typo"), path: "body", value: "typo", want: true},
		{name: "list element is not substring", data: obj("labels", arr("bugfix")), path: "labels", value: "bug", want: false, message: `labels has no element "bug": ["bugfix"]`},
		{name: "list element case", data: obj("labels", arr("Bug")), path: "labels", value: "bug", want: false},
		{name: "list ignores non-strings", data: obj("labels", arr(1, nil, obj("name", "bug"))), path: "labels", value: "bug", want: false},
		{name: "empty list", data: obj("labels", arr()), path: "labels", value: "", want: false},
		{name: "missing", data: obj(), path: "body", value: "x", want: false, message: "body is missing"},
		{name: "null", data: obj("body", nil), path: "body", value: "x", want: false, message: "(null)"},
		{name: "nested", data: obj("items", arr(obj("body", "please rename"))), path: "items.0.body", value: "rename", want: true},
		{name: "whole result", data: "Merged", path: "", value: "erg", want: true},
		{name: "unicode", data: obj("t", "naïve café"), path: "t", value: "é", want: true},
	})
}

// TestFieldGTE follows ghx's scorer: the value at path must be a number
// (typeof "number") at least value; anything else fails.
func TestFieldGTE(t *testing.T) {
	t.Parallel()
	comments := obj("items", arr(obj("body", "done")), "pageInfo", obj("hasNextPage", false))
	runConditionTable(t, "field_gte", []conditionCase{
		{name: "length equal", data: comments, path: "items.length", value: 1.0, want: true, message: "items.length is 1"},
		{name: "length above", data: obj("labels", arr("a", "b", "c")), path: "labels.length", value: 2.0, want: true},
		{name: "length below", data: obj("items", arr()), path: "items.length", value: 1.0, want: false, message: "items.length is 0, want >= 1"},
		{name: "number equal", data: obj("n", 3.0), path: "n", value: 3, want: true},
		{name: "number below", data: obj("n", 2.5), path: "n", value: 3, want: false, message: "n is 2.5, want >= 3"},
		{name: "negative", data: obj("n", -1), path: "n", value: -2, want: true},
		{name: "fraction", data: obj("n", 0.75), path: "n", value: 0.5, want: true},
		{name: "int vs json.Number", data: obj("n", int64(10)), path: "n", value: json.Number("9.5"), want: true},
		{name: "large ints stay exact", data: obj("n", int64(1<<53)), path: "n", value: int64(1<<53 + 1), want: false},
		{name: "numeric string is not a number", data: obj("n", "5"), path: "n", value: 1, want: false, message: `n is "5" (a string), want a number >= 1`},
		{name: "boolean", data: obj("b", true), path: "b", value: 0, want: false, message: "(a boolean)"},
		{name: "null", data: obj("n", nil), path: "n", value: 0, want: false, message: "n is null (null)"},
		{name: "missing", data: obj(), path: "n", value: 0, want: false, message: "n is missing, want a number >= 0"},
		{name: "list is not its length", data: obj("items", arr(1, 2)), path: "items", value: 1, want: false,
			message: "items is [1,2] (a list), want a number >= 1; to compare its length use the path items.length"},
		{name: "object", data: comments, path: "pageInfo", value: 0, want: false, message: "(an object)"},
		{name: "index out of range", data: comments, path: "items.3.n", value: 0, want: false, message: "is missing"},
		{name: "string has no length", data: obj("t", "abc"), path: "t.length", value: 1, want: false},
		{name: "whole result", data: 7, path: "", value: 7, want: true, message: "result is 7"},
		{name: "whole list result", data: arr(1), path: "", value: 1, want: false, message: "use the path length"},
		{name: "NaN is not a number", data: obj("n", math.NaN()), path: "n", value: 0, want: false},
	})
}

func TestCustom(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	require.NoError(t, reg.RegisterScorer("two-approvals", ScorerFunc(func(_ context.Context, data any, _ scenario.Condition) (bool, string, error) {
		l, _, _ := list(data)
		n := 0
		for _, e := range l {
			if m, ok := e.(map[string]any); ok && m["state"] == "APPROVED" {
				n++
			}
		}
		return n >= 2, "approvals: " + formatNumber(n), nil
	})))
	cond := scenario.Condition{Type: "custom", Scorer: "two-approvals"}
	ctx := context.Background()

	// §8.22 says custom is always false; we call the registered scorer.
	ok, msg, err := reg.Check(ctx, obj("items", arr(obj("state", "APPROVED"), obj("state", "APPROVED"))), cond)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "approvals: 2", msg)

	ok, msg, err = reg.Check(ctx, obj("items", arr(obj("state", "APPROVED"))), cond)
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, "approvals: 1", msg)

	// The description matches §8.22.
	assert.Equal(t, "custom scorer: two-approvals", reg.Describe(cond))

	// Unregistered: an error, with a suggestion.
	_, _, err = reg.Check(ctx, nil, scenario.Condition{Type: "custom", Scorer: "two-aprovals"})
	require.ErrorIs(t, err, ErrUnknownScorer)
	assert.Contains(t, err.Error(), `did you mean "two-approvals"`)
	_, _, err = reg.Check(ctx, nil, scenario.Condition{Type: "custom"})
	require.ErrorIs(t, err, ErrInvalidCondition)
	assert.Equal(t, "custom scorer: my-scorer", reg.Describe(scenario.Condition{Type: "custom", Scorer: "my-scorer"}))
}

func TestCustomScorerErrorsAndPanics(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	boom := errTest("rate limited")
	require.NoError(t, reg.RegisterScorer("fails", ScorerFunc(func(context.Context, any, scenario.Condition) (bool, string, error) {
		return true, "", boom
	})))
	require.NoError(t, reg.RegisterScorer("panics", ScorerFunc(func(context.Context, any, scenario.Condition) (bool, string, error) {
		panic("nil map")
	})))
	ctx := context.Background()

	ok, _, err := reg.Check(ctx, nil, scenario.Condition{Type: "custom", Scorer: "fails"})
	require.ErrorIs(t, err, boom)
	assert.False(t, ok, "an error is never a pass")
	assert.Contains(t, err.Error(), `custom scorer "fails"`)

	ok, _, err = reg.Check(ctx, nil, scenario.Condition{Type: "custom", Scorer: "panics"})
	var pe *Error
	require.ErrorAs(t, err, &pe)
	assert.False(t, ok)
	assert.Equal(t, "nil map", pe.Panic)
	assert.NotEmpty(t, pe.Stack)
}

type errTest string

func (e errTest) Error() string { return string(e) }

// describer is a Scorer that says what it expects.
type describer struct{ ScorerFunc }

func (describer) Describe(c scenario.Condition) string { return "at least two approvals" }

func TestDescribe(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	require.NoError(t, reg.RegisterScorer("approvals", describer{func(context.Context, any, scenario.Condition) (bool, string, error) {
		return true, "", nil
	}}))
	cases := []struct {
		cond scenario.Condition
		want string
	}{
		{scenario.Condition{Type: "non_empty"}, "non-empty result"},
		{scenario.Condition{Type: "empty"}, "empty result"},
		{scenario.Condition{Type: "count_gte", Value: 2.0}, "count >= 2"},
		{scenario.Condition{Type: "count_gte", Value: 1.5}, "count >= 1.5"},
		{scenario.Condition{Type: "count_gte", Value: -1}, "count >= -1"},
		{scenario.Condition{Type: "count_eq", Value: json.Number("3")}, "count == 3"},
		{scenario.Condition{Type: "field_equals", Path: "number", Value: "42"}, `number == "42"`}, // §8.20
		{scenario.Condition{Type: "field_equals", Path: "number", Value: 42.0}, `number == 42`},   // §8.20
		{scenario.Condition{Type: "field_equals", Path: "state", Value: "closed"}, `state == "closed"`},
		{scenario.Condition{Type: "field_equals", Path: "x", Value: nil}, `x == null`},
		{scenario.Condition{Type: "field_equals", Path: "merged", Value: true}, `merged == true`},
		{scenario.Condition{Type: "field_equals", Value: "x"}, `result == "x"`},
		// The reference does not escape the value; we print it as JSON.
		{scenario.Condition{Type: "field_contains", Path: "body", Value: `say "hi"`}, `body contains "say \"hi\""`},
		{scenario.Condition{Type: "field_gte", Path: "items.length", Value: 1.0}, "items.length >= 1"}, // as ghx describes it
		{scenario.Condition{Type: "field_gte", Path: "score", Value: 0.5}, "score >= 0.5"},
		{scenario.Condition{Type: "custom", Scorer: "my-scorer"}, "custom scorer: my-scorer"},
		{scenario.Condition{Type: "custom", Scorer: "approvals"}, "at least two approvals"},
		{scenario.Condition{Type: "regex"}, `unknown condition type "regex"`},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, reg.Describe(tc.cond))
		})
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	cases := []struct {
		name string
		cond scenario.Condition
		want error
	}{
		{"non_empty ignores value", scenario.Condition{Type: "non_empty", Value: 3.0}, nil},          // §1.1: extra keys accepted
		{"count_gte negative", scenario.Condition{Type: "count_gte", Value: -1.0}, nil},              // §8.3
		{"count_gte fraction", scenario.Condition{Type: "count_gte", Value: 1.5}, nil},               // §8.3
		{"count_gte string", scenario.Condition{Type: "count_gte", Value: "2"}, ErrInvalidCondition}, // §8.3
		{"count_eq missing", scenario.Condition{Type: "count_eq"}, ErrInvalidCondition},
		{"count_eq NaN", scenario.Condition{Type: "count_eq", Value: math.NaN()}, ErrInvalidCondition},
		{"field_equals object", scenario.Condition{Type: "field_equals", Path: "a", Value: obj("nested", true)}, ErrInvalidCondition}, // §8.4
		{"field_equals list", scenario.Condition{Type: "field_equals", Path: "a", Value: arr(1)}, ErrInvalidCondition},
		{"field_equals null", scenario.Condition{Type: "field_equals", Path: "a", Value: nil}, nil},                       // §8.4
		{"field_contains number", scenario.Condition{Type: "field_contains", Path: "a", Value: 5.0}, ErrInvalidCondition}, // §8.4
		{"field_contains string", scenario.Condition{Type: "field_contains", Path: "a", Value: "x"}, nil},
		{"field_gte number", scenario.Condition{Type: "field_gte", Path: "a", Value: 1.0}, nil},
		{"field_gte string", scenario.Condition{Type: "field_gte", Path: "a", Value: "1"}, ErrInvalidCondition},
		{"field_gte missing value", scenario.Condition{Type: "field_gte", Path: "a"}, ErrInvalidCondition},
		{"regex", scenario.Condition{Type: "regex"}, ErrUnknownType}, // §8.4
		{"custom unregistered", scenario.Condition{Type: "custom", Scorer: "nope"}, ErrUnknownScorer},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := reg.Validate(tc.cond)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tc.want)
			_, _, checkErr := reg.Check(context.Background(), arr(), tc.cond)
			require.ErrorIs(t, checkErr, tc.want, "Check validates too")
		})
	}
	err := reg.Validate(scenario.Condition{Type: "count_ge"})
	assert.Contains(t, err.Error(), `did you mean "count_gte"`)
}

// TestEntriesValidateThemselves calls the entries' Check directly, as a host
// holding a ConditionType may: a malformed condition is an error, never a pass.
func TestEntriesValidateThemselves(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	for _, cond := range []scenario.Condition{
		{Type: "count_gte", Value: "2"},
		{Type: "count_eq"},
		{Type: "field_equals", Path: "a", Value: arr(1)},
		{Type: "field_contains", Path: "a", Value: 5},
		{Type: "field_gte", Path: "a", Value: "5"},
		{Type: "custom", Scorer: "missing"},
	} {
		ct, ok := reg.Lookup(cond.Type)
		require.True(t, ok)
		passed, _, err := ct.Check(context.Background(), obj("a", arr(1)), cond)
		require.Error(t, err, cond.Type)
		assert.False(t, passed, cond.Type)
	}
}
