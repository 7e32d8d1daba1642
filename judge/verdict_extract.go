package judge

import (
	"encoding/json"
	"iter"
	"strings"
	"unicode"
)

// maxObjectStarts bounds how many '{' positions jsonObjects tries, so a
// long answer full of braces costs linear, not quadratic, time.
const maxObjectStarts = 16

// jsonObjects yields the JSON objects embedded in text, in order of their
// opening brace: objects in code fences, after prose, or with trailing
// commas. Objects nested in a yielded one are yielded too, after it, which
// lets the caller find a verdict wrapped in an envelope.
func jsonObjects(text string) iter.Seq[map[string]any] {
	return func(yield func(map[string]any) bool) {
		starts := 0
		for i := 0; i < len(text) && starts < maxObjectStarts; i++ {
			if text[i] != '{' {
				continue
			}
			starts++
			end, ok := matchBrace(text, i)
			if !ok {
				// Unbalanced (truncated) from here on; later starts are
				// inside this one and unbalanced too, except nested
				// complete objects, which are still worth a look.
				continue
			}
			if obj, ok := decodeObject(text[i : end+1]); ok {
				if !yield(obj) {
					return
				}
			}
		}
	}
}

// matchBrace returns the index of the brace closing the one at start,
// skipping braces inside JSON strings.
func matchBrace(s string, start int) (int, bool) {
	depth := 0
	inString := false
	for i := start; i < len(s); i++ {
		c := s[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i, c == '}'
			}
			if depth < 0 {
				return 0, false
			}
		}
	}
	return 0, false
}

func decodeObject(s string) (map[string]any, bool) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(s), &obj); err == nil && obj != nil {
		return obj, true
	}
	fixed := dropTrailingCommas(s)
	if fixed == s {
		return nil, false
	}
	if err := json.Unmarshal([]byte(fixed), &obj); err == nil && obj != nil {
		return obj, true
	}
	return nil, false
}

// dropTrailingCommas removes commas that directly precede a closing brace
// or bracket outside strings, the most common way models break JSON.
func dropTrailingCommas(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			b.WriteByte(c)
			switch c {
			case '\\':
				if i+1 < len(s) {
					i++
					b.WriteByte(s[i])
				}
			case '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
		}
		if c == ',' {
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// answerLabels introduce a verdict word in prose ("Verdict: PASS").
var answerLabels = []string{"final verdict", "verdict", "final answer", "answer", "judgment", "judgement", "result", "pass"}

// plainAnswer reads an answer without JSON: a leading yes/no or pass/fail
// word, a labelled one anywhere ("Verdict: fail"), or a closing one
// ("... so the answer is yes."). Looser guesses such as counting "yes" in
// the text are avoided on purpose: prose says "no" for many reasons.
func plainAnswer(text string) (rawVerdict, bool) {
	lower := strings.ToLower(text)
	words := strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) == 0 {
		return rawVerdict{}, false
	}
	found := func(b bool) (rawVerdict, bool) {
		return rawVerdict{pass: &b, reasoning: strings.TrimSpace(text)}, true
	}
	if b, ok := strictWord(words[0]); ok {
		return found(b)
	}
	for _, label := range answerLabels {
		idx := strings.Index(lower, label+":")
		if idx < 0 {
			continue
		}
		tail := lower[idx+len(label)+1:]
		if len(tail) > 40 {
			tail = tail[:40] // the verdict word follows the label closely
		}
		rest := strings.FieldsFunc(tail, func(r rune) bool { return !unicode.IsLetter(r) })
		if len(rest) > 0 {
			if b, ok := strictWord(rest[0]); ok {
				return found(b)
			}
		}
	}
	if b, ok := strictWord(words[len(words)-1]); ok {
		return found(b)
	}
	return rawVerdict{}, false
}

// strictWord accepts only unambiguous verdict words; "met" or "n" are fine
// as JSON values but too common as prose words.
func strictWord(w string) (bool, bool) {
	switch w {
	case "yes", "pass", "passed", "true", "correct":
		return true, true
	case "no", "fail", "failed", "false", "incorrect":
		return false, true
	}
	return false, false
}
