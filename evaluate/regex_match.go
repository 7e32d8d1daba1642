package evaluate

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// RegexMatchKind returns the regex_match evaluation type.
//
// The evaluation passes when the evidence text (see [Input.Text]) has a match
// of pattern anywhere in it. Patterns use Go's RE2 syntax; they match
// case-insensitively (the (?i) flag) unless case_sensitive is true, with no
// other flags, like the JavaScript /pattern/i of ElizaOS. A pattern that
// RE2 cannot express (look-around, back-references) is rejected when the
// scenario is compiled, with the compiler's message. The score is 1 on a
// match and 0 otherwise; Details carry the matched text and its offset.
func RegexMatchKind() *Kind {
	return NewKind("regex_match",
		"The reply (or stdout, or transcript) matches a regular expression (RE2); case-insensitive unless case_sensitive is true.",
		newRegexMatch)
}

// regexMatch is the evaluator of RegexMatchKind; its semantics are documented there.
type regexMatch struct {
	pattern   string
	re        *regexp.Regexp
	sensitive bool
}

func newRegexMatch(p *scenario.RegexMatch) (Evaluator, error) {
	if p.Pattern == "" {
		return nil, fmt.Errorf("pattern is empty; it would match any text")
	}
	expr := p.Pattern
	if !p.CaseSensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not compile (RE2 syntax; look-around and back-references are not supported): %s",
			p.Pattern, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return &regexMatch{pattern: p.Pattern, re: re, sensitive: p.CaseSensitive}, nil
}

// Evaluate judges in; see the type's documentation.
func (e *regexMatch) Evaluate(_ context.Context, in Input) (Result, error) {
	what, text := in.Text()
	loc := e.re.FindStringIndex(text)
	r := Result{Details: map[string]any{"pattern": e.pattern, "case_sensitive": e.sensitive, "evidence": what}}
	if loc == nil {
		r.Message = fmt.Sprintf("%s does not match /%s/ (%s); %s", what, e.pattern, caseWord(e.sensitive), describeText(what, text))
		return r, nil
	}
	m := text[loc[0]:loc[1]]
	r.Passed, r.Score = true, 1
	r.Details["match"], r.Details["match_index"] = m, loc[0]
	r.Message = fmt.Sprintf("%s matches /%s/ (%s) at %q", what, e.pattern, caseWord(e.sensitive), excerpt(m))
	return r, nil
}
