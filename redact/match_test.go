package redact

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// occurrences is what table.each must report, found the slow way: every
// position of b where an entry's text begins.
func occurrences(t *table, b []byte) []string {
	var out []string
	entries := slices.Clone(marks)
	for _, s := range t.secrets {
		entries = append(entries, entry{text: []byte(s)})
	}
	for i := range b {
		for _, e := range entries {
			if bytes.HasPrefix(b[i:], e.text) {
				out = append(out, fmt.Sprintf("%d:%s", i, e.text))
			}
		}
	}
	slices.Sort(out)
	return out
}

func found(t *table, b []byte) []string {
	var out []string
	t.each(b, func(i int, e *entry) { out = append(out, fmt.Sprintf("%d:%s", i, e.text)) })
	slices.Sort(out)
	return out
}

// FuzzEachFindsEveryOccurrenceOnce: the table's scan of every other
// position reports each occurrence of each entry exactly once, at odd and
// even offsets, overlapping, at both ends of the text.
func FuzzEachFindsEveryOccurrenceOnce(f *testing.F) {
	f.Add("hunter22", "xhunter22hunter22 Authorization: token ghp_x github_pat_ sk-")
	f.Add("aaaaaa", "aaaaaaaaaaaaa")
	f.Add("abcabc", "zabcabcabcabc")
	f.Add("secret", "AUTHORIZATION uthorization gh ghs_ghr_ sk-sk-")
	f.Fuzz(func(t *testing.T, secret, text string) {
		tab := patternsOnly
		if len(secret) >= minLen {
			tab = newTable([]string{secret})
		}
		want, got := occurrences(tab, []byte(text)), found(tab, []byte(text))
		if !slices.Equal(want, got) {
			t.Fatalf("secret %q in %q: each found %v, want %v", secret, text, got, want)
		}
	})
}
