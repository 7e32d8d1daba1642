package judge

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/llm"
)

// Verdict is the judge's answer for one evaluation.
type Verdict struct {
	// Pass is the final pass/fail: each sample is decided under the
	// expected form, and Pass needs more than half of them to pass.
	Pass bool `json:"pass"`
	// Score is in [0, 1], the mean over samples. Its meaning follows the
	// expected form: for yes/no, the judge's confidence that the expected
	// answer is right; for a score threshold, the grade the threshold is
	// applied to; for free text, how fully the outcome is met.
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
	Usage llm.Usage `json:"usage"`
	// Model names the model that answered.
	Model string `json:"model,omitempty"`
}

// CapabilityVerdict is the judge's finding on one capability.
type CapabilityVerdict struct {
	Capability string `json:"capability"`
	Achieved   bool   `json:"achieved"`
	Reasoning  string `json:"reasoning,omitempty"`
}

// ErrUnparseableVerdict is wrapped by every error the judge returns
// when the model answered but not with a verdict, so callers can tell "the judge answered nonsense" (worth a retry
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

// parseVerdict reads a judge's answer. It is lenient where models are
// sloppy: JSON inside code fences or after prose, trailing commas, keys in
// any case or style ("Pass", "overall_success", "overallSuccess"), booleans
// as strings ("yes", "true", "pass"), scores as strings ("0.8", "80%",
// "8/10") or on a 0..100 scale, and, when there is no JSON at all, a plain
// yes/no or pass/fail answer. The verdict it returns has Samples 1 and Pass
// as the model stated it; [Judge] additionally applies the expected form.
// Errors wrap [ErrUnparseableVerdict].
func parseVerdict(text string) (Verdict, error) {
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
