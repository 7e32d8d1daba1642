package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
)

// stringContainsKind returns the string_contains evaluation type.
//
// The evaluation passes when the evidence text (see [Input.Text]) contains
// value as a substring, compared case-insensitively (Unicode simple case
// folding) unless case_sensitive is true. The score is 1 on a pass and 0
// otherwise. An empty value is rejected when the scenario is compiled,
// because it would match everything.
func stringContainsKind() *Kind {
	return NewKind("string_contains",
		"The reply (or a code step's stdout, or a conversation's transcript) contains a value; case-insensitive unless case_sensitive is true.",
		newStringContains)
}

// stringContains is the evaluator of stringContainsKind; its semantics are documented there.
type stringContains struct {
	value     string
	sensitive bool
	// boxed is value as an interface, boxed once rather than per result;
	// passed holds the pass message and details the (read-only, shared)
	// details per evidence word (see evidenceWords): a result allocates
	// neither.
	boxed   any
	passed  [len(evidenceWords)]string
	details [len(evidenceWords)]map[string]any
}

func newStringContains(p *evalparams.StringContains) (Evaluator, error) {
	if p.Value == "" {
		return nil, errors.New("value is empty; it would match any text")
	}
	e := &stringContains{value: p.Value, sensitive: p.CaseSensitive, boxed: p.Value}
	for i, what := range evidenceWords {
		e.passed[i] = e.passMessage(what)
		e.details[i] = e.detailsFor(what)
	}
	return e, nil
}

func (e *stringContains) detailsFor(what string) map[string]any {
	return map[string]any{"value": e.boxed, "case_sensitive": e.sensitive, "evidence": boxEvidence(what)}
}

func (e *stringContains) passMessage(what string) string {
	return fmt.Sprintf("%s contains %s (%s)", what, quote(e.value), caseWord(e.sensitive))
}

// Evaluate judges in; see the type's documentation.
func (e *stringContains) Evaluate(_ context.Context, in Input) (Result, error) {
	what, text := in.Text()
	var found bool
	if e.sensitive {
		found = strings.Contains(text, e.value)
	} else {
		found = containsFold(text, e.value)
	}
	var r Result
	i := evidenceIndex(what)
	if i >= 0 {
		r.Details = e.details[i]
	} else {
		r.Details = e.detailsFor(what)
	}
	if found {
		r.Passed, r.Score = true, 1
		if i >= 0 {
			r.Message = e.passed[i]
		} else {
			r.Message = e.passMessage(what)
		}
		return r, nil
	}
	r.Message = fmt.Sprintf("%s does not contain %s (%s); %s", what, quote(e.value), caseWord(e.sensitive), describeText(what, text))
	return r, nil
}
