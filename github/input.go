package github

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// kind is the type of a task input.
type kind int

const (
	kindString      kind = iota // non-empty string
	kindInt                     // integer >= 1; numeric strings and whole floats accepted
	kindBool                    // boolean; "true"/"false" accepted
	kindCursor                  // string or null (a pagination cursor)
	kindStringOrInt             // non-empty string or integer >= 1
)

// String names the kind as Task listings show it.
func (k kind) String() string {
	switch k {
	case kindInt:
		return "integer"
	case kindBool:
		return "boolean"
	case kindCursor:
		return "string|null"
	case kindStringOrInt:
		return "string|integer"
	}
	return "string"
}

// param declares one input of a task. The canonical name is the card's
// (camelCase); its snake_case spelling and the listed aliases are accepted
// too, because scenario files in the wild use both.
type param struct {
	name     string
	kind     kind
	required bool
	aliases  []string
	enum     []string
	desc     string
}

// Common parameters, shared by most tasks.
func pOwner() param {
	return param{name: "owner", kind: kindString, required: true, desc: "repository owner (user or organization login)"}
}

func pName() param {
	return param{name: "name", kind: kindString, required: true, aliases: []string{"repo", "repository", "repo_name", "repoName"},
		desc: `repository name; "owner/name" is split when owner is absent`}
}

func pNumber(name, what string) param {
	return param{name: name, kind: kindInt, required: true, aliases: []string{"number"}, desc: what + " number"}
}

func pFirst() param {
	return param{name: "first", kind: kindInt, desc: "maximum number of items; all items (up to the page cap) when absent"}
}

func pAfter() param {
	return param{name: "after", kind: kindCursor, desc: "cursor to continue after (pageInfo.endCursor of a previous call)"}
}

// args is a task's validated input, keyed by canonical name.
type args map[string]any

func (a args) str(name string) string { s, _ := a[name].(string); return s }
func (a args) int(name string) int    { n, _ := a[name].(int); return n }

func (a args) optInt(name string) (int, bool) {
	n, ok := a[name].(int)
	return n, ok
}

func (a args) optBool(name string, def bool) bool {
	if b, ok := a[name].(bool); ok {
		return b
	}
	return def
}

// cursor returns the after cursor or nil.
func (a args) cursor() *string {
	if s, ok := a["after"].(string); ok && s != "" {
		return &s
	}
	return nil
}

// snakeCase turns prNumber into pr_number.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parseInput validates input against params and returns it keyed by
// canonical name with values of the declared kinds.
func parseInput(task string, params []param, input map[string]any) (args, error) {
	spelling := map[string]string{} // accepted key -> canonical name
	for _, p := range params {
		spelling[p.name] = p.name
		spelling[snakeCase(p.name)] = p.name
		for _, a := range p.aliases {
			spelling[a] = p.name
			spelling[snakeCase(a)] = p.name
		}
	}
	out := args{}
	given := map[string]string{} // canonical -> key used
	keys := make([]string, 0, len(input))
	for k := range input {
		keys = append(keys, k)
	}
	slices.Sort(keys) // deterministic errors
	for _, k := range keys {
		canon, ok := spelling[k]
		if !ok {
			return nil, &Error{Kind: ErrInvalidInput, Task: task, Field: k, Message: "is not an input of this task (accepted: " + acceptedNames(params) + ")"}
		}
		if prev, dup := given[canon]; dup {
			return nil, &Error{Kind: ErrInvalidInput, Task: task, Field: canon, Message: fmt.Sprintf("is given twice (as %q and %q)", prev, k)}
		}
		given[canon] = k
		out[canon] = input[k]
	}
	// A single "owner/name" in the name field stands for both.
	if _, hasOwner := out["owner"]; !hasOwner {
		if s, ok := out["name"].(string); ok {
			if owner, name, found := strings.Cut(s, "/"); found && hasParam(params, "owner") {
				out["owner"], out["name"] = owner, name
			}
		}
	}
	for _, p := range params {
		v, present := out[p.name]
		if !present {
			if p.required {
				return nil, &Error{Kind: ErrInvalidInput, Task: task, Field: p.name, Message: "is required"}
			}
			continue
		}
		cv, err := coerce(p, v)
		if err != nil {
			return nil, &Error{Kind: ErrInvalidInput, Task: task, Field: p.name, Message: err.Error()}
		}
		if cv == nil {
			delete(out, p.name)
			continue
		}
		out[p.name] = cv
	}
	return out, nil
}

func hasParam(params []param, name string) bool {
	return slices.ContainsFunc(params, func(p param) bool { return p.name == name })
}

func acceptedNames(params []param) string {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.name
	}
	return strings.Join(names, ", ")
}

// coerce converts v to p's kind. It returns nil (no error) for a null
// optional cursor.
func coerce(p param, v any) (any, error) {
	switch p.kind {
	case kindString:
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("must be a string, got %s", describe(v))
		}
		if s == "" {
			return nil, fmt.Errorf("must not be empty")
		}
		if len(p.enum) > 0 {
			for _, e := range p.enum {
				if strings.EqualFold(e, s) {
					return e, nil
				}
			}
			return nil, fmt.Errorf("must be one of %s, got %q", strings.Join(p.enum, ", "), s)
		}
		return s, nil
	case kindInt:
		n, err := toInt(v)
		if err != nil {
			return nil, err
		}
		if n < 1 {
			return nil, fmt.Errorf("must be at least 1, got %d", n)
		}
		return n, nil
	case kindBool:
		switch b := v.(type) {
		case bool:
			return b, nil
		case string:
			if pb, err := strconv.ParseBool(strings.TrimSpace(b)); err == nil {
				return pb, nil
			}
		}
		return nil, fmt.Errorf("must be a boolean, got %s", describe(v))
	case kindCursor:
		if v == nil {
			return nil, nil
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("must be a string or null, got %s", describe(v))
		}
		return s, nil
	case kindStringOrInt:
		if s, ok := v.(string); ok {
			if s == "" {
				return nil, fmt.Errorf("must not be empty")
			}
			if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && n >= 1 {
				return n, nil
			}
			return s, nil
		}
		n, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("must be a string or an integer, got %s", describe(v))
		}
		if n < 1 {
			return nil, fmt.Errorf("must be at least 1, got %d", n)
		}
		return n, nil
	}
	return nil, fmt.Errorf("has an unsupported kind")
}

// toInt accepts every Go integer type, whole floats (JSON numbers decode as
// float64), json.Number and base-10 strings ("42", as fixture binding
// produces).
func toInt(v any) (int, error) {
	switch n := v.(type) {
	case int:
		return n, nil
	case int8:
		return int(n), nil
	case int16:
		return int(n), nil
	case int32:
		return int(n), nil
	case int64:
		return intFromInt64(n)
	case uint:
		return intFromUint64(uint64(n))
	case uint8:
		return int(n), nil
	case uint16:
		return int(n), nil
	case uint32:
		return intFromUint64(uint64(n))
	case uint64:
		return intFromUint64(n)
	case float32:
		return intFromFloat(float64(n))
	case float64:
		return intFromFloat(n)
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return intFromInt64(i)
		}
		if f, err := n.Float64(); err == nil {
			return intFromFloat(f)
		}
	case string:
		s := strings.TrimSpace(n)
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return intFromInt64(i)
		}
		return 0, fmt.Errorf("must be an integer, got the string %q", n)
	}
	return 0, fmt.Errorf("must be an integer, got %s", describe(v))
}

// Actions run and job IDs exceed 32 bits, so integers keep 53 bits: the
// most a JSON number carries exactly.
const maxExactInt = 1<<53 - 1

func intFromInt64(n int64) (int, error) {
	if n > maxExactInt || n < -maxExactInt {
		return 0, fmt.Errorf("is out of range: %d", n)
	}
	return int(n), nil
}

func intFromUint64(n uint64) (int, error) {
	if n > maxExactInt {
		return 0, fmt.Errorf("is out of range: %d", n)
	}
	return int(n), nil
}

func intFromFloat(f float64) (int, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) {
		return 0, fmt.Errorf("must be a whole number, got %v", f)
	}
	if f > maxExactInt || f < -maxExactInt {
		return 0, fmt.Errorf("is out of range: %v", f)
	}
	return int(f), nil
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%v (%T)", v, v)
}
