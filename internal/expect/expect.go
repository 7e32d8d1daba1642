// Package expect reads the `expected` value of an llm_judge evaluation:
// yes/no, a score threshold or range, or an outcome in words. The judge
// decides samples under it and evaluate checks it when a scenario is
// compiled, so both read it with this one parser.
package expect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Kind says how an [Expectation] decides a pass.
type Kind int

// The forms of a scenario's `expected` field.
const (
	// KindYesNo: "yes" or "no", the expected answer to a yes/no question.
	// The judge is told which answer is expected and passes the evidence
	// when it supports that answer.
	KindYesNo Kind = iota + 1
	// KindScore: a threshold on the score, such as "0.8+" or "<0.3". The
	// judge grades the question on 0..1 without being told the threshold
	// (telling it would anchor the grade), and the threshold decides.
	KindScore
	// KindText: any other text, an outcome in words. The judge decides
	// whether the evidence meets it.
	KindText
)

// Expectation is a parsed `expected` value.
type Expectation struct {
	Kind Kind
	// Yes is the expected answer of a KindYesNo.
	Yes bool
	// Op is one of ">=", ">", "<=", "<" for a one-sided KindScore, or
	// "range" for an inclusive Min..Max range.
	Op string
	// Threshold is the bound of a one-sided KindScore.
	Threshold float64
	// Min and Max bound a range KindScore.
	Min, Max float64
	// Text is the original value, trimmed.
	Text string
}

var (
	reOpThreshold = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(>=|≥|>|<=|≤|<)\s*([0-9]*\.?[0-9]+)$`) })
	reSuffixed    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([0-9]*\.?[0-9]+)\s*([+-])$`) })
	reRange       = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([0-9]*\.?[0-9]+)\s*(?:-|–|\.\.)\s*([0-9]*\.?[0-9]+)$`)
	})
)

// Parse reads a scenario's `expected` value. Besides yes/no and
// free text it accepts these score forms, all inclusive where the operator
// says so: "0.8+" (≥ 0.8), "0.3-" (≤ 0.3, the documented ElizaOS meaning),
// ">=0.7", ">0.5", "<=0.2", "<0.3" and the range "0.6-0.9". A score form
// with a bound outside 0..1 is an error rather than free text, because it is
// surely a typo.
func Parse(s string) (Expectation, error) {
	t := strings.TrimSpace(s)
	e := Expectation{Text: t}
	lower := strings.ToLower(t)
	switch lower {
	case "":
		return e, fmt.Errorf("judge: expected is empty; use yes, no, a score threshold such as 0.8+, or a description of the outcome")
	case "yes", "true":
		e.Kind, e.Yes = KindYesNo, true
		return e, nil
	case "no", "false":
		e.Kind, e.Yes = KindYesNo, false
		return e, nil
	}
	num := func(x string) (float64, error) {
		f, err := strconv.ParseFloat(x, 64)
		if err != nil || f < 0 || f > 1 {
			return 0, fmt.Errorf("judge: expected %q: score bound %s must be between 0 and 1", t, x)
		}
		return f, nil
	}
	if m := reOpThreshold().FindStringSubmatch(lower); m != nil {
		f, err := num(m[2])
		if err != nil {
			return e, err
		}
		op := map[string]string{"≥": ">=", "≤": "<="}[m[1]]
		if op == "" {
			op = m[1]
		}
		e.Kind, e.Op, e.Threshold = KindScore, op, f
		return e, nil
	}
	if m := reSuffixed().FindStringSubmatch(lower); m != nil {
		f, err := num(m[1])
		if err != nil {
			return e, err
		}
		e.Kind, e.Threshold = KindScore, f
		e.Op = ">="
		if m[2] == "-" {
			e.Op = "<="
		}
		return e, nil
	}
	if m := reRange().FindStringSubmatch(lower); m != nil {
		lo, err := num(m[1])
		if err != nil {
			return e, err
		}
		hi, err := num(m[2])
		if err != nil {
			return e, err
		}
		if lo > hi {
			return e, fmt.Errorf("judge: expected %q: range minimum %v is above its maximum %v", t, lo, hi)
		}
		e.Kind, e.Op, e.Min, e.Max = KindScore, "range", lo, hi
		return e, nil
	}
	e.Kind = KindText
	return e, nil
}

// MetBy reports whether score satisfies a KindScore. It is false for the
// other kinds, whose pass comes from the judge's own pass.
func (e Expectation) MetBy(score float64) bool {
	if e.Kind != KindScore {
		return false
	}
	switch e.Op {
	case ">=":
		return score >= e.Threshold
	case ">":
		return score > e.Threshold
	case "<=":
		return score <= e.Threshold
	case "<":
		return score < e.Threshold
	case "range":
		return score >= e.Min && score <= e.Max
	}
	return false
}

// String describes the expectation for people, as used in reasons.
func (e Expectation) String() string {
	switch e.Kind {
	case KindYesNo:
		if e.Yes {
			return "answer yes"
		}
		return "answer no"
	case KindScore:
		if e.Op == "range" {
			return fmt.Sprintf("score between %g and %g", e.Min, e.Max)
		}
		return fmt.Sprintf("score %s %g", e.Op, e.Threshold)
	case KindText:
		return strconv.Quote(e.Text)
	}
	return "no expectation"
}
