package evaluate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agenteval/agenteval/results"
)

// Text returns the text that text checks (string_contains, regex_match)
// read, and a word naming it for messages:
//
//   - results.ScopeTurn: that assistant turn's text ("reply");
//   - results.ScopeFinal, or any scope on a conversation step: the whole
//     transcript, as [StepTrace.Transcript] renders it ("transcript");
//   - a code step: its stdout without leading and trailing white space, as
//     in ElizaOS, so that `^ok$` matches a program that prints "ok\n"
//     ("stdout");
//   - otherwise the agent's reply ("reply").
//
// in must point at a step of its trace.
func (in Input) Text() (what, text string) {
	st := in.StepTrace()
	switch {
	case in.Scope == results.ScopeTurn:
		return "reply", st.Turns[in.Turn].Text
	case in.Scope == results.ScopeFinal || st.Kind == "conversation":
		return "transcript", st.Transcript()
	case st.Kind == "code":
		return "stdout", strings.TrimSpace(st.Stdout)
	}
	return "reply", st.Reply
}

// evidenceWords are the words Text names its evidence with; evaluators
// build their pass messages for each once, at compile time.
var evidenceWords = [...]string{"reply", "transcript", "stdout"}

// evidenceIndex returns the index of what in evidenceWords, or -1.
func evidenceIndex(what string) int {
	for i, w := range evidenceWords {
		if w == what {
			return i
		}
	}
	return -1
}

// boxEvidence returns what as an interface without allocating for the
// words Text returns (constants are boxed statically).
func boxEvidence(what string) any {
	switch what {
	case "reply":
		return "reply"
	case "transcript":
		return "transcript"
	case "stdout":
		return "stdout"
	}
	return what
}

// Actions returns the actions that trajectory checks read: for results.ScopeTurn,
// that turn's actions; otherwise the step's actions, or, for a conversation
// whose step-level list is empty, every turn's actions in order.
func (in Input) Actions() []results.Action {
	st := in.StepTrace()
	if in.Scope == results.ScopeTurn {
		return st.Turns[in.Turn].Actions
	}
	if len(st.Actions) > 0 || len(st.Turns) == 0 {
		return st.Actions
	}
	var all []results.Action
	for _, t := range st.Turns {
		all = append(all, t.Actions...)
	}
	return all
}

// excerptLen is how many runes of evidence a message quotes.
const excerptLen = 60

// excerpt returns the start of s on one line, for messages: at most
// excerptLen runes, runs of white space shown as one space, "…" when cut.
func excerpt(s string) string {
	s = strings.TrimSpace(s)
	if isExcerpt(s) {
		return s // most matches: short, on one line (no allocation)
	}
	return collapse(s)
}

// collapse builds excerpt(s) of a trimmed s.
func collapse(s string) string {
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if n == excerptLen {
			b.WriteString("…")
			return b.String()
		}
		if space {
			if n+1 >= excerptLen {
				b.WriteString("…")
				return b.String()
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// isExcerpt reports whether excerpt(s) is s itself: s (already trimmed)
// has at most excerptLen runes, no white space but single spaces, and is
// valid UTF-8 (collapse writes an invalid byte as U+FFFD).
func isExcerpt(s string) bool {
	if len(s) > excerptLen*utf8.UTFMax {
		return false
	}
	runes := 0
	for i := 0; i < len(s); runes++ {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII, a byte at a time: its white space is \t-\r and ' '.
			if c == ' ' && i > 0 && s[i-1] == ' ' || '\t' <= c && c <= '\r' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) || r == utf8.RuneError {
			return false
		}
		i += size
	}
	return runes <= excerptLen
}

// describeText says how a text begins, for failure messages: `reply starts
// "Sorry, I…"` or `reply is empty`.
func describeText(what, text string) string {
	if strings.TrimSpace(text) == "" {
		return what + " is empty"
	}
	return what + " starts " + quote(excerpt(text))
}

// quote quotes s with double quotes, keeping non-ASCII text readable.
func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// withQuoted returns prefix followed by s quoted as %q quotes it
// (strconv.Quote), in one allocation when s needs no escape.
func withQuoted(prefix, s string) string {
	for i := 0; i < len(s); {
		// Printable ASCII other than the quote and the backslash, the usual
		// text, is checked a byte at a time; the rest rune by rune.
		if c := s[i]; c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == '"' || r == '\\' || r == utf8.RuneError || !strconv.IsPrint(r) {
			return prefix + strconv.Quote(s)
		}
		i += size
	}
	return prefix + `"` + s + `"`
}

// caseWord names the comparison for messages.
func caseWord(sensitive bool) string {
	if sensitive {
		return "case-sensitive"
	}
	return "case-insensitive"
}

// normalizeActionName folds the spellings of one action name together, as
// ElizaOS does: LIST_GITHUB_ISSUES, list_github_issues, listGithubIssues and
// list-github-issues all become "listgithubissues".
func normalizeActionName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '_' || r == '-' || unicode.IsSpace(r):
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// sameAction reports whether normalizeActionName(name) == norm without
// building the normalised string: trajectory checks compare every action
// of a step, and this keeps them free of allocations.
func sameAction(name, norm string) bool {
	for _, r := range name {
		if r == '_' || r == '-' || unicode.IsSpace(r) {
			continue
		}
		n, size := utf8.DecodeRuneInString(norm)
		if size == 0 || n != unicode.ToLower(r) {
			return false
		}
		norm = norm[size:]
	}
	return norm == ""
}

// containsWord reports whether lower (already lower-cased) contains phrase
// (lower-cased) as whole words: the characters either side of a match are
// not letters or digits.
func containsWord(lower, phrase string) bool {
	return indexWord(lower, phrase, 0) >= 0
}

// indexWord returns the byte offset of the first whole-word match of phrase
// in lower at or after from, or -1.
func indexWord(lower, phrase string, from int) int {
	if phrase == "" {
		return -1
	}
	for from <= len(lower) {
		i := strings.Index(lower[from:], phrase)
		if i < 0 {
			return -1
		}
		start, end := from+i, from+i+len(phrase)
		if wordBoundaryBefore(lower, start) && wordBoundaryAfter(lower, end) {
			return start
		}
		from = start + 1
	}
	return -1
}

// countWord counts the non-overlapping whole-word matches of phrase.
func countWord(lower, phrase string) int {
	n := 0
	for i := indexWord(lower, phrase, 0); i >= 0; i = indexWord(lower, phrase, i+len(phrase)) {
		n++
	}
	return n
}

func wordBoundaryBefore(s string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return !isWordRune(r)
}

func wordBoundaryAfter(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return !isWordRune(r)
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Evidence renders what a model judge sees of the evaluated step, as
// plain text with headed sections:
//
//   - results.ScopeTurn: the user message and the agent's reply of that turn, and
//     the turn's actions;
//   - a conversation (any other scope): the transcript and the actions;
//   - a code step: the code's exit code, stdout and stderr;
//   - an input step: the user's input, the agent's reply and its actions.
//
// A step error is included when there is one.
func (in Input) Evidence() string {
	st := in.StepTrace()
	var b strings.Builder
	section := func(title, body string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("## ")
		b.WriteString(title)
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(body, "\n"))
		b.WriteString("\n")
	}
	switch {
	case in.Scope == results.ScopeTurn:
		if in.Turn > 0 && st.Turns[in.Turn-1].Role == roleUser {
			section("User message", st.Turns[in.Turn-1].Text)
		}
		section("Agent reply", st.Turns[in.Turn].Text)
	case in.Scope == results.ScopeFinal || st.Kind == "conversation":
		section("Conversation transcript", st.Transcript())
	case st.Kind == "code":
		section("Exit code", strconv.Itoa(st.ExitCode))
		section("Standard output", st.Stdout)
		if st.Stderr != "" {
			section("Standard error", st.Stderr)
		}
	default:
		section("User input", st.Input)
		section("Agent reply", st.Reply)
	}
	if acts := in.Actions(); len(acts) > 0 {
		var ab strings.Builder
		for i, a := range acts {
			fmt.Fprintf(&ab, "%d. %s", i+1, a.Name)
			if len(a.Args) > 0 {
				ab.WriteString(" ")
				ab.WriteString(show(a.Args))
			}
			switch {
			case a.Error != "":
				ab.WriteString(" → error: ")
				ab.WriteString(a.Error)
			case a.Result != nil:
				ab.WriteString(" → ")
				ab.WriteString(show(a.Result))
			}
			ab.WriteString("\n")
		}
		section("Actions", ab.String())
	}
	if st.Error != "" {
		section("Step error", st.Error)
	}
	return b.String()
}
