package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// runTypes prints what the registries hold, each entry with its own
// documentation: the same values the loader, the schema and the runner use.
func runTypes(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "types", "[evaluations|strategies|conditions|terminations|agents]")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	sections := map[string]func(io.Writer){
		"evaluations":  printEvaluationTypes,
		"strategies":   printStrategies,
		"conditions":   printConditionTypes,
		"terminations": printTerminationTypes,
		"agents":       printAgents,
	}
	order := []string{"evaluations", "strategies", "conditions", "terminations", "agents"}
	switch fs.NArg() {
	case 0:
		for _, name := range order {
			fmt.Fprintf(env.stdout, "## %s\n\n", name)
			sections[name](env.stdout)
			fmt.Fprintln(env.stdout)
		}
		return exitOK
	case 1:
		if f, ok := sections[fs.Arg(0)]; ok {
			f(env.stdout)
			return exitOK
		}
		fmt.Fprintf(env.stderr, "agenteval types: unknown section %q; want one of %s%s\n", fs.Arg(0), strings.Join(order, ", "), didYouMean(fs.Arg(0), order))
	default:
		fs.Usage()
	}
	return exitUsage
}

func printEvaluationTypes(w io.Writer) {
	for _, k := range evaluate.DefaultRegistry().Kinds() {
		fmt.Fprintf(w, "- `%s`: %s\n", k.Name, firstParagraph(k.Doc))
	}
}

func printStrategies(w io.Writer) {
	s := judge.DefaultStrategies()
	for _, name := range s.Names() {
		st, err := s.Lookup(name)
		if err == nil {
			fmt.Fprintf(w, "- `%s`: %s\n", name, firstParagraph(st.Doc()))
		}
	}
}

func printConditionTypes(w io.Writer) {
	for _, t := range checkpoint.NewRegistry().Types() {
		fmt.Fprintf(w, "- `%s`: %s\n", t.Name, firstParagraph(t.Doc))
	}
}

func printTerminationTypes(w io.Writer) {
	for _, t := range scenario.TerminationTypes() {
		fmt.Fprintf(w, "- `%s`: %s\n", t, runner.TerminationDoc(t))
	}
}

func printAgents(w io.Writer) {
	docs := runner.NewAgents().Names()
	for _, name := range slices.Sorted(maps.Keys(docs)) {
		fmt.Fprintf(w, "- `%s`: %s\n", name, docs[name])
	}
}

// firstParagraph keeps a doc's first paragraph on one line.
func firstParagraph(doc string) string {
	p, _, _ := strings.Cut(strings.TrimSpace(doc), "\n\n")
	return strings.Join(strings.Fields(p), " ")
}
