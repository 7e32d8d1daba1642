package judge

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Verdict is the judge's answer for one evaluation.
type Verdict struct {
	// Pass is the final pass/fail after the expected form was applied and
	// the samples were combined.
	Pass bool `json:"pass"`
	// Score is in [0, 1]: the mean over samples of how well the evidence
	// meets the question (see [Expectation] for how it relates to Pass).
	Score float64 `json:"score"`
	// Reasoning is the judge's explanation, from a sample that agrees with
	// the final Pass.
	Reasoning string `json:"reasoning"`
	// Capabilities holds one entry per requested capability, in the order
	// requested, combined over samples by majority.
	Capabilities []CapabilityVerdict `json:"capabilities,omitempty"`
	// Samples is how many model answers were combined.
	Samples int `json:"samples"`
	// Passes is how many of those samples passed.
	Passes int `json:"passes"`
	// Cached is true when every sample came from the cache.
	Cached bool `json:"cached,omitempty"`
	// Usage sums the tokens of the samples that were not cached.
	Usage Usage `json:"usage"`
	// Model names the model that answered.
	Model string `json:"model,omitempty"`
}

// CapabilityVerdict is the judge's finding on one capability.
type CapabilityVerdict struct {
	Capability string `json:"capability"`
	Achieved   bool   `json:"achieved"`
	Reasoning  string `json:"reasoning,omitempty"`
}

// ErrUnparseableVerdict is wrapped by every error that [ParseVerdict]
// returns, so callers can tell "the judge answered nonsense" (worth a retry
// or a report) from transport failures.
var ErrUnparseableVerdict = errors.New("unparseable judge output")

// rawVerdict is what could be read from one answer, before the expected form
// decides what it means. Pointers distinguish "absent" from false or 0.
type rawVerdict struct {
	pass      *bool // "did the evidence meet the expected outcome"
	answer    *bool // "the answer to the question is yes" (judgment/answer keys)
	score     *float64
	reasoning string
	caps      []CapabilityVerdict
}

// ParseVerdict reads a judge's answer. It is lenient where models are
// sloppy: JSON inside code fences or after prose, trailing commas, keys in
// any case or style ("Pass", "overall_success", "overallSuccess"), booleans
// as strings ("yes", "true", "pass"), scores as strings ("0.8", "80%",
// "8/10") or on a 0..100 scale, and, when there is no JSON at all, a plain
// yes/no or pass/fail answer. The verdict it returns has Samples 1 and Pass
// as the model stated it; [Judge] additionally applies the expected form.
// Errors wrap [ErrUnparseableVerdict].
func ParseVerdict(text string) (Verdict, error) {
	raw, err := parseRaw(text)
	if err != nil {
		return Verdict{}, err
	}
	pass, score := raw.resolve()
	v := Verdict{Pass: pass, Score: score, Reasoning: raw.reasoning, Capabilities: raw.caps, Samples: 1}
	if pass {
		v.Passes = 1
	}
	return v, nil
}

// resolve fills in what the answer left out: a missing pass follows the
// score (≥ 0.5), a missing score follows the pass (1 or 0).
func (r rawVerdict) resolve() (pass bool, score float64) {
	switch {
	case r.pass != nil:
		pass = *r.pass
	case r.answer != nil:
		pass = *r.answer
	case r.score != nil:
		pass = *r.score >= 0.5
	}
	if r.score != nil {
		score = *r.score
	} else if pass {
		score = 1
	}
	return pass, score
}

func parseRaw(text string) (rawVerdict, error) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
	if text == "" {
		return rawVerdict{}, fmt.Errorf("%w: the answer is empty", ErrUnparseableVerdict)
	}
	var firstErr error
	for obj := range jsonObjects(text) {
		r, err := fromObject(obj)
		if err == nil {
			return r, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	// An answer that opens like JSON but yielded no verdict is broken JSON
	// (often cut off at the token limit). Reading its first word as a plain
	// answer would turn `{"pass": fal` into a pass.
	if strings.HasPrefix(text, "{") || strings.HasPrefix(text, "[") || strings.HasPrefix(text, "```") && strings.Contains(text, "{") {
		if firstErr == nil {
			firstErr = errors.New("the answer looks like JSON but holds no complete object (truncated or malformed)")
		}
		return rawVerdict{}, fmt.Errorf("%w: %v; the answer began %s", ErrUnparseableVerdict, firstErr, excerpt(text))
	}
	// No object carried a verdict; the answer may still be a plain one
	// ("Yes. The agent ..." or "... Verdict: FAIL").
	if r, ok := plainAnswer(text); ok {
		return r, nil
	}
	if firstErr != nil {
		return rawVerdict{}, fmt.Errorf("%w: %v; the answer began %s", ErrUnparseableVerdict, firstErr, excerpt(text))
	}
	return rawVerdict{}, fmt.Errorf("%w: found neither a JSON object with a verdict nor a yes/no answer; the answer began %s",
		ErrUnparseableVerdict, excerpt(text))
}

func excerpt(s string) string {
	const n = 120
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return strconv.Quote(s)
}

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
// map access. When two keys normalise alike the first in key order wins,
// keeping the result deterministic.
func normObject(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		nk := normKey(k)
		if prev, dup := out[nk]; dup && prev != nil {
			// Keep the value of the smaller original key.
			if smallerKeyWins(obj, k, nk) {
				continue
			}
		}
		out[nk] = v
	}
	return out
}

// smallerKeyWins reports whether another key of obj that normalises to nk
// sorts before k.
func smallerKeyWins(obj map[string]any, k, nk string) bool {
	for other := range obj {
		if other != k && other < k && normKey(other) == nk {
			return true
		}
	}
	return false
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
