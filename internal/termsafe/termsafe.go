// Package termsafe shows what would otherwise act on a terminal or fool a
// reader: control characters (C0 but newline and tab, DEL, C1) and the
// Unicode controls that reorder or hide text (bidirectional overrides,
// embeddings, isolates and marks) are written as visible escapes (\x1b,
// \u202e). Text from outside (agent output, GitHub's error messages,
// scenario names) reaches the CLI's streams and the Markdown, HTML and
// JUnit reports only through it, so it can neither move the cursor,
// rewrite a line, set a window title nor reverse what a reader sees.
package termsafe

import (
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// ClearLine is the one sequence let through: agenteval's own progress
// line redraws itself with it ("\r" then erase the line).
const ClearLine = "\r\x1b[K"

// hidden reports whether r is escaped.
func hidden(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// suspect reports whether b may start a hidden rune: a C0 byte, DEL, or
// the first byte of the UTF-8 encodings of C1, U+061C or U+20xx.
func suspect(c byte) bool {
	return c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0xc2 || c == 0xd8 || c == 0xe2
}

// needs reports whether b holds anything to escape, quickly.
func needs(b []byte) bool {
	for _, c := range b {
		if suspect(c) {
			return true
		}
	}
	return false
}

// appendEscaped appends b to out with every hidden rune escaped, and
// ClearLine kept when keepClear.
func appendEscaped(out, b []byte, keepClear bool) []byte {
	for i := 0; i < len(b); {
		if keepClear && bytes.HasPrefix(b[i:], []byte(ClearLine)) {
			out = append(out, ClearLine...)
			i += len(ClearLine)
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			out = append(out, b[i])
		case !hidden(r):
			out = append(out, b[i:i+n]...)
		case r < 0x80:
			out = fmt.Appendf(out, `\x%02x`, r)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// String returns s with every hidden rune escaped.
func String(s string) string {
	if !needs([]byte(s)) {
		return s
	}
	return string(appendEscaped(nil, []byte(s), false))
}

// Writer returns a writer that escapes what it passes on to w. A rune
// split across two writes is judged in pieces, so give it whole lines or
// records (as fmt.Fprintf and encoders write), not arbitrary cuts.
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

// TerminalWriter is Writer for a terminal stream agenteval draws its
// progress line on: ClearLine passes unchanged.
func TerminalWriter(w io.Writer) io.Writer { return &writer{w: w, keepClear: true} }

type writer struct {
	w         io.Writer
	keepClear bool
}

func (w *writer) Write(p []byte) (int, error) {
	if !needs(p) {
		return w.w.Write(p)
	}
	if _, err := w.w.Write(appendEscaped(make([]byte, 0, len(p)+16), p, w.keepClear)); err != nil {
		return 0, err
	}
	return len(p), nil
}
