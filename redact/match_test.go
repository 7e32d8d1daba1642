package redact

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
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
	t.each(b, 0, func(i int, e *entry) { out = append(out, fmt.Sprintf("%d:%s", i, e.text)) })
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
	f.Add("password9", "password password9 xpassword9password9 authorization size")
	f.Fuzz(func(t *testing.T, secret, text string) {
		tab := patternsOnly
		if len(secret) >= minLen {
			tab = newTable([]string{secret}, nil)
		}
		want, got := occurrences(tab, []byte(text)), found(tab, []byte(text))
		if !slices.Equal(want, got) {
			t.Fatalf("secret %q in %q: each found %v, want %v", secret, text, got, want)
		}
	})
}

// TestTableFindsEveryEntryAmongMany: with many secrets the pairs set span
// many words of the bitset, and each is found by its rank among them.
func TestTableFindsEveryEntryAmongMany(t *testing.T) {
	t.Parallel()
	var secrets []string
	var text bytes.Buffer
	for i := range 200 {
		s := fmt.Sprintf("%c%csecret-%03d", 'A'+i%26, 'a'+i*7%26, i)
		secrets = append(secrets, s)
		fmt.Fprintf(&text, "[%s]%s ", s[:4], s)
	}
	tab := newTable(secrets, nil)
	text.WriteString("Authorization: token ghp_0123 sk-x")
	assert.Equal(t, occurrences(tab, text.Bytes()), found(tab, text.Bytes()))
	assert.Len(t, found(tab, text.Bytes()), 200+3) // and uthorization, ghp_, sk-
}

// TestProseAnchor: a secret is anchored past its leading lower-case
// letters, where its pairs are rarer in the text around it.
func TestProseAnchor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		secret string
		want   int
	}{{"hunter22", 5}, {"password", 0}, {"Xyzzy123", 4}, {"ab_cdefg", 1}, {"abcd-efg", 3}, {"sk-bench", 1}} {
		assert.Equal(t, c.want, proseAnchor(c.secret), c.secret)
	}
}
