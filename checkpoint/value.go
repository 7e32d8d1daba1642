package checkpoint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// listKeys are the keys under which an object result carries its list, in
// the order they are tried: "items" is what every list capability returns
// ({items, pageInfo}), "nodes" is a raw GraphQL connection.
var listKeys = [...]string{"items", "nodes"}

// normalize returns data as plain JSON values (map[string]any, []any, string,
// bool, nil and numbers) so that conditions can walk it. Data that already is
// plain (numbers of any Go numeric type and json.Number included) is
// returned as is, without copying; anything else (structs, typed slices and
// maps, named types) is round-tripped through encoding/json, with numbers
// decoded as json.Number. It fails only when data cannot be encoded as JSON.
func normalize(data any) (any, error) {
	if isPlain(data, 0) {
		return data, nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, fmt.Errorf("result is not JSON data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("result is not JSON data: %w", err)
	}
	return out, nil
}

// maxPlainDepth bounds the walk of isPlain; deeper data is round-tripped,
// which encoding/json bounds itself.
const maxPlainDepth = 1000

func isPlain(v any, depth int) bool {
	if depth > maxPlainDepth {
		return false
	}
	switch v := v.(type) {
	case nil, string, bool, json.Number,
		int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, float32, float64:
		return true
	case map[string]any:
		for _, e := range v {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range v {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// list applies the list rule: an array is a list; an object with an "items"
// array (or, failing that, a "nodes" array) is a list of those elements.
// where names what was counted ("result", "result.items").
func list(data any) (items []any, where string, ok bool) {
	switch v := data.(type) {
	case []any:
		return v, "result", true
	case map[string]any:
		for _, k := range listKeys {
			if l, isList := v[k].([]any); isList {
				return l, "result." + k, true
			}
		}
	}
	return nil, "", false
}

// hasMorePages reports whether an object result says, in pageInfo, that
// more items exist than it holds.
func hasMorePages(data any) bool {
	m, ok := data.(map[string]any)
	if !ok {
		return false
	}
	pi, ok := m["pageInfo"].(map[string]any)
	if !ok {
		return false
	}
	more, _ := pi["hasNextPage"].(bool)
	return more
}

// isEmpty is the rule behind empty and non_empty: null, a list (by the list
// rule) without elements, "" and {} are empty; everything else is not.
func isEmpty(data any) bool {
	if l, _, ok := list(data); ok {
		return len(l) == 0
	}
	switch v := data.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// lookup walks a dotted path. Each segment indexes an object by key or an
// array by a non-negative decimal index; "length" on an array is its length.
// The empty path is the data itself. ok is false when the path leads
// nowhere: a missing key, an index out of range or not canonical, or a
// segment applied to a scalar.
func lookup(data any, path string) (v any, ok bool) {
	if path == "" {
		return data, true
	}
	cur := data
	for seg := range strings.SplitSeq(path, ".") {
		switch c := cur.(type) {
		case map[string]any:
			next, found := c[seg]
			if !found {
				return nil, false
			}
			cur = next
		case []any:
			if seg == "length" {
				cur = len(c)
				continue
			}
			i, isIndex := arrayIndex(seg)
			if !isIndex || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// arrayIndex parses a canonical array index: decimal digits, no sign, no
// leading zero (so "-1", "+1", "01" and "1e0" are not indexes).
func arrayIndex(s string) (int, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// number returns v as an exact big.Float when v is a number of any Go numeric
// type or a json.Number. NaN is not a number here; infinities are.
func number(v any) (*big.Float, bool) {
	f := new(big.Float)
	switch n := v.(type) {
	case int:
		return f.SetInt64(int64(n)), true
	case int8:
		return f.SetInt64(int64(n)), true
	case int16:
		return f.SetInt64(int64(n)), true
	case int32:
		return f.SetInt64(int64(n)), true
	case int64:
		return f.SetInt64(n), true
	case uint:
		return f.SetUint64(uint64(n)), true
	case uint8:
		return f.SetUint64(uint64(n)), true
	case uint16:
		return f.SetUint64(uint64(n)), true
	case uint32:
		return f.SetUint64(uint64(n)), true
	case uint64:
		return f.SetUint64(n), true
	case uintptr:
		return f.SetUint64(uint64(n)), true
	case float32:
		return floatNumber(f, float64(n))
	case float64:
		return floatNumber(f, n)
	case json.Number:
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return f.SetInt64(i), true
		}
		if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			return f.SetUint64(u), true
		}
		x, _, err := big.ParseFloat(string(n), 10, 256, big.ToNearestEven)
		if err != nil {
			return nil, false
		}
		return x, true
	}
	return nil, false
}

func floatNumber(f *big.Float, x float64) (*big.Float, bool) {
	if math.IsNaN(x) {
		return nil, false
	}
	return f.SetFloat64(x), true
}

// isNumber reports whether v is a number of any Go numeric type or a
// json.Number (NaN included, which equals nothing).
func isNumber(v any) bool {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, float32, float64, json.Number:
		return true
	}
	return false
}

// compareNumbers compares two numbers by value; ok is false when either is
// not a number (or is NaN).
func compareNumbers(a, b any) (cmp int, ok bool) {
	x, okA := number(a)
	y, okB := number(b)
	if !okA || !okB {
		return 0, false
	}
	return x.Cmp(y), true
}

// scalarEqual compares an actual value with an expected scalar the way
// field_equals does: numbers by value whatever their Go type, strings and
// booleans exactly, null only with null; values of different JSON types
// are never equal.
func scalarEqual(actual, want any) bool {
	if isNumber(want) {
		c, ok := compareNumbers(actual, want)
		return ok && c == 0
	}
	switch w := want.(type) {
	case nil:
		return actual == nil
	case string:
		a, ok := actual.(string)
		return ok && a == w
	case bool:
		a, ok := actual.(bool)
		return ok && a == w
	}
	return false
}

// isScalar reports whether v is a JSON scalar: null, a string, a boolean or a number.
func isScalar(v any) bool {
	switch v.(type) {
	case nil, string, bool:
		return true
	}
	return isNumber(v)
}

// kindOf names the JSON type of a plain value.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	if isNumber(v) {
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

// previewLimit bounds the length of a value shown in a message, in runes.
const previewLimit = 120

// preview renders a plain value as compact JSON (keys sorted, no HTML
// escaping) for a message, cut at previewLimit runes. It stops walking the
// value once the limit is reached, so a large result costs no more than a
// small one.
func preview(v any) string {
	var b strings.Builder
	writePreview(&b, v, 0)
	s := b.String()
	if utf8.RuneCountInString(s) <= previewLimit {
		return s
	}
	r := []rune(s)
	return string(r[:previewLimit]) + "…"
}

// previewFull is how many bytes writePreview writes before it stops: enough
// for previewLimit runes of any width.
const previewFull = previewLimit * utf8.UTFMax

func writePreview(b *strings.Builder, v any, depth int) {
	if b.Len() > previewFull {
		return
	}
	if depth > maxPlainDepth {
		b.WriteString("…")
		return
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeQuoted(b, v, previewFull)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if b.Len() > previewFull {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writePreview(b, e, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if b.Len() > previewFull {
				return
			}
			if i > 0 {
				b.WriteByte(',')
			}
			writeQuoted(b, k, previewFull)
			b.WriteByte(':')
			writePreview(b, v[k], depth+1)
		}
		b.WriteByte('}')
	default:
		if isNumber(v) {
			b.WriteString(formatNumber(v))
			return
		}
		fmt.Fprintf(b, "%v", v)
	}
}

// writeQuoted writes s as a JSON string, cut to about max bytes.
func writeQuoted(b *strings.Builder, s string, max int) {
	if len(s) > max {
		s = s[:max]
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// formatNumber prints a number the way people write it: 2, not 2.0 or 2e+00.
func formatNumber(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	x, ok := number(v)
	if !ok {
		return fmt.Sprint(v)
	}
	if x.IsInt() {
		return x.Text('f', 0)
	}
	if f, acc := x.Float64(); acc == big.Exact {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return x.Text('g', 20)
}

// formatScalar renders an expected scalar as JSON: "closed", 42, true, null.
func formatScalar(v any) string {
	if isNumber(v) {
		return formatNumber(v)
	}
	if s, ok := v.(string); ok {
		var b strings.Builder
		writeQuoted(&b, s, len(s))
		return b.String()
	}
	return preview(v)
}

// plural returns "1 item" or "n items".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
