package redact_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agenteval/agenteval/redact"
)

// FuzzJSONStaysValid: masking JSON text keeps it valid JSON with the same
// keys and numbers, and leaves no secret in a string value.
func FuzzJSONStaysValid(f *testing.F) {
	f.Add("hunter22", "the password is hunter22, Authorization: Bearer hunter22")
	f.Add(`p"a\ss<w>`, `x p"a\ss<w> y`)
	f.Add("nabcdef", "\nabcdef")
	f.Add("abcdef\\", "abcdef\\\"")
	f.Add("123456", "1234567")
	f.Add("00000000", "00000\x1000000000000040000000")
	f.Add("record", "record")
	f.Add("ghp_", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB")
	f.Fuzz(func(t *testing.T, secret, text string) {
		r := redact.New(secret)
		in, err := json.Marshal(map[string]any{"record": "job", "id": text, "n": 1234567, "m": map[string]any{text: []string{text, "k" + text}}})
		if err != nil {
			return
		}
		out := r.JSON(in)
		var before, after map[string]any
		if err := json.Unmarshal(in, &before); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("masked JSON is invalid: %v\n%s", err, out)
		}
		keys := func(m map[string]any) []string {
			var ks []string
			for k := range m {
				ks = append(ks, k)
			}
			slices.Sort(ks)
			return ks
		}
		inner := func(m map[string]any) map[string]any { x, _ := m["m"].(map[string]any); return x }
		if !slices.Equal(keys(before), keys(after)) || !slices.Equal(keys(inner(before)), keys(inner(after))) || after["n"] != before["n"] {
			t.Fatalf("keys or numbers changed:\n%s\n%s", in, out)
		}
		if len(secret) < redact.MinLen || !utf8.ValidString(secret) || strings.ContainsAny(secret, redact.Mask) {
			return // masking may join a secret made of the mask's own letters
		}
		for _, v := range []any{after["id"], inner(after)[text]} {
			b, _ := json.Marshal(v)
			var s []string
			_ = json.Unmarshal(b, &s)
			if str, ok := v.(string); ok {
				s = append(s, str)
			}
			for _, x := range s {
				if strings.Contains(x, secret) {
					t.Fatalf("secret %q left in %q", secret, x)
				}
			}
		}
	})
}

// FuzzBytesMasksEverySecret: on any text, Bytes leaves no known secret
// and no token-shaped string, and never panics.
func FuzzBytesMasksEverySecret(f *testing.F) {
	f.Add("hunter22", "Authorization: Bearer hunter22")
	f.Add("x", "authorization=")
	f.Add("abcdefgh", "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB sk-proj-")
	f.Fuzz(func(t *testing.T, secret, text string) {
		out := string(redact.New(secret).Bytes([]byte(text)))
		if len(secret) >= redact.MinLen && !strings.ContainsAny(secret, redact.Mask) && strings.Contains(out, secret) {
			t.Fatalf("secret %q left in %q", secret, out)
		}
	})
}
