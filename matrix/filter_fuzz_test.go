package matrix

import (
	"strings"
	"testing"
)

// FuzzParseFilterAndShard feeds arbitrary --filter and --shard text: no
// panic, and a parsed filter prints its text back.
func FuzzParseFilterAndShard(f *testing.F) {
	for _, s := range []string{`run[0].input="Question 3: x?"`, "judgment.strategy=all_pass", `a["b.c"]=[1, {x: y}]`, "x=", "=y", "2/5", "0/1", "9999999999999999999/1", "1/-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if flt, err := parseFilter(s); err == nil && flt.String() == "" {
			t.Fatalf("filter %q parsed but prints empty", s)
		}
		if sh, err := ParseShard(s); err == nil {
			if sh.Index < 1 || sh.Index > sh.Count || sh.String() != strings.TrimSpace(s) {
				t.Fatalf("shard %q parsed to %+v", s, sh)
			}
			if sh.Size(1000) > 1000 {
				t.Fatalf("shard %q owns more than the run", s)
			}
		}
	})
}
