package redact

import (
	"unicode/utf8"
)

// Ellipsis marks where a text was cut. A [Redactor] masks any part of a
// secret, at least [MinPartial] bytes long, that touches it: the prefix of
// a secret that ends where a text was cut, the suffix that starts where a
// text resumes, or a piece of one between two cuts. So an excerpt cut in
// the middle of a secret shows none of it, whether or not the cutter knew
// the secret. Every excerpt agenteval writes is cut with [Head] or [Tail].
const Ellipsis = "…"

// MinPartial is the shortest part of a secret masked at an [Ellipsis]: a
// shorter piece says too little to guess the rest, and masking every one-
// or two-byte coincidence would garble ordinary text.
const MinPartial = 3

// Head returns s when it has at most n bytes, else its first bytes up to n
// (cut on a rune boundary) followed by [Ellipsis].
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + Ellipsis
}

// Tail returns s when it has at most n bytes, else [Ellipsis] followed by
// its last bytes up to n (cut on a rune boundary).
func Tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - max(n, 0)
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return Ellipsis + s[cut:]
}
