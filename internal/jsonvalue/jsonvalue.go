// Package jsonvalue reads the plain values decoded documents and tool
// calls carry (maps, slices, strings, bools, nil, and numbers of any Go
// numeric type or json.Number), so that every part of agenteval compares
// numbers by value in the same way.
package jsonvalue

import "encoding/json"

// Float returns v as a float64 when it is a number of any Go numeric type
// or a json.Number.
func Float(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// Clone returns a deep copy of v's maps (map[string]any) and slices
// ([]any), so that a result can hold a value its scenario or another
// result also holds and still be its owner's alone. Other values are
// returned as they are: decoded documents hold no other containers.
func Clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Clone(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}
