package evaluate

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// regexMatchKind returns the regex_match evaluation type.
//
// The evaluation passes when the evidence text (see [Input.Text]) has a match
// of pattern anywhere in it. Patterns use Go's RE2 syntax; they match
// case-insensitively (the (?i) flag) unless case_sensitive is true, with no
// other flags, like the JavaScript /pattern/i of ElizaOS. A pattern that
// RE2 cannot express (look-around, back-references) is rejected when the
// scenario is compiled, with the compiler's message. The score is 1 on a
// match and 0 otherwise; Details carry the matched text and its offset.
func regexMatchKind() *Kind {
	return NewKind("regex_match",
		"The reply (or stdout, or transcript) matches a regular expression (RE2); case-insensitive unless case_sensitive is true.",
		newRegexMatch)
}

// regexMatch is the evaluator of regexMatchKind; its semantics are documented there.
type regexMatch struct {
	pattern   string
	re        *regexp.Regexp
	sensitive bool
	// boxed is pattern as an interface, boxed once rather than per result;
	// passed holds the start of the pass message per evidence word (see
	// evidenceWords), up to the quoted match.
	boxed  any
	passed [len(evidenceWords)]string
}

func newRegexMatch(p *evalparams.RegexMatch) (Evaluator, error) {
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
	e := &regexMatch{pattern: p.Pattern, re: re, sensitive: p.CaseSensitive, boxed: p.Pattern}
	for i, what := range evidenceWords {
		e.passed[i] = e.passPrefix(what)
	}
	return e, nil
}

func (e *regexMatch) passPrefix(what string) string {
	return fmt.Sprintf("%s matches /%s/ (%s) at ", what, e.pattern, caseWord(e.sensitive))
}

// Evaluate judges in; see the type's documentation.
func (e *regexMatch) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	what, text := in.Text()
	loc := e.re.FindStringIndex(text)
	if loc == nil {
		r := results.Evaluation{Details: map[string]any{"pattern": e.boxed, "case_sensitive": e.sensitive, "evidence": boxEvidence(what)}}
		r.Message = fmt.Sprintf("%s does not match /%s/ (%s); %s", what, e.pattern, caseWord(e.sensitive), describeText(what, text))
		return r, nil
	}
	m := text[loc[0]:loc[1]]
	r := results.Evaluation{Passed: true, Score: 1, Details: map[string]any{"pattern": e.boxed, "case_sensitive": e.sensitive, "evidence": boxEvidence(what),
		"match": m, "match_index": loc[0]}}
	prefix := ""
	if i := evidenceIndex(what); i >= 0 {
		prefix = e.passed[i]
	} else {
		prefix = e.passPrefix(what)
	}
	r.Message = withQuoted(prefix, excerpt(m))
	return r, nil
}
