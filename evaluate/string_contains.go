package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// StringContainsKind returns the string_contains evaluation type.
//
// The evaluation passes when the evidence text (see [Input.Text]) contains
// value as a substring, compared case-insensitively (Unicode simple case
// folding) unless case_sensitive is true. The score is 1 on a pass and 0
// otherwise. An empty value is rejected when the scenario is compiled,
// because it would match everything.
func StringContainsKind() *Kind {
	return NewKind("string_contains",
		"The reply (or a code step's stdout, or a conversation's transcript) contains a value; case-insensitive unless case_sensitive is true.",
		newStringContains)
}

// stringContains is the evaluator of StringContainsKind; its semantics are documented there.
type stringContains struct {
	value     string
	sensitive bool
}

func newStringContains(p *scenario.StringContains) (Evaluator, error) {
	if p.Value == "" {
		return nil, errors.New("value is empty; it would match any text")
	}
	return &stringContains{value: p.Value, sensitive: p.CaseSensitive}, nil
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
	r := Result{Details: map[string]any{"value": e.value, "case_sensitive": e.sensitive, "evidence": what}}
	if found {
		r.Passed, r.Score = true, 1
		r.Message = fmt.Sprintf("%s contains %s (%s)", what, quote(e.value), caseWord(e.sensitive))
		return r, nil
	}
	r.Message = fmt.Sprintf("%s does not contain %s (%s); %s", what, quote(e.value), caseWord(e.sensitive), describeText(what, text))
	return r, nil
}
