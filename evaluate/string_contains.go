package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
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
	// passed holds the pass message per evidence word (see
	// evidenceWords), built once: a passing result shares the string.
	// Details are built per result: each result is its owner's to change.
	passed [len(evidenceWords)]string
}

func newStringContains(p *evalparams.StringContains) (Evaluator, error) {
	if p.Value == "" {
		return nil, errors.New("value is empty; it would match any text")
	}
	e := &stringContains{value: p.Value, sensitive: p.CaseSensitive}
	for i, what := range evidenceWords {
		e.passed[i] = e.passMessage(what)
	}
	return e, nil
}

func (e *stringContains) passMessage(what string) string {
	return fmt.Sprintf("%s contains %s (%s)", what, quote(e.value), caseWord(e.sensitive))
}

// Evaluate judges in; see the type's documentation.
func (e *stringContains) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	what, text := in.Text()
	var found bool
	if e.sensitive {
		found = strings.Contains(text, e.value)
	} else {
		found = containsFold(text, e.value)
	}
	r := results.Evaluation{Details: map[string]any{"value": e.value, "case_sensitive": e.sensitive, "evidence": what}}
	if found {
		i := evidenceIndex(what)
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
