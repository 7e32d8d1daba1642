package yamlfast

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// plainTextByByte is plainText one character at a time: the reference for
// its eight-byte steps.
func plainTextByByte(data []byte) (lines int, crlf, ascii, ok bool) {
	ascii = true
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
				lines++
			case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
				crlf = true
			case c < 0x20 || c == 0x7f:
				return 0, false, false, false
			}
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return 0, false, false, false
		case r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
			return 0, false, false, false
		}
		i += size
	}
	return lines, crlf, ascii, true
}

// TestEightByteScans holds plainText and quoteStop to a byte-at-a-time
// reading, on texts that put every interesting byte at every offset of a
// word.
func TestEightByteScans(t *testing.T) {
	t.Parallel()
	special := []string{"\n", "\r\n", "\r", "\t", "\x00", "\x1f", " ", "\x7f", "\x80", "é", "\u0085", "\u2028", "\ufeff", "\"", "\\", "~", "@", "\n\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 20_000 {
		var b strings.Builder
		for range rng.IntN(40) {
			if rng.IntN(4) == 0 {
				b.WriteString(special[rng.IntN(len(special))])
			} else {
				b.WriteByte(byte(' ' + rng.IntN(95)))
			}
		}
		s := b.String()
		l1, c1, a1, ok1 := plainText([]byte(s))
		l2, c2, a2, ok2 := plainTextByByte([]byte(s))
		require.Equal(t, []any{l2, c2, a2, ok2}, []any{l1, c1, a1, ok1}, "plainText(%q), case %d", s, n)
		for i := 0; i <= len(s); i++ {
			want := i + strings.IndexAny(s[i:], "\"\\\n")
			if want < i {
				want = len(s)
			}
			require.Equal(t, want, quoteStop(s, i), "quoteStop(%q, %d)", s, i)
		}
	}
}
