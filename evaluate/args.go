package evaluate

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/jsonvalue"
	"github.com/agenteval/agenteval/redact"
)

// argsMode says how an expected action's arguments compare with an actual
// call's.
type argsMode string

const (
	// argsExact: the arguments are deeply equal.
	argsExact argsMode = "exact"
	// argsPartial: every expected argument is present and matches; actual
	// arguments not mentioned are ignored. Nested objects compare the same
	// way; lists must have the same length and match element by element.
	argsPartial argsMode = "partial"
	// argsIgnore: arguments are not compared.
	argsIgnore argsMode = "ignore"
)

func parseArgsMatch(s string) (argsMode, error) {
	switch m := argsMode(s); m {
	case argsExact, argsPartial, argsIgnore:
		return m, nil
	}
	return "", fmt.Errorf("args_match %q is not exact, partial or ignore", s)
}

// argsMatch compares expected with actual arguments under mode. When they
// differ it returns the first difference, for messages: `args.title: want
// "x", got "y"`.
func argsMatch(mode argsMode, expected, actual map[string]any) (bool, string) {
	switch mode {
	case argsIgnore:
		return true, ""
	case argsExact:
		return matchValue("args", expected, actual, false)
	}
	return matchValue("args", expected, actual, true)
}

// matchValue compares two decoded values (JSON-like: maps, slices, strings,
// numbers of any Go numeric type or json.Number, bools, nil). Numbers
// compare by value, so 3, 3.0, json.Number("3") and, against a number, the
// string "3" are equal. With partial,
// a map matches when each of want's keys is in got and matches.
func matchValue(path string, want, got any, partial bool) (bool, string) {
	wn, wok := number(want)
	gn, gok := number(got)
	if wok || gok {
		// A number on one side and a numeric string on the other compare by
		// value: a bound {{placeholder}} in a file is always a string.
		if !wok {
			wn, wok = numericString(want)
		}
		if !gok {
			gn, gok = numericString(got)
		}
		if wok && gok && wn == gn {
			return true, ""
		}
		return false, fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false, fmt.Sprintf("%s: want an object, got %s", path, show(got))
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			gv, ok := g[k]
			if !ok {
				return false, fmt.Sprintf("%s.%s: missing (want %s)", path, k, show(w[k]))
			}
			if ok, why := matchValue(path+"."+k, w[k], gv, partial); !ok {
				return false, why
			}
		}
		if !partial && len(g) != len(w) {
			for _, k := range slices.Sorted(maps.Keys(g)) {
				if _, ok := w[k]; !ok {
					return false, fmt.Sprintf("%s.%s: not expected (got %s)", path, k, show(g[k]))
				}
			}
		}
		return true, ""
	case []any:
		g, ok := got.([]any)
		if !ok {
			return false, fmt.Sprintf("%s: want a list, got %s", path, show(got))
		}
		if len(g) != len(w) {
			return false, fmt.Sprintf("%s: want %d items, got %d", path, len(w), len(g))
		}
		for i := range w {
			if ok, why := matchValue(fmt.Sprintf("%s[%d]", path, i), w[i], g[i], partial); !ok {
				return false, why
			}
		}
		return true, ""
	}
	if want == nil && got == nil {
		return true, ""
	}
	if reflect.TypeOf(want) == reflect.TypeOf(got) && reflect.DeepEqual(want, got) {
		return true, ""
	}
	return false, fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
}

// number returns v as a float64 when it is a number.
func number(v any) (float64, bool) { return jsonvalue.Float(v) }

// numericString returns v as a float64 when it is a string holding a
// number.
func numericString(v any) (float64, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil
}

// show renders a value for messages, as compact JSON where it can.
func show(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	return redact.Head(s, 80)
}
