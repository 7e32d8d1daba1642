package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// flagSet is a command's flags. Its usage goes to stdout when asked for
// (-h, --help: exit 0) and to stderr after a mistake (exit 2).
type flagSet struct {
	*flag.FlagSet
	env  *cliEnv
	line string
	// secrets are --secret-name and --secret-pattern, which every command
	// takes: parse adds them to env's redactor.
	secrets redact.Rules
}

// newFlags returns a flag set that reports errors to env.stderr and never exits.
func newFlags(env *cliEnv, name, usageLine string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	f := &flagSet{FlagSet: fs, env: env, line: usageLine}
	fs.Usage = func() {} // parse prints the usage where it belongs
	fs.Func("secret-name", "mask the values of environment variables whose names match this glob (MYCO_*), beyond those agenteval knows (repeatable)", func(v string) error {
		f.secrets.Names = append(f.secrets.Names, v)
		return nil
	})
	fs.Func("secret-pattern", "mask whatever matches this regular expression (RE2) in every output (repeatable)", func(v string) error {
		f.secrets.Patterns = append(f.secrets.Patterns, v)
		return nil
	})
	return f
}

// Usage prints the usage to stderr, after a mistake.
func (f *flagSet) Usage() { f.printUsage(f.env.stderr) }

func (f *flagSet) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: agenteval %s %s\n", f.Name(), f.line)
	f.SetOutput(w)
	f.PrintDefaults()
	f.SetOutput(f.env.stderr)
}

// parse parses args. When it returns false the command ends with the code:
// 0 after -h or --help (the usage went to stdout), 2 after a mistake (the
// flag package named it on stderr, followed by the usage).
func (f *flagSet) parse(args []string) (code int, ok bool) {
	err := f.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		f.printUsage(f.env.stdout)
		return exitOK, false
	case err != nil:
		f.Usage()
		return exitUsage, false
	}
	if err := addSecretRules(f.env, f.secrets); err != nil {
		fmt.Fprintf(f.env.stderr, "agenteval %s: %v\n", f.Name(), err)
		return exitUsage, false
	}
	return 0, true
}

// badValue names a flag whose value is out of range and says what is
// wanted; it returns exitUsage.
func (f *flagSet) badValue(name string, value any, want string) int {
	if s, ok := value.(string); ok {
		value = strconv.Quote(s)
	}
	fmt.Fprintf(f.env.stderr, "agenteval %s: --%s %v: %s\n", f.Name(), name, value, want)
	return exitUsage
}

// oneOf checks a flag's value against its choices; on a miss it names the
// value, the choices and the nearest one, and returns false.
func (f *flagSet) oneOf(name, value string, choices ...string) bool {
	if slices.Contains(choices, value) {
		return true
	}
	want := "want " + strings.Join(choices, ", ")
	// Choices are short words: only a near miss (one edit in three
	// letters) is worth suggesting; pdf is not md.
	for _, c := range choices {
		if d := textdist.Distance(strings.ToLower(value), c); d <= max(1, len(c)/3) {
			want += fmt.Sprintf(" (did you mean %q?)", c)
			break
		}
	}
	f.badValue(name, value, want)
	return false
}

// checkMatrices compiles every matrix that loaded without errors against its
// base scenario, as run and matrix do, and returns what compiling adds to the
// file's own findings: parameter paths the base lacks, values the varied
// scenario rejects, a selection over run's job cap, each at its position in
// the matrix file.
func checkMatrices(files []*scenario.File) scenario.Diagnostics {
	var out scenario.Diagnostics
	for _, f := range files {
		if f.Kind != scenario.KindMatrix || f.Matrix == nil || f.Diagnostics.HasErrors() {
			continue
		}
		// A finding is its text and code (a Diagnostic's Path is a slice).
		own := make(map[string]bool, len(f.Diagnostics))
		for _, d := range f.Diagnostics {
			own[d.Code+" "+d.String()] = true
		}
		_, diags := matrix.Compile(f, matrix.Options{MaxJobs: runMaxJobs})
		for _, d := range diags {
			if !own[d.Code+" "+d.String()] {
				out = append(out, d)
			}
		}
	}
	return out
}

// checkEvaluations builds every evaluation of the scenarios that loaded
// without errors, as run does before a job, and reports the ones whose
// parameters their type rejects (an llm_judge expected of "1.5+") at
// their position: the schema checks shapes, the types check meaning, and
// validate should not accept what run would then refuse. Unknown types are
// the loader's to report.
func checkEvaluations(files []*scenario.File, reg *registry.Registry[*evaluate.Kind]) scenario.Diagnostics {
	var out scenario.Diagnostics
	for _, f := range files {
		s := f.Scenario
		if s == nil || f.Matrix != nil || f.Diagnostics.HasErrors() {
			continue
		}
		s.Evaluations(func(p scenario.Path, e *scenario.Evaluation) {
			_, err := evaluate.Build(reg, *e)
			var unknown *registry.Error
			if err == nil || errors.As(err, &unknown) {
				return
			}
			d := scenario.Diagnostic{File: f.Name, Path: slices.Clone(p), Severity: scenario.Error, Code: "evaluation", Message: err.Error()}
			if f.Doc != nil {
				d.Line, d.Column, _ = f.Doc.Locate(p)
			}
			out = append(out, d)
		})
	}
	return out
}

func runValidate(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "validate", "[--strict] [--format text|json] PATH...")
	strict := fs.Bool("strict", false, "treat unknown fields as errors")
	format := fs.String("format", "text", "output format: text or json")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if !fs.oneOf("format", *format, "text", "json") {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	// The loader run uses, on the same kit: what validate accepts, run accepts.
	set, err := env.kit.Loader(scenario.Options{Strict: *strict}).LoadPaths(fs.Args()...)
	if set == nil {
		fmt.Fprintf(env.stderr, "agenteval validate: %v\n", err)
		return exitUsage
	}
	files := set.Files
	diags := append(append(set.Diagnostics, checkMatrices(files)...), checkEvaluations(files, env.kit.Registries.Evaluations)...).Sort()
	if *format == "json" {
		if diags == nil {
			diags = scenario.Diagnostics{}
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"files": len(files), "diagnostics": diags, "errors": len(diags.Errors()), "warnings": len(diags) - len(diags.Errors())})
	} else {
		for _, d := range diags {
			fmt.Fprintln(env.stdout, d.String())
		}
		fmt.Fprintf(env.stderr, "%d file(s): %d error(s), %d warning(s)\n", len(files), len(diags.Errors()), len(diags)-len(diags.Errors()))
	}
	if diags.HasErrors() {
		return exitFail
	}
	return exitOK
}

func runSchema(_ context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "schema", "scenario|eval|matrix|manifest|sets|suite|eval-config|seed|plan  (plan: the JSON agenteval plan --format json prints)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	switch fs.Arg(0) {
	case "seed":
		_, _ = env.stdout.Write(fixture.SeedSchema())
		return exitOK
	case "plan":
		_, _ = env.stdout.Write(plan.Schema())
		return exitOK
	}
	k, err := scenario.ParseKind(fs.Arg(0))
	if err != nil {
		var kinds []string
		for _, k := range scenario.SchemaKinds() {
			kinds = append(kinds, k.String())
		}
		kinds = append(kinds, "seed", "plan")
		fmt.Fprintf(env.stderr, "agenteval schema: unknown document kind %q; want one of %s%s\n", fs.Arg(0), strings.Join(kinds, ", "), didYouMean(fs.Arg(0), kinds))
		return exitUsage
	}
	b, err := env.kit.Schema(k)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval schema: %v\n", err)
		return exitFail
	}
	_, _ = env.stdout.Write(b)
	return exitOK
}
