package xsd

import (
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAutomatonAgreesWithRegexp builds random content models, each also
// written as a Go regular expression over one letter per element, and
// checks that the automaton accepts exactly the child sequences the
// expression matches.
func TestAutomatonAgreesWithRegexp(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 17))
	decls := map[string]*element{}
	for _, n := range []string{"a", "b", "c"} {
		decls[n] = &element{name: n}
	}
	var gen func(depth int) (*particle, string)
	gen = func(depth int) (*particle, string) {
		p := &particle{min: rng.IntN(3), max: 1}
		switch r := rng.IntN(4); {
		case r == 0:
			p.max = unbounded
		case r == 1:
			p.max = p.min + rng.IntN(3)
		default:
			p.min = min(p.min, 1)
		}
		var body string
		if depth == 0 || rng.IntN(3) == 0 {
			n := []string{"a", "b", "c"}[rng.IntN(3)]
			p.kind, p.element, body = "element", decls[n], n
		} else {
			p.kind = []string{"sequence", "choice"}[rng.IntN(2)]
			var parts []string
			for range 1 + rng.IntN(3) {
				c, cb := gen(depth - 1)
				p.children = append(p.children, c)
				parts = append(parts, cb)
			}
			sep := ""
			if p.kind == "choice" {
				sep = "|"
			}
			body = strings.Join(parts, sep)
		}
		rep := fmt.Sprintf("{%d,%d}", p.min, p.max)
		if p.max == unbounded {
			rep = fmt.Sprintf("{%d,}", p.min)
		}
		return p, "(?:" + body + ")" + rep
	}
	for range 300 {
		p, expr := gen(3)
		re := regexp.MustCompile("^(?:" + expr + ")$")
		m := compile(p)
		for range 60 {
			var word []byte
			for range rng.IntN(9) {
				word = append(word, "abc"[rng.IntN(3)])
			}
			cur := m.closure([]int{m.start})
			for _, ch := range word {
				if cur == nil {
					break
				}
				_, cur = m.step(cur, xml.Name{Local: string(ch)})
			}
			got := slices.Contains(cur, m.accept)
			require.Equal(t, re.MatchString(string(word)), got, "model %s, children %q", expr, word)
		}
	}
}
