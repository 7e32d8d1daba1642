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
