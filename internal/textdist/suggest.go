package textdist

import (
	"slices"
	"strings"
)

// Suggest returns the candidate s most likely misspells, or "" when s is a
// candidate itself or none is near enough to be meant. It tries, in order:
// the nearest candidate by edit distance within about one edit in three
// characters; the same ignoring case and treating '-' and ' ' as '_'
// ("All-Pass" means all_pass); the one candidate that s begins, or that
// begins like s for most of its length (majority → majority_pass, strategy
// → strategies); and the one candidate sharing the most words with s
// (response_time → execution_time).
func Suggest(s string, candidates []string) string {
	if len(candidates) == 0 || slices.Contains(candidates, s) {
		return ""
	}
	best, bestD := nearest(s, candidates, func(x string) string { return x })
	if bestD <= max(2, len([]rune(s))/3) {
		return best
	}
	n := normalize(s)
	best, bestD = nearest(n, candidates, normalize)
	if bestD <= max(2, max(len([]rune(n)), len([]rune(normalize(best))))/3) {
		return best
	}
	if c := sharedStem(n, candidates); c != "" {
		return c
	}
	return sharedWord(s, candidates)
}

// normalize folds case and writes '-' and ' ' as '_'.
func normalize(s string) string {
	return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
}

// nearest returns the candidate whose form is nearest to s.
func nearest(s string, candidates []string, form func(string) string) (string, int) {
	best, bestD := "", -1
	for _, c := range candidates {
		if d := Distance(s, form(c)); bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// sharedStem returns the one candidate that begins like s (normalized) for
// most of s's length, or that s of four or more characters is a prefix
// of; "" when none or several do.
func sharedStem(s string, candidates []string) string {
	rs := []rune(s)
	need := max(4, len(rs)*3/4)
	found := ""
	for _, c := range candidates {
		rc := []rune(normalize(c))
		n := 0
		for n < len(rs) && n < len(rc) && rs[n] == rc[n] {
			n++
		}
		if n >= min(need, len(rs)) && n >= 4 {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

// sharedWord returns the one candidate that shares the most words (split
// on _ - . and space) with s; "" when none or several tie.
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
