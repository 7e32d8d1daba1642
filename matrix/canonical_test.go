package matrix

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzCanonicalString holds canonicalJSON's quick path for strings to the
// bytes encoding/json writes (with HTML escaping off): combination ids hash
// them, so one byte of difference would change every id.
func FuzzCanonicalString(f *testing.F) {
	for _, s := range []string{"", "Question 1: what is topic-1?", "a\"b\\c", "<&>", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "héllo 世界"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := canonicalJSON(s)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Fatalf("canonicalJSON(%q) = %s, encoding/json gives %s", s, got, w)
		}
	})
}
