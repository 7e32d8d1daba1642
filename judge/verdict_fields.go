package judge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Key aliases, normalised by normKey. The answer keys hold the answer to the
// question rather than "expectation met"; legacy ElizaOS schemas use
// "judgment" that way.
var (
	passKeys      = []string{"pass", "passed", "overallsuccess", "success", "verdict", "result", "met", "expectationmet"}
	answerKeys    = []string{"answer", "judgment", "judgement"}
	scoreKeys     = []string{"score", "confidence", "rating", "overallscore"}
	reasoningKeys = []string{"reasoning", "reason", "rationale", "explanation", "qualitativesummary", "summary", "justification"}
	capsKeys      = []string{"capabilities", "capabilitychecklist", "checklist", "capabilityresults"}
	capNameKeys   = []string{"capability", "name", "criterion"}
	capMetKeys    = []string{"achieved", "pass", "passed", "met", "success", "result"}
)

// normKey lower-cases k and drops everything but letters and digits, so
// that "Overall_Success", "overall-success" and "overallSuccess" agree.
func normKey(k string) string {
	if isNormal(k) {
		return k
	}
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// normObject re-keys obj by normKey once, so that each alias lookup is a
// map access. When several keys normalise alike ("Pass" and "pass"), the
// lexically smallest original key wins, so the result does not depend on
// map order.
func normObject(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	var from map[string]string // normalised → original, built on the first collision
	for k, v := range obj {
		nk := normKey(k)
		if _, dup := out[nk]; dup {
			if from == nil {
				from = make(map[string]string, len(obj))
				for k2 := range obj {
					n2 := normKey(k2)
					if o, seen := from[n2]; !seen || k2 < o {
						from[n2] = k2
					}
				}
			}
			out[nk] = obj[from[nk]]
			continue
		}
		out[nk] = v
	}
	return out
}

// isNormal reports whether k is already lower-case letters and digits, the
// common case, so normKey need not allocate.
func isNormal(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func lookup(obj map[string]any, keys []string) (any, bool) {
	for _, k := range keys {
		if v, ok := obj[k]; ok && v != nil {
			return v, true
		}
	}
	return nil, false
}

func fromObject(obj map[string]any) (rawVerdict, error) {
	obj = normObject(obj)
	var r rawVerdict
	if v, ok := lookup(obj, passKeys); ok {
		if b, ok := asBool(v); ok {
			r.pass = &b
		}
	}
	if v, ok := lookup(obj, answerKeys); ok {
		if b, ok := asBool(v); ok {
			r.answer = &b
		}
	}
	if v, ok := lookup(obj, scoreKeys); ok {
		s, err := asScore(v)
		if err != nil {
			return r, err
		}
		r.score = &s
	}
	if v, ok := lookup(obj, reasoningKeys); ok {
		r.reasoning = asText(v)
	}
	if v, ok := lookup(obj, capsKeys); ok {
		r.caps = asCapabilities(v)
	}
	if r.pass == nil && r.answer == nil && r.score == nil {
		// Some models wrap the verdict: {"verdict": {...}} or
		// {"evaluation": {...}}. Look one level down.
		for _, v := range obj {
			if inner, ok := v.(map[string]any); ok {
				if ir, err := fromObject(inner); err == nil {
					return ir, nil
				}
			}
		}
		return r, errors.New("the JSON object has no pass, answer or score field")
	}
	return r, nil
}

func asBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case float64:
		if x == 0 || x == 1 {
			return x == 1, true
		}
	case string:
		return wordBool(strings.Trim(strings.ToLower(strings.TrimSpace(x)), ".!\"'*` "))
	}
	return false, false
}

func wordBool(w string) (bool, bool) {
	switch w {
	case "true", "yes", "y", "pass", "passed", "passes", "success", "succeeded", "met", "correct", "achieved", "1":
		return true, true
	case "false", "no", "n", "fail", "failed", "fails", "failure", "not met", "unmet", "incorrect", "not achieved", "0":
		return false, true
	}
	return false, false
}

// asScore reads a score and brings it into [0, 1]. Values in (1, 100] are
// taken as percentages because models asked for 0..1 still answer "85"
// now and then; anything else out of range is an error, not a guess.
func asScore(v any) (float64, error) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case string:
		s := strings.TrimSpace(x)
		pct := strings.HasSuffix(s, "%")
		s = strings.TrimSpace(strings.TrimSuffix(s, "%"))
		if num, den, ok := strings.Cut(s, "/"); ok {
			n, err1 := strconv.ParseFloat(strings.TrimSpace(num), 64)
			d, err2 := strconv.ParseFloat(strings.TrimSpace(den), 64)
			if err1 != nil || err2 != nil || d <= 0 {
				return 0, fmt.Errorf("score %q is not a number", x)
			}
			f = n / d
			break
		}
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("score %q is not a number", x)
		}
		f = n
		if pct {
			f /= 100
		}
	default:
		return 0, fmt.Errorf("score has type %T, want a number", v)
	}
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("score %v is not a finite number", f)
	case f < 0 || f > 100:
		return 0, fmt.Errorf("score %v is outside 0..1", f)
	case f > 1:
		f /= 100
	}
	return f, nil
}

func asText(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case nil:
		return ""
	default:
		return strings.TrimSpace(fmt.Sprint(x))
	}
}

func asCapabilities(v any) []CapabilityVerdict {
	var out []CapabilityVerdict
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			obj, ok := item.(map[string]any)
			if !ok {
				continue
			}
			obj = normObject(obj)
			var c CapabilityVerdict
			if n, ok := lookup(obj, capNameKeys); ok {
				c.Capability = asText(n)
			}
			if m, ok := lookup(obj, capMetKeys); ok {
				c.Achieved, _ = asBool(m)
			}
			if rs, ok := lookup(obj, reasoningKeys); ok {
				c.Reasoning = asText(rs)
			}
			out = append(out, c)
		}
	case map[string]any:
		// {"Task Completion": true, ...} or {"Task Completion": {"achieved": ...}}
		for name, val := range x {
			c := CapabilityVerdict{Capability: name}
			if obj, ok := val.(map[string]any); ok {
				obj = normObject(obj)
				if m, ok := lookup(obj, capMetKeys); ok {
					c.Achieved, _ = asBool(m)
				}
				if rs, ok := lookup(obj, reasoningKeys); ok {
					c.Reasoning = asText(rs)
				}
			} else {
				c.Achieved, _ = asBool(val)
			}
			out = append(out, c)
		}
		// Map order is random; a stable order keeps verdicts reproducible.
		slices.SortFunc(out, func(a, b CapabilityVerdict) int { return strings.Compare(a.Capability, b.Capability) })
	}
	return out
}
