package yamlfast

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// genYAML writes a random block document from pieces of the subset (and
// some just outside it), for TestGenerated.
type genYAML struct {
	r *rand.Rand
	b strings.Builder
}

var genScalars = []string{
	"a", "b c", "x:y", "-1", "+2", "0x1F", "0o17", "0b11", "017", "1_000", "1.5e3", ".5", "1.", ".inf", "-.INF", ".NaN",
	"~", "null", "Null", "true", "False", "yes", "on", "é", "日本 語", "a#b", "a - b", "http://x.y/z", "-", "- a",
	"\"q\"", "\"a\\tb\\u00e9\"", "\"\"", "''", "'it''s'", "'a\"b'", "\"#x\"", "2001-12-14", "<<", "&a x", "*a", "!t x",
	"?x", "a: b", "a:", "[a, b]", "{a: b}", "[]", "{}", "[a, [b, {c: d}]]", "{a: [1, 2], \"b\": 'c'}", "{\"k\":1}",
	"[a,b]", "[ a , b ]", "{a: b,}", "[a, , b]", "%x", "@x", "`x", "a  b", "a #c", "0.0.1", "1e", "-.5", "+.5e-3",
	"\"a\n  b\"", "'x\n\n  y '", "\"p\\\n  q\"", "\"a  \n   \n b\\tc\"", "'a\n'", "\"\n\"", "\"a\\\n\"",
	"9223372036854775808", "-9223372036854775809", "18446744073709551616", "0b", "0x", "-0b101", "-0o17", "+0x1", "1:2",
}

func (g *genYAML) scalar() string { return genScalars[g.r.IntN(len(genScalars))] }

func (g *genYAML) key() string {
	keys := []string{"k", "key", "a b", "\"q k\"", "'s k'", "1", "null", "true", "é", "k-1", "k_2", "x.y", "k "}
	return keys[g.r.IntN(len(keys))]
}

// sep is what separates flow tokens: spaces, line breaks, comments.
func (g *genYAML) sep() string {
	switch g.r.IntN(8) {
	case 0:
		return "\n" + strings.Repeat(" ", g.r.IntN(6))
	case 1:
		return " # c\n" + strings.Repeat(" ", g.r.IntN(6))
	case 2:
		return "\n\n"
	case 3:
		return " "
	case 4:
		return "\n---\n"
	}
	return ""
}

// flow writes a flow collection whose tokens may be on several lines.
func (g *genYAML) flow(depth int) string {
	var b strings.Builder
	mapping := g.r.IntN(2) == 0
	if mapping {
		b.WriteString("{")
	} else {
		b.WriteString("[")
	}
	for i := range g.r.IntN(4) {
		if i > 0 {
			b.WriteString(g.sep() + ",")
		}
		b.WriteString(g.sep())
		if mapping {
			b.WriteString(g.key() + g.sep()[:0] + ":" + g.sep())
			if g.r.IntN(2) == 0 {
				b.WriteString(" ")
			}
		}
		if depth < 3 && g.r.IntN(4) == 0 {
			b.WriteString(g.flow(depth + 1))
		} else {
			b.WriteString(g.scalar())
		}
	}
	b.WriteString(g.sep())
	if g.r.IntN(10) == 0 {
		b.WriteString(",")
	}
	if mapping {
		b.WriteString("}")
	} else {
		b.WriteString("]")
	}
	return b.String()
}

func (g *genYAML) comment() string {
	switch g.r.IntN(6) {
	case 0:
		return " # c"
	case 1:
		return "  #c: d"
	}
	return ""
}

func (g *genYAML) blank() {
	switch g.r.IntN(8) {
	case 0:
		g.b.WriteString("\n")
	case 1:
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(6)) + "# comment\n")
	case 2:
		g.b.WriteString(strings.Repeat(" ", g.r.IntN(6)) + "\n")
	}
}

func (g *genYAML) blockScalar(indent int) {
	ind := []string{"|", ">", "|-", ">-", "|+", ">+", "|2", "| # c"}[g.r.IntN(8)]
	g.b.WriteString(ind + "\n")
	n := 1 + g.r.IntN(4)
	for range n {
		switch g.r.IntN(5) {
		case 0:
			g.b.WriteString("\n")
		case 1:
			g.b.WriteString(strings.Repeat(" ", indent+g.r.IntN(4)) + "\n")
		case 2:
			g.b.WriteString(strings.Repeat(" ", indent+2+g.r.IntN(3)) + "more " + g.scalar() + "\n")
		default:
			g.b.WriteString(strings.Repeat(" ", indent) + "text " + g.scalar() + "\n")
		}
	}
}

// value writes a value after "key:" or "- " at a collection indented col.
func (g *genYAML) value(col, depth int) {
	sub := col + 1 + g.r.IntN(3)
	switch k := g.r.IntN(10); {
	case k < 4 || depth > 3:
		g.b.WriteString(" " + g.scalar())
		for g.r.IntN(4) == 0 {
			g.b.WriteString([]string{"", "  ", "\n"}[g.r.IntN(3)] + "\n" + strings.Repeat(" ", col+g.r.IntN(4)) + g.scalar())
		}
		g.b.WriteString(g.comment() + "\n")
	case k == 4:
		g.b.WriteString(" " + g.flow(0) + g.comment() + "\n")
	case k == 5:
		g.b.WriteString(" ")
		g.blockScalar(sub)
	case k == 6:
		g.b.WriteString(g.comment() + "\n")
	case k == 7:
		g.b.WriteString(g.comment() + "\n")
		g.blank()
		g.seq(sub, depth+1)
	default:
		g.b.WriteString(g.comment() + "\n")
		g.blank()
		g.mapping(sub, depth+1)
	}
}

func (g *genYAML) mapping(col, depth int) {
	for range 1 + g.r.IntN(4) {
		g.b.WriteString(strings.Repeat(" ", col) + g.key() + ":")
		if g.r.IntN(6) == 0 {
			g.b.WriteString("\n")
			g.seq(col, depth+1) // compact
		} else {
			g.value(col, depth)
		}
		g.blank()
	}
}

func (g *genYAML) seq(col, depth int) {
	for range 1 + g.r.IntN(4) {
		g.b.WriteString(strings.Repeat(" ", col) + "-")
		switch g.r.IntN(5) {
		case 0:
			g.b.WriteString(" " + g.key() + ":")
			g.value(col+2, depth+1)
			if g.r.IntN(2) == 0 {
				g.b.WriteString(strings.Repeat(" ", col+2) + g.key() + ":")
				g.value(col+2, depth+1)
			}
		case 1:
			g.b.WriteString(" -")
			g.value(col+2, depth+1)
		default:
			g.value(col, depth)
		}
		g.blank()
	}
}

// TestGenerated compares Parse with yaml.v3 on random documents built
// from the subset's pieces; it also reports how many the fast path took.
func TestGenerated(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(seedGen, 2))
	n := int(nGen)
	if testing.Short() {
		n = 2000
	}
	handled := 0
	for range n {
		g := &genYAML{r: r}
		if r.IntN(5) == 0 {
			g.b.WriteString("---\n")
		}
		g.blank()
		if r.IntN(4) == 0 {
			g.seq(0, 0)
		} else {
			g.mapping(0, 0)
		}
		text := g.b.String()
		if r.IntN(4) == 0 {
			// Indent one line a space more or less than it should be.
			lines := strings.Split(text, "\n")
			i := r.IntN(len(lines))
			if r.IntN(2) == 0 {
				lines[i] = " " + lines[i]
			} else {
				lines[i] = strings.TrimPrefix(lines[i], " ")
			}
			text = strings.Join(lines, "\n")
		}
		switch r.IntN(8) {
		case 0:
			text = strings.ReplaceAll(text, "\n", "\r\n")
		case 1:
			text = strings.Replace(text, "\n", "\r\n", 1+r.IntN(3))
		}
		if checkAgainstV3(t, []byte(text)) {
			handled++
		}
	}
	t.Logf("fast path took %d of %d", handled, n)
}

var seedGen, nGen uint64 = 1, 20000

func init() {
	if s := os.Getenv("YAMLFAST_GEN"); s != "" {
		seedGen, _ = strconv.ParseUint(s, 10, 64)
		nGen = 500000
	}
}
