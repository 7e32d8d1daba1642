package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
	"sigs.k8s.io/yaml"
)

// matrixFilterFlag collects a repeated flag's values.
type matrixFilterFlag []string

func (s *matrixFilterFlag) String() string     { return strings.Join(*s, ", ") }
func (s *matrixFilterFlag) Set(v string) error { *s = append(*s, v); return nil }

// matrixMaxJobs is matrix's default cap on a selection: listing a million
// jobs by accident should stop before it starts.
const matrixMaxJobs = 10_000

func runMatrix(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "matrix", "[--count | --show INDEX] [--filter PATH=VALUE]... [--shard i/n] [--max-jobs N] FILE")
	count := fs.Bool("count", false, "print only the number of jobs")
	var filterTexts matrixFilterFlag
	fs.Var(&filterTexts, "filter", "keep jobs whose parameter PATH has VALUE, a YAML value (repeatable; all must match)")
	shardText := fs.String("shard", "", "run only part i of n (1-based), such as 2/5")
	maxJobs := fs.Int64("max-jobs", matrixMaxJobs, "refuse selections of more jobs than this (0: no limit)")
	runs := fs.Int("runs", 1, "runs of a plain scenario file (a matrix file sets its own)")
	show := fs.Int64("show", -1, "print the scenario that the job with this index runs, as YAML, instead of the jobs")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	switch {
	case *maxJobs < 0:
		return fs.badValue("max-jobs", *maxJobs, "want a number of jobs, or 0 for no limit")
	case *runs < 1:
		return fs.badValue("runs", *runs, "want at least 1")
	case fs.NArg() != 1:
		fs.Usage()
		return exitUsage
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(env.stderr, "agenteval matrix: "+format+"\n", a...)
		return code
	}
	filters, err := matrix.ParseFilters(filterTexts)
	if err != nil {
		return fail(exitUsage, "%v", err)
	}
	var shard matrix.Shard
	if *shardText != "" {
		if shard, err = matrix.ParseShard(*shardText); err != nil {
			return fail(exitUsage, "%v", err)
		}
	}
	name := fs.Arg(0)
	if _, err := os.Stat(name); err != nil {
		return fail(exitUsage, "%v", err)
	}
	set, err := env.kit.Loader(scenario.Options{}).LoadPaths(name) // the job ids `run` gives this file alone
	if set == nil {
		return fail(exitUsage, "%v", err)
	}
	f := set.Files[0]
	var plan *matrix.Plan
	var diags scenario.Diagnostics
	switch {
	case f.Kind == scenario.KindMatrix:
		plan, diags = matrix.Compile(f, matrix.Options{MaxJobs: *maxJobs})
	case (f.Kind == scenario.KindScenario || f.Kind == scenario.KindGitHub) && f.Scenario != nil && !f.Diagnostics.HasErrors():
		diags = f.Diagnostics
		plan = matrix.Single(f.Scenario, *runs, *maxJobs)
	default:
		diags = f.Diagnostics
		if !diags.HasErrors() {
			diags = append(diags, scenario.Diagnostic{File: name, Severity: scenario.Error, Code: "kind",
				Message: fmt.Sprintf("a %s file cannot be expanded; give a matrix or a scenario file", f.Kind)})
		}
	}
	for _, d := range diags {
		fmt.Fprintln(env.stderr, d.String())
	}
	if plan == nil {
		return exitFail
	}
	// Filters and shards come from the command line, so a bad one is a usage error.
	if plan, err = plan.Select(filters, shard); err != nil {
		return fail(exitUsage, "%v", err)
	}
	if *show >= 0 {
		s, err := plan.Materialize(*show)
		if err != nil {
			return fail(exitUsage, "--show: %v", err)
		}
		// sigs.k8s.io/yaml writes through the json tags, so the output uses
		// the file format's own field names and loads back as a scenario.
		b, err := yaml.Marshal(s)
		if err != nil {
			return fail(exitFail, "--show: %v", err)
		}
		_, _ = env.stdout.Write(b)
		return exitOK
	}
	if *count {
		n, err := plan.Count()
		if err != nil {
			return fail(exitFail, "%v", err)
		}
		fmt.Fprintln(env.stdout, n)
		return exitOK
	}
	if err := writeMatrixJobs(ctx, env.stdout, plan); err != nil {
		if errors.Is(err, matrix.ErrTooManyJobs) || errors.Is(err, matrix.ErrOverflow) {
			return fail(exitFail, "%s: %v", name, err)
		}
		return fail(exitFail, "%v", err)
	}
	return exitOK
}

// matrixJobLine is one line of `agenteval matrix` output.
type matrixJobLine struct {
	ID          string          `json:"id"`
	Index       int64           `json:"index"`
	Combination string          `json:"combination"`
	Run         int             `json:"run"`
	Params      json.RawMessage `json:"params"`
}

// writeMatrixJobs prints one JSON object per job; params is an object whose keys
// keep the axes' order.
func writeMatrixJobs(ctx context.Context, out io.Writer, plan *matrix.Plan) error {
	w := bufio.NewWriterSize(out, 64<<10)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var params []byte
	for j, err := range plan.Headers(ctx) {
		if err != nil {
			_ = w.Flush()
			return err
		}
		params = append(params[:0], '{')
		for i, p := range j.Params {
			if i > 0 {
				params = append(params, ',')
			}
			k, _ := json.Marshal(p.Path)
			v, err := json.Marshal(p.Value)
			if err != nil {
				return err
			}
			params = append(append(append(params, k...), ':'), v...)
		}
		params = append(params, '}')
		if err := enc.Encode(matrixJobLine{ID: j.ID, Index: j.Index, Combination: j.Combination, Run: j.Run, Params: params}); err != nil {
			return err
		}
	}
	return w.Flush()
}
