package termsafe

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHiddenRunesAreShown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain text\nwith\ttabs", "plain text\nwith\ttabs"},
		{"title \x1b]0;pwned\x07 done", `title \x1b]0;pwned\x07 done`},
		{"erase\x1b[2J", `erase\x1b[2J`},
		{"over\rwrite", `over\x0dwrite`},
		{"csi \u009b31m", `csi \u009b31m`},
		{"bidi \u202eevil\u202c and \u2066iso\u2069", `bidi \u202eevil\u202c and \u2066iso\u2069`},
		{"marks \u200e\u200f\u061c", `marks \u200e\u200f\u061c`},
		{"del \x7f nul \x00", `del \x7f nul \x00`},
		{"ok: é – “quotes” …", "ok: é – “quotes” …"},
		{"bad utf8 \xff\xfe", "bad utf8 \xff\xfe"},
	} {
		assert.Equal(t, tc.want, String(tc.in), "%q", tc.in)
		var b bytes.Buffer
		_, err := Writer(&b).Write([]byte(tc.in))
		assert.NoError(t, err)
		assert.Equal(t, tc.want, b.String())
	}
	var b bytes.Buffer
	_, _ = TerminalWriter(&b).Write([]byte(ClearLine + "3/5 jobs\x1b[H"))
	assert.Equal(t, ClearLine+`3/5 jobs\x1b[H`, b.String())
}

func FuzzString(f *testing.F) {
	f.Add("a\x1b[31mb\u202e")
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		for _, r := range out {
			if hidden(r) {
				t.Fatalf("%q kept hidden rune %U", out, r)
			}
		}
	})
}
