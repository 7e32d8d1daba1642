package schemacheck

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/jsonvalue"
)

// typeSet is a set of JSON types, one bit each, in the order types are
// listed in messages.
type typeSet uint8

const (
	typeNull typeSet = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeNames = [...]string{"null", "boolean", "number", "integer", "string", "array", "object"}

func typeFromName(name string) typeSet {
	for i, n := range typeNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

func (t typeSet) names() []string {
	var out []string
	for i, n := range typeNames {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// typeOf returns the JSON type of a plain value; 0 for a value JSON has no
// type for (a NaN, an infinity, a Go type other than the plain ones).
func typeOf(v any) typeSet {
	switch x := v.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case string:
		return typeString
	case map[string]any:
		return typeObject
	case []any:
		return typeArray
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0
		}
		return typeNumber
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return 0
		}
		return typeNumber
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return typeNumber
	}
	return 0
}

func isNumber(v any) bool {
	switch v.(type) {
	case json.Number, float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	}
	return false
}

// ratOf is a number's exact value, read from its text as JSON writes it.
func ratOf(v any) (*big.Rat, bool) {
	return new(big.Rat).SetString(fmt.Sprint(v))
}

// compareNum compares the number v with a limit. Rounding to the nearest
// float keeps order, so unequal floats decide without allocating; equal
// ones are compared exactly. ok is false when v's text is not a number.
func compareNum(v any, n *number) (c int, ok bool) {
	if f, ok := jsonvalue.Float(v); ok { // not ok: a json.Number out of float range, or not a number
		switch {
		case f < n.f:
			return -1, true
		case f > n.f:
			return 1, true
		}
	}
	r, ok := ratOf(v)
	if !ok {
		return 0, false
	}
	return r.Cmp(n.rat), true
}

// isDigits reports whether s is an optional sign and decimal digits.
func isDigits(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isInteger reports whether a number has no fractional part (1.0 has none).
func isInteger(v any) bool {
	switch x := v.(type) {
	case json.Number:
		if isDigits(string(x)) {
			return true
		}
	case float64:
		if math.Abs(x) < 1<<53 {
			return x == math.Trunc(x)
		}
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return true
	}
	r, ok := ratOf(v)
	return ok && r.IsInt()
}

// isMultiple reports whether v is a multiple of m.
func isMultiple(v any, m *number) (bool, bool) {
	if n, isNum := v.(json.Number); isNum && m.rat.IsInt() && m.rat.Num().IsInt64() && isDigits(string(n)) {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			d := m.rat.Num().Int64()
			return d != 0 && i%d == 0, true
		}
	}
	r, ok := ratOf(v)
	if !ok {
		return false, false
	}
	if m.rat.Sign() == 0 {
		return false, true
	}
	return new(big.Rat).Quo(r, m.rat).IsInt(), true
}

// equal is JSON equality: numbers by value, objects by their members.
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	if !isNumber(a) || typeOf(b) != typeNumber {
		return false
	}
	if xn, ok := a.(json.Number); ok {
		if yn, ok := b.(json.Number); ok && xn == yn {
			return true
		}
	}
	fa, okA := jsonvalue.Float(a)
	fb, okB := jsonvalue.Float(b)
	if okA && okB && fa != fb {
		return false
	}
	ra, okA := ratOf(a)
	rb, okB := ratOf(b)
	return okA && okB && ra.Cmp(rb) == 0
}

// duplicates returns the first pair of equal items, by the later item's
// index and then the earlier's, or -1, -1.
func duplicates(arr []any) (int, int) {
	if len(arr) <= 32 {
		for i := 1; i < len(arr); i++ {
			for j := 0; j < i; j++ {
				if equal(arr[i], arr[j]) {
					return j, i
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string]int, len(arr))
	var b strings.Builder
	for i, item := range arr {
		b.Reset()
		canonical(&b, item)
		if j, ok := seen[b.String()]; ok {
			return j, i
		}
		seen[b.String()] = i
	}
	return -1, -1
}

// canonical writes a key equal for JSON-equal values.
func canonical(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		fmt.Fprintf(b, "b%t", x)
	case string:
		b.WriteString(strconv.Quote(x))
	case []any:
		b.WriteByte('[')
		for _, e := range x {
			canonical(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonical(b, x[k])
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		if r, ok := ratOf(v); ok {
			b.WriteString("#" + r.RatString())
		} else {
			fmt.Fprintf(b, "?%T%v", v, v)
		}
	}
}

func sortStrings(ss []string) { slices.Sort(ss) }
