package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval"
)

// runTypes prints what the kit's registries hold, each entry with its own
// documentation: the same values the loader, the schema and the runner use.
func runTypes(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "types", "["+strings.Join(typeSections, "|")+"]")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	entries := typeEntries(env.kit)
	print := func(section string) {
		for _, e := range entries[section] {
			fmt.Fprintf(env.stdout, "- `%s`: %s\n", e[0], firstParagraph(e[1]))
		}
	}
	switch fs.NArg() {
	case 0:
		for _, name := range typeSections {
			fmt.Fprintf(env.stdout, "## %s\n\n", name)
			print(name)
			fmt.Fprintln(env.stdout)
		}
		return exitOK
	case 1:
		if slices.Contains(typeSections, fs.Arg(0)) {
			print(fs.Arg(0))
			return exitOK
		}
		fmt.Fprintf(env.stderr, "agenteval types: unknown section %q; want one of %s%s\n", fs.Arg(0), strings.Join(typeSections, ", "), didYouMean(fs.Arg(0), typeSections))
	default:
		fs.Usage()
	}
	return exitUsage
}

// typeSections are the registries `types` lists, in its order.
var typeSections = []string{"evaluations", "strategies", "conditions", "scorers", "terminations", "agents", "environments"}

// typeEntries lists each registry's names and docs: evaluation types,
// strategies, scorers and agents by name, conditions, terminations and
// environments in the order they were registered (the format's own first).
func typeEntries(kit *agenteval.Kit) map[string][][2]string {
	out := map[string][][2]string{}
	add := func(section, name, doc string) { out[section] = append(out[section], [2]string{name, doc}) }
	for _, n := range kit.Evaluations.Names() {
		k, _ := kit.Evaluations.Lookup(n)
		add("evaluations", n, k.Doc)
	}
	for _, n := range kit.Strategies.Names() {
		s, _ := kit.Strategies.Lookup(n)
		add("strategies", n, s.Doc)
	}
	for _, c := range kit.Conditions.All() {
		add("conditions", c.Name, c.Doc)
	}
	for _, n := range kit.Scorers.Names() {
		s, _ := kit.Scorers.Lookup(n)
		add("scorers", n, s.Doc)
	}
	for _, t := range kit.Terminations.All() {
		add("terminations", t.Name, t.Doc)
	}
	for _, n := range kit.Agents.Names() {
		a, _ := kit.Agents.Lookup(n)
		add("agents", n, a.Doc)
	}
	for _, e := range kit.Environments.All() {
		add("environments", e.Name, e.Doc)
	}
	return out
}

// firstParagraph keeps a doc's first paragraph on one line.
func firstParagraph(doc string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	return strings.Join(strings.Fields(p), " ")
}
