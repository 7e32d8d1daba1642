package yamlfast

import (
	"testing"
)

// checkAgainstV3 fails when Parse returns a tree for data that differs
// from yaml.v3's, or returns one where yaml.v3 fails or reads more than
// one document.
func checkAgainstV3(t *testing.T, data []byte) (handled bool) {
	t.Helper()
	got, ok := Parse(data)
	if !ok {
		return false
	}
	want, err, single := decodeV3(data)
	if err != nil {
		t.Fatalf("fast path accepted a text yaml.v3 rejects (%v):\n%q\n%s", err, data, dump(got))
	}
	if !single {
		t.Fatalf("fast path accepted a text of several documents:\n%q", data)
	}
	if d := diff(want, got, ""); d != "" {
		t.Fatalf("trees differ for\n%q\n%s\nwant:\n%sgot:\n%s", data, d, dump(want), dump(got))
	}
	return true
}

func FuzzParse(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkAgainstV3(t, data)
	})
}
