package scenario

import (
	"slices"
	"strings"
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
	return sharedWord(s, candidates)
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

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return max(len(ra), len(rb)) // too long to be a misspelt name
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
