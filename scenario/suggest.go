package scenario

import (
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// Suggest returns the candidate nearest to s by edit distance when it is near
// enough to be a likely misspelling, and "" otherwise.
func Suggest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(s, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 {
		return ""
	}
	// Allow roughly one edit in three characters, at least two; a wholly
	// different word is no suggestion.
	limit := max(2, len([]rune(s))/3)
	if bestD == 0 {
		return ""
	}
	if bestD <= limit {
		return best
	}
	if c := sharedStem(s, candidates); c != "" {
		return c
	}
	return sharedWord(s, candidates)
}

// sharedStem returns the one candidate that begins like s for most of its
// length (strategy → strategies, evaluation → evaluations): an inflected
// form is far in edits but plainly meant. "" when none or several do.
func sharedStem(s string, candidates []string) string {
	rs := []rune(strings.ToLower(s))
	need := max(4, len(rs)*3/4)
	found := ""
	for _, c := range candidates {
		rc := []rune(strings.ToLower(c))
		n := 0
		for n < len(rs) && n < len(rc) && rs[n] == rc[n] {
			n++
		}
		if n >= need {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

// sharedWord returns the one candidate that shares the most words (split
// on _ - . and space) with s, so that response_time suggests
// execution_time; "" when none or several tie.
func sharedWord(s string, candidates []string) string {
	words := func(x string) []string {
		return strings.FieldsFunc(strings.ToLower(x), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	}
	mine := words(s)
	best, bestN, tie := "", 0, false
	for _, c := range candidates {
		n := 0
		for _, w := range words(c) {
			if len(w) > 2 && slices.Contains(mine, w) {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = c, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// editDistance is textdist.Distance, the measure every suggestion uses.
func editDistance(a, b string) int { return textdist.Distance(a, b) }
