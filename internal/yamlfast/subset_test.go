package yamlfast

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSubset lists what the fast path takes (each compared with yaml.v3's
// tree) and what it leaves to yaml.v3.
func TestSubset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		text    string
		handled bool
	}{
		{"mapping", "a: 1\nb: two\n", true},
		{"no final newline", "a: 1\nb: two", true},
		{"leading document marker", "---\na: 1\n", true},
		{"document marker with a comment", "--- # c\na: 1\n", true},
		{"comments and blank lines", "# head\n\na: 1 # line\n  # indented\n\nb: 2\n# foot\n", true},
		{"nested mappings", "a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
		{"sequence under a key", "a:\n  - x\n  - y\n", true},
		{"compact sequence under a key", "a:\n- x\n- y\nb: z\n", true},
		{"mapping in a sequence", "- a: 1\n  b: 2\n- c: 3\n", true},
		{"sequence in a sequence", "- - a\n  - b\n- c\n", true},
		{"value on the next line", "a:\n  [x, y]\nb:\n  'z'\nc:\n  plain\n", true},
		{"entry on the next line", "-\n  a: 1\n-\n  - b\n", true},
		{"empty values", "a:\nb:   # c\nc: [x]\nd:\n- \n-\n", true},
		{"flow collections", "a: [1, 'two', \"three\", [4], {five: 5}]\nb: {type: string_contains, value: \"topic-\"}\nc: []\nd: {}\n", true},
		{"JSON-like flow mapping", "a: {\"k\":1, \"l\" : [true,null]}\n", true},
		{"spaces in flow", "a: [ x , y ]\n", true},
		{"multi-line flow", "a: [\n  1, 2]\n", true},
		{"comments in flow", "a: [1, # c\n  2 # d\n# e\n]\n", true},
		{"prettier's long flow", "k:\n  required:\n    [\n      id,\n      path,\n      \"line\"\n    ]\n  m: {\n    a: 1,\n    b:\n      [x]\n  }\nnext: 1\n", true},
		{"flow lines less indented than the block", "a:\n  b: [x,\ny]\n  c: 1\n", true},
		{"single-quoted", "a: 'it''s # not a comment'\n'b c': ''\n", true},
		{"double-quoted escapes", "a: \"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\'\\\\\\N\\_\\L\\P\\x41\\u00e9\\U0001F600\"\n", true},
		{"quoted key with spaces before the colon", "\"a\" : 1\n", true},
		{"multi-line quoted scalars", "a: \"multi  \n  line\n\n   \n  text \"\nb: 'it''s\n\n  two'\nc: [\"x\n y\", 'z\n w']\n", true},
		{"escaped line breaks", "a: \"x\\\n  y\\\n\n  z\\\n\"\n", true},
		{"quoted continuation lines less indented", "a:\n  b: \"x\ny\"\n  c: 1\n", true},
		{"plain scalars with indicators inside", "a: b:c, d#e [f] {g} - h ? i\nurl: http://x.y/z?q=1#frag\n", true},
		{"plain scalar with inner spaces", "a: b   c  \n", true},
		{"sequence entry after a mapping", "a: multi\n  line\n- x\n", false},
		{"multi-line plain scalars", "a: multi  \n  line\n\n   \n  text # c\nb:\n  on the\n  next line\nc: 1\n  2\n", true},
		{"key after a sequence", "- a\n  b\nl:\n- g\n", false},
		{"multi-line plain scalars in sequences", "- a\n  b\n- - c\n    d\n- k: e\n    f\n", true},
		{"multi-line plain scalar ended by a comment line", "a: b\n  c\n  # d\ne: f\n", true},
		{"key with spaces before the colon", "a b  : c\n", true},
		{"tags of plain scalars", "- ~\n- null\n- NULL\n- true\n- False\n- yes\n- no\n- on\n- 0x1F\n- 0o17\n- 0b101\n- -0b11\n- 017\n- 1_000\n- +1\n- -1.5e3\n- .5\n- 1.\n- .inf\n- -.Inf\n- .NaN\n- 1e5\n- 0.0.1\n- 18446744073709551615\n- 18446744073709551616\n- +.5e-3\n", true},
		{"multi-byte characters count as one column", "é: ü\n日本語: [語, \"é\"]\n", true},
		{"literal block scalars", "a: |\n  one\n    two\n\n  three\nb: |-\n  x\n\nc: |+\n  y\n\n\nd: end\n", true},
		{"folded block scalars", "a: >\n  folded\n  text\n\n  para\n   more\n  end\nb: >-\n  x\n  y\n", true},
		{"block scalar with leading blank lines", "a: |\n\n  text\n", true},
		{"block scalar with a comment and lines of spaces", "a: | # c\n  x\n     \n  y\n", true},
		{"block scalar in a sequence", "- |\n  x\n- >-\n  y\n", true},
		{"block scalar at the end without a newline", "a: |\n  x", true},
		{"CRLF line ends", "a: 1\r\nb: |\r\n  x  \r\n\r\n  y\r\nc: >-\r\n  p\r\n  q\r\nd: [e,\r\n  f] # g\r\nh: i\r\n  j\r\n", true},
		{"compact sequence in a mapping in a sequence", "- a:\n  - b\n  c: d\n- e\n", true},
		{"indented root", "  a: 1\n  b: [x]\n", true},
		{"keys that are not text", "1: a\nnull: b\ntrue: c\n-a: d\n", true},
		{"block scalar keeping trailing lines of spaces", "a: |+\n  x\n   \n\n", true},
		{"folded block scalar with more-indented lines", "a: >\n  x\n    y\n  z\n\n  w\n", true},
		{"long quoted key", "\"" + strings.Repeat("k", 1100) + "\": v\n", false},
		{"long flow key", "a: {" + strings.Repeat("k", 1100) + ": v}\n", false},
		{"long value", "a: " + strings.Repeat("v", 5000) + "\n", true},

		{"empty", "", false},
		{"only comments", "# c\n\n# d\n", false},
		{"scalar document", "plain\n", false},
		{"flow document", "{a: 1}\n", false},
		{"tag", "a: !!str 1\n", false},
		{"anchor and alias", "a: &x 1\nb: *x\n", false},
		{"merge key", "<<: {a: 1}\n", false},
		{"timestamp-like", "a: 2001-12-14\n", false},
		{"continuation starting with an indicator", "a: b\n  - c\n", false},
		{"key on a continuation line", "a: b\n  c: d\n", false},
		{"continuation after a comment", "a: b # c\n  d\n", false},
		{"multi-line quoted key", "\"a\n  b\": c\n", false},
		{"document marker in a quoted scalar", "a: \"b\n---\n\"\n", false},
		{"unterminated multi-line quoted scalar", "a: 'b\n  c\n", false},
		{"tab", "a:\tb\n", false},
		{"lone carriage return", "a: 1\rb: 2\n", false},
		{"carriage return inside a line", "a: 1\r 2\n", false},
		{"byte order mark", "\ufeffa: 1\n", false},
		{"line separator", "a: b\u2028c\n", false},
		{"control character", "a: \x01\n", false},
		{"invalid UTF-8", "a: \xff\n", false},
		{"second document", "a: 1\n---\nb: 2\n", false},
		{"document end", "a: 1\n...\n", false},
		{"directive", "%YAML 1.2\n---\na: 1\n", false},
		{"complex key", "? complex\n: key\n", false},
		{"flow key", "[a]: b\n", false},
		{"trailing comma", "a: [1, 2,]\n", false},
		{"flow mapping without a value", "a: {b}\n", false},
		{"single pair in a flow sequence", "a: [b: c]\n", false},
		{"multi-line plain scalar in flow", "a: [b\n  c]\n", false},
		{"key and colon on two lines in flow", "a: {b\n  : c}\n", false},
		{"comment right after a token in flow", "a: [b,#c\n  d]\n", false},
		{"document marker in flow", "a: [b,\n---\n]\n", false},
		{"unterminated flow", "a: [b,\n", false},
		{"explicit indentation", "key: |2\n   text\n", false},
		{"leading blank line longer than the text", "key: |\n\n     \n  text\n", false},
		{"empty block scalar", "a: |\nb: 1\n", false},
		{"unknown escape", "a: \"\\/\"\n", false},
		{"surrogate escape", "a: \"\\ud800\"\n", false},
		{"text after a quoted scalar", "k: \"a\" b\n", false},
		{"mapping value in a value", "a: b: c\n", false},
		{"bad indentation", "a: 1\n b: 2\n", false},
		{"sequence then key at its indentation", "a:\n  - b\n  c: d\n", false},
		{"reserved indicator", "a: @b\n", false},
		{"no space after the colon", "a:b\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.handled, checkAgainstV3(t, []byte(tt.text)))
		})
	}
}
