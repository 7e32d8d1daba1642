package matrix

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCanonSetMatchesMap feeds canonSet random values, many of them
// repeated and some empty, and checks each answer against a map of first
// occurrences.
func TestCanonSetMatchesMap(t *testing.T) {
	t.Parallel()
	seed := uint64(os.Getpid())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 15))
	for range 200 {
		n := r.IntN(300)
		distinct := 1 + r.IntN(n+1)
		var text []byte
		spans := make([]span, n)
		set := newCanonSet(n)
		first := map[string]int{}
		for j := range n {
			start := len(text)
			v := fmt.Sprint(r.IntN(distinct))
			text = fmt.Appendf(text, "%q", v[:r.IntN(len(v)+1)])
			spans[j] = span{start, len(text)}
			key := string(text[start:])
			prev, dup := set.add(text, spans, j)
			want, seen := first[key]
			require.Equal(t, seen, dup, "value %d %s", j, key)
			if seen {
				assert.Equal(t, want, prev, "value %d %s", j, key)
			} else {
				first[key] = j
			}
		}
	}
}

// TestCompileRepeatedTexts: on a free-text axis, repeated texts are
// reported at each repeat, naming the first occurrence (even one refused
// for another reason), and a text never repeats a value of another type.
func TestCompileRepeatedTexts(t *testing.T) {
	t.Parallel()
	_, f := loadMatrix(t, oneAxis("run[0].input", `[a, "2", 2, b, a, 'a', b, "", ""]`))
	p, diags := Compile(f, Options{})
	require.Nil(t, p)
	var got []string
	for _, d := range diags.Errors() {
		got = append(got, fmt.Sprintf("%s %s: %s", d.Path, d.Code, d.Message))
	}
	assert.Equal(t, []string{
		"matrix[0].values[2] type: run[0].input: got number, want string",
		"matrix[0].values[4] duplicate-value: run[0].input: value \"a\" is already given as values[0]; repeated values would make the same combination twice",
		"matrix[0].values[5] duplicate-value: run[0].input: value \"a\" is already given as values[0]; repeated values would make the same combination twice",
		"matrix[0].values[6] duplicate-value: run[0].input: value \"b\" is already given as values[3]; repeated values would make the same combination twice",
		"matrix[0].values[7] step: run[0]: a step needs input, code or conversation",
		"matrix[0].values[8] duplicate-value: run[0].input: value \"\" is already given as values[7]; repeated values would make the same combination twice",
	}, got)
}

// BenchmarkCanonSet adds the echo workload's 10^4 inputs (one op is all of them).
func BenchmarkCanonSet(b *testing.B) {
	var text []byte
	spans := make([]span, 10_000)
	for j := range spans {
		start := len(text)
		text = fmt.Appendf(text, "%q", fmt.Sprintf("Question %d: what is topic-%d?", j, j))
		spans[j] = span{start, len(text)}
	}
	b.ReportAllocs()
	for b.Loop() {
		set := newCanonSet(len(spans))
		for j := range spans {
			if _, dup := set.add(text, spans, j); dup {
				b.Fatal("no value repeats")
			}
		}
	}
}
