package judge

import (
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// closest returns the candidate nearest to name by edit distance when it is
// near enough to be a plausible typo: at most a third of the longer string,
// and at least 2 edits allowed so short names still get suggestions.
// A unique prefix also counts ("majority" suggests "majority_pass").
// Comparison ignores case and treats '-' and ' ' like '_', since
// "majority-pass" and "Majority Pass" are obviously meant.
func closest(name string, candidates []string) string {
	norm := func(s string) string {
		return strings.NewReplacer("-", "_", " ", "_").Replace(strings.ToLower(strings.TrimSpace(s)))
	}
	n := norm(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		d := levenshtein(n, norm(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	limit := max(2, max(len([]rune(n)), len([]rune(best)))/3)
	if bestDist <= limit {
		return best
	}
	// A shortened name ("majority" for "majority_pass") is far in edits but
	// plainly meant; accept a unique prefix of three or more characters.
	if len(n) >= 3 {
		var match string
		for _, c := range candidates {
			if strings.HasPrefix(norm(c), n) {
				if match != "" {
					return ""
				}
				match = c
			}
		}
		return match
	}
	return ""
}

// levenshtein is textdist.Distance, the measure every suggestion uses.
func levenshtein(a, b string) int { return textdist.Distance(a, b) }
