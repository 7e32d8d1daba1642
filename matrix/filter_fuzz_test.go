package matrix

import "testing"

// FuzzParseFilterAndShard feeds arbitrary --filter and --shard text: no
// panic, and a parsed filter prints its text back.
func FuzzParseFilterAndShard(f *testing.F) {
	for _, s := range []string{`run[0].input="Question 3: x?"`, "judgment.strategy=all_pass", `a["b.c"]=[1, {x: y}]`, "x=", "=y", "2/5", "0/1", "9999999999999999999/1", "1/-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if flt, err := ParseFilter(s); err == nil && flt.String() == "" {
			t.Fatalf("filter %q parsed but prints empty", s)
		}
		if sh, err := ParseShard(s); err == nil && (sh.Index < 1 || sh.Index > sh.Count) {
			t.Fatalf("shard %q parsed to %+v", s, sh)
		}
	})
}
