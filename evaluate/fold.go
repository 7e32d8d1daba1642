package evaluate

import (
	"unicode"
	"unicode/utf8"
)

// containsFold reports whether substr occurs in s under Unicode simple case
// folding. It avoids lower-casing the whole text, which for a long
// transcript would copy it on every check.
func containsFold(s, substr string) bool {
	if substr == "" {
		return true
	}
	// When the needle starts with an ASCII byte other than K and S (whose
	// folds include the Kelvin and long-s signs), a candidate must start
	// with that byte in either case, which rules out most positions
	// cheaply.
	first := substr[0]
	quick := first < utf8.RuneSelf && lowerASCII(first) != 'k' && lowerASCII(first) != 's'
	lo, up := lowerASCII(first), upperASCII(first)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quick {
			if c != lo && c != up {
				continue
			}
		} else if !utf8.RuneStart(c) {
			continue
		}
		if hasPrefixFold(s[i:], substr) {
			return true
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with prefix under case folding.
func hasPrefixFold(s, prefix string) bool {
	for prefix != "" {
		if s == "" {
			return false
		}
		a, b := s[0], prefix[0]
		if a < utf8.RuneSelf && b < utf8.RuneSelf {
			if a != b && lowerASCII(a) != lowerASCII(b) {
				return false
			}
			s, prefix = s[1:], prefix[1:]
			continue
		}
		ra, na := utf8.DecodeRuneInString(s)
		rb, nb := utf8.DecodeRuneInString(prefix)
		if !equalFoldRune(ra, rb) {
			return false
		}
		s, prefix = s[na:], prefix[nb:]
	}
	return true
}

// equalFoldRune reports whether a and b are equal under simple folding.
func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for r := unicode.SimpleFold(a); r != a; r = unicode.SimpleFold(r) {
		if r == b {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
