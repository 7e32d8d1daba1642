package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// newFlags returns a flag set that reports errors to env.stderr and never exits.
func newFlags(env *cliEnv, name, usageLine string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: agenteval %s %s\n", name, usageLine)
		fs.PrintDefaults()
	}
	return fs
}

// loadPaths loads files and directories; each path yields its files.
func loadPaths(l *scenario.Loader, paths []string) ([]*scenario.File, scenario.Diagnostics, error) {
	var files []*scenario.File
	var diags scenario.Diagnostics
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		if st.IsDir() {
			set, _ := l.LoadDir(p)
			if set == nil {
				return nil, nil, fmt.Errorf("%s: cannot read directory", p)
			}
			files = append(files, set.Files...)
			diags = append(diags, set.Diagnostics...)
			continue
		}
		f, _ := l.LoadFile(p)
		files = append(files, f)
		diags = append(diags, f.Diagnostics...)
	}
	if len(paths) > 1 {
		diags = append(diags, scenario.CheckSet(files)...)
	} else {
		scenario.AssignIDs(files) // a directory's were; a file's base may lie elsewhere
	}
	return files, diags.Sort(), nil
}

// checkMatrices compiles every matrix that loaded without errors against its
// base scenario, as run and matrix do, and returns what compiling adds to the
// file's own findings: parameter paths the base lacks, values the varied
// scenario rejects, a selection over run's job cap, each at its position in
// the matrix file.
func checkMatrices(l *scenario.Loader, files []*scenario.File) scenario.Diagnostics {
	var out scenario.Diagnostics
	for _, f := range files {
		if f.Kind != scenario.KindMatrix || f.Matrix == nil || f.Diagnostics.HasErrors() {
			continue
		}
		own := make(map[scenario.Diagnostic]bool, len(f.Diagnostics))
		for _, d := range f.Diagnostics {
			own[d] = true
		}
		_, diags := matrix.Compile(f, matrix.Options{Loader: l, MaxJobs: runMaxJobs})
		for _, d := range diags {
			if !own[d] {
				out = append(out, d)
			}
		}
	}
	return out
}

func runValidate(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "validate", "[--strict] [--format text|json] PATH...")
	strict := fs.Bool("strict", false, "treat unknown fields as errors")
	format := fs.String("format", "text", "output format: text or json")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 || (*format != "text" && *format != "json") {
		fs.Usage()
		return exitUsage
	}
	// The loader run uses: the same evaluation types and condition types, so
	// that what validate accepts, run accepts.
	l := scenario.NewLoader(scenario.Options{Strict: *strict, Registry: evaluate.DefaultRegistry().Types(),
		CustomScorer: checkpoint.NewRegistry().HasScorer})
	files, diags, err := loadPaths(l, fs.Args())
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval validate: %v\n", err)
		return exitUsage
	}
	diags = append(diags, checkMatrices(l, files)...).Sort()
	if *format == "json" {
		if diags == nil {
			diags = scenario.Diagnostics{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"files": len(files), "diagnostics": diags, "errors": len(diags.Errors()), "warnings": len(diags.Warnings())})
	} else {
		for _, d := range diags {
			fmt.Fprintln(env.stdout, d.String())
		}
		fmt.Fprintf(env.stderr, "%d file(s): %d error(s), %d warning(s)\n", len(files), len(diags.Errors()), len(diags.Warnings()))
	}
	if diags.HasErrors() {
		return exitFail
	}
	return exitOK
}

func runSchema(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "schema", "scenario|eval|matrix|manifest|sets|seed")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	if fs.Arg(0) == "seed" {
		_, _ = env.stdout.Write(fixture.SeedSchema())
		return exitOK
	}
	k, err := scenario.ParseKind(fs.Arg(0))
	if err != nil {
		var kinds []string
		for _, k := range scenario.SchemaKinds() {
			kinds = append(kinds, k.String())
		}
		kinds = append(kinds, "seed")
		fmt.Fprintf(env.stderr, "agenteval schema: unknown document kind %q; want one of %s%s\n", fs.Arg(0), strings.Join(kinds, ", "), didYouMean(fs.Arg(0), kinds))
		return exitUsage
	}
	b, err := scenario.GenerateSchema(k, nil)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval schema: %v\n", err)
		return exitFail
	}
	_, _ = env.stdout.Write(b)
	return exitOK
}
