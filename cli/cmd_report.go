package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/elizarun"
	"github.com/agenteval/agenteval/internal/infile"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/report"
)

// runReport renders a report from results files, or compares two runs
// when its first argument is "compare".
func runReport(_ context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 && args[0] == "compare" {
		return runReportCompare(env, args[1:])
	}
	fs := newFlags(env, "report", "[--format md|html|junit|json|csv|eliza] [--out FILE] [--k K] [--fail-missing] RESULTS.jsonl|DIR...\n       agenteval report compare [--min-pass-rate R] [--alpha A] BASELINE CANDIDATE\n(a DIR stands for the results.jsonl of every results folder under it, such as the shards of a run, or for the ElizaOS run files in it)")
	format := fs.String("format", "md", "output format: md, html, junit, json, csv (ghx's results.csv columns), or eliza (ElizaOS's run files and summary.json in the folder --out names)")
	out := fs.String("out", "", "write to FILE instead of stdout (--format eliza: the folder to write)")
	k := fs.Int("k", report.DefaultK, "the k reported for pass@k and pass^k")
	maxFailing := fs.Int("max-failing", report.DefaultMaxFailingJobs, "html: how many failing jobs to show with messages and transcripts")
	useLabels := fs.Bool("labels", true, "apply the reviews in labels.jsonl beside each results file (written by agenteval view): a reviewed job's verdict is the person's, shown as reviewed; --labels=false reports the run's own verdicts")
	viewerURL := fs.String("viewer-url", report.DefaultViewerURL, "html: where agenteval view serves these results; each job and reason links to its page there")
	failMissing := fs.Bool("fail-missing", false, "exit 1 (after writing the report) when a job of the run has no record: a shard missing or cut short")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	switch {
	case !fs.oneOf("format", *format, "md", "html", "junit", "json", "csv", "eliza"):
		return exitUsage
	case *format == "eliza" && *out == "":
		fmt.Fprintf(env.stderr, "agenteval report: --format eliza writes a folder of run files: name it with --out DIR\n")
		return exitUsage
	case *k < 1:
		return fs.badValue("k", *k, "want at least 1")
	case *maxFailing < 1:
		return fs.badValue("max-failing", *maxFailing, "want at least 1")
	case fs.NArg() == 0:
		fs.Usage()
		return exitUsage
	}
	paths, err := resultsPaths(fs.Args())
	if err == nil {
		err = checkReportOut(*out, paths)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report: %v\n", err)
		return exitUsage
	}
	res, err := report.ReadFiles(paths, report.Options{K: *k, Redactor: env.redactor, IgnoreLabels: !*useLabels})
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report: %v\n", err)
		return exitUsage
	}
	defer func() { _ = res.Close() }()
	sum := res.Summary()
	if *format == "eliza" {
		var n int
		if n, err = elizarun.Export(*out, res.Jobs()); err == nil {
			fmt.Fprintf(env.stderr, "wrote %d ElizaOS run file(s) and summary.json to %s (elizaos report generate %s reads them)\n", n, *out, *out)
		}
	} else {
		err = reportWriteOutput(env, *out, func(w io.Writer) error {
			return report.Write(w, res, *format, report.WriteOptions{MaxFailingJobs: *maxFailing, ViewerURL: *viewerURL})
		})
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report: %v\n", err)
		return exitFail
	}
	t := sum.Totals
	fmt.Fprintf(env.stderr, "%d job(s): %d passed, %d failed, %d incomplete", t.Runs, t.Passed, t.Failed, t.Incomplete)
	if sum.MissingJobs > 0 {
		fmt.Fprintf(env.stderr, "; %d of %d missing", sum.MissingJobs, sum.TotalJobs)
	}
	if sum.Malformed > 0 {
		fmt.Fprintf(env.stderr, "; %d malformed line(s) skipped", sum.Malformed)
	}
	if sum.Reviewed > 0 {
		fmt.Fprintf(env.stderr, "; %d verdict(s) reviewed by a person (labels.jsonl)", sum.Reviewed)
	}
	fmt.Fprintln(env.stderr)
	if *failMissing && sum.MissingJobs > 0 {
		fmt.Fprintf(env.stderr, "agenteval report: %d of the run's %d job(s) have no record in %d file(s): a shard is missing or was cut short (--fail-missing)\n", sum.MissingJobs, sum.TotalJobs, len(paths))
		return exitFail
	}
	return exitOK
}

// runReportCompare compares a candidate run with a baseline; it exits 1 on a
// significant regression (overall or in a combination), a pass rate under
// --min-pass-rate, runs with no combination in common, and (unless
// --allow-missing) baseline combinations the candidate lacks or candidate
// jobs that never ran, listing them.
func runReportCompare(env *cliEnv, args []string) int {
	fs := newFlags(env, "report compare", "[--min-pass-rate R] [--alpha A] [--correction holm|none] [--allow-missing] [--format md|json|html] [--out FILE] BASELINE CANDIDATE\n(each a results file, or a DIR standing for the results.jsonl of every results folder under it, such as the shards of a run)\n   or: agenteval report compare --by agent|model [--baseline NAME] [--candidate NAME] [flags] RESULTS...  (two agents or models of one suite's results)")
	by := fs.String("by", "", "compare two agents (agent) or two models (model) within one suite's results")
	baseName := fs.String("baseline", "", "with --by: the baseline agent or model (default: the first of the results)")
	candName := fs.String("candidate", "", "with --by: the candidate agent or model (default: the second of the results)")
	minRate := fs.Float64("min-pass-rate", 0, "fail when the candidate's overall pass rate is below R (0..1)")
	alpha := fs.Float64("alpha", 0.05, "significance level of the one-sided tests: overall (stratified) and per combination (Fisher exact)")
	correction := fs.String("correction", "holm", "multiple-comparison correction: holm or none")
	useLabels := fs.Bool("labels", true, "apply the reviews in labels.jsonl beside each results file (agenteval view): a reviewed job counts with the person's verdict; --labels=false compares the runs' own verdicts")
	allowMissing := fs.Bool("allow-missing", false, "do not fail when the candidate lacks combinations of the baseline or jobs of its own run (a shard missing or cut short); they are still listed")
	format := fs.String("format", "md", "output format: md, json or html (one page)")
	out := fs.String("out", "", "write to FILE instead of stdout")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	switch {
	case !fs.oneOf("format", *format, "md", "json", "html"):
		return exitUsage
	case !fs.oneOf("correction", *correction, "holm", "none"):
		return exitUsage
	case !(*alpha > 0 && *alpha < 1): // NaN too: every p < NaN is false, a gate that never fails
		return fs.badValue("alpha", *alpha, "want a significance level between 0 and 1, such as 0.05")
	case !(*minRate >= 0 && *minRate <= 1):
		return fs.badValue("min-pass-rate", *minRate, "want a rate between 0 and 1, such as 0.9")
	case *by != "" && !fs.oneOf("by", *by, "agent", "model"):
		return exitUsage
	case *by == "" && (*baseName != "" || *candName != ""):
		fmt.Fprintf(env.stderr, "agenteval report compare: --baseline and --candidate name agents or models; use them with --by\n")
		return exitUsage
	case *by == "" && fs.NArg() != 2, *by != "" && fs.NArg() == 0:
		fs.Usage()
		return exitUsage
	}
	opts := report.CompareOptions{Alpha: *alpha, MinPassRate: *minRate, Correction: *correction, AllowMissing: *allowMissing}
	var cmp *report.Comparison
	inputs, err := resultsPaths(fs.Args())
	if err == nil {
		err = checkReportOut(*out, inputs)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report compare: %v\n", err)
		return exitUsage
	}
	if *by != "" {
		var res *report.Results
		if res, err = reportResults(fs.Args(), env.redactor, !*useLabels); err == nil {
			defer func() { _ = res.Close() }()
			names := res.VariantNames(*by)
			if *baseName == "" && len(names) > 0 {
				*baseName = names[0]
			}
			if *candName == "" {
				for _, n := range names {
					if n != *baseName {
						*candName = n
						break
					}
				}
			}
			if *candName == "" && len(names) > 0 {
				err = fmt.Errorf("the results hold one %s (%s); nothing to compare it with", *by, strings.Join(names, ", "))
			} else {
				cmp, err = res.CompareBy(*by, *baseName, *candName, opts)
			}
		}
	} else {
		var res [2]*report.Results
		for i, path := range fs.Args() {
			if res[i], err = reportResults([]string{path}, env.redactor, !*useLabels); err != nil {
				break
			}
			// The rows listed are labelled from their records, read back.
			defer func() { _ = res[i].Close() }()
		}
		if err == nil {
			cmp, err = report.CompareResults(res[0], res[1], opts)
		}
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report compare: %v\n", err)
		return exitUsage
	}
	err = reportWriteOutput(env, *out, func(w io.Writer) error {
		return report.WriteComparison(w, cmp, *format)
	})
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval report compare: %v\n", err)
		return exitUsage
	}
	if cmp.Failed {
		var why []string
		if cmp.NothingMatched {
			why = append(why, fmt.Sprintf("the baseline and the candidate have no combination in common (baseline: %s; candidate: %s): nothing was compared",
				listText(cmp.OnlyBaseline, 5), listText(cmp.OnlyCandidate, 5)))
		}
		if cmp.Overall.Regression {
			why = append(why, fmt.Sprintf("significant regression overall (%d passes where %.1f were expected, p = %.2g)",
				cmp.Overall.Observed, cmp.Overall.Expected, cmp.Overall.PValue))
		}
		if cmp.Regressions > 0 {
			why = append(why, fmt.Sprintf("%d significant regression(s) by combination", cmp.Regressions))
		}
		if cmp.BelowMinPassRate {
			why = append(why, fmt.Sprintf("pass rate %.1f%% below %.1f%%", cmp.CandidateAll.PassRate*100, cmp.MinPassRate*100))
		}
		if cmp.Incomplete && !cmp.NothingMatched {
			why = append(why, compareMissingText(cmp)+" (--allow-missing accepts this)")
		}
		fmt.Fprintf(env.stderr, "agenteval report compare: %s\n", strings.Join(why, "; "))
		return exitFail
	}
	return exitOK
}

// compareMissingText says what the candidate lacks: the baseline's
// combinations it did not run, the shards and jobs of its run without
// results.
func compareMissingText(cmp *report.Comparison) string {
	var parts []string
	if n := len(cmp.OnlyBaseline); n > 0 {
		parts = append(parts, fmt.Sprintf("%d combination(s) of the baseline not in the candidate: %s", n, listText(cmp.OnlyBaseline, 10)))
	}
	if n := len(cmp.MissingShards); n > 0 {
		parts = append(parts, fmt.Sprintf("%d shard(s) of the candidate have no results: %s", n, listText(cmp.MissingShards, 10)))
	}
	if cmp.CandidateMissingJobs > 0 {
		var ranges []string
		for _, r := range cmp.CandidateMissing {
			if r.From == r.To {
				ranges = append(ranges, strconv.FormatInt(r.From, 10))
			} else {
				ranges = append(ranges, fmt.Sprintf("%d-%d", r.From, r.To))
			}
		}
		parts = append(parts, fmt.Sprintf("%d job(s) of the candidate's run never ran (indexes %s)", cmp.CandidateMissingJobs, listText(ranges, 10)))
	}
	return strings.Join(parts, "; ")
}

// listText joins the first n items, saying how many more there are.
func listText(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// reportResults reads results files, or the results folders under
// directories, as one set.
func reportResults(args []string, red *redact.Redactor, ignoreLabels bool) (*report.Results, error) {
	paths, err := resultsPaths(args)
	if err != nil {
		return nil, err
	}
	return report.ReadFiles(paths, report.Options{Redactor: red, IgnoreLabels: ignoreLabels})
}

// checkReportOut refuses a report's --out that would replace what it
// reads or any results file: an input (the same file by any path), a
// file named results.jsonl, or a file whose first line is a results
// record. A report once replaced its own results and exited 0.
func checkReportOut(out string, inputs []string) error {
	if out == "" {
		return nil
	}
	refuse := func(why string) error {
		return fmt.Errorf("--out %s: %s; a report never writes over results: give another file", out, why)
	}
	if filepath.Base(out) == resultsFileName {
		return refuse("it is named " + resultsFileName + ", as results files are")
	}
	st, err := os.Stat(out)
	if err != nil {
		return nil // nothing there to lose
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return refuse("it is the input " + in)
		}
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	f, err := infile.Open(out)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	if first := bytes.TrimLeft(head[:n], " \t\r\n"); bytes.HasPrefix(first, []byte(`{"record":`)) {
		return refuse("it holds results")
	}
	return nil
}

// reportWriteOutput runs write against stdout, or against a temporary file next
// to path that replaces path only once everything was written.
func reportWriteOutput(env *cliEnv, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(env.stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	err = errors.Join(err, tmp.Close())
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
