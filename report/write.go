package report

import (
	"fmt"
	"github.com/agenteval/agenteval/internal/termsafe"
	"io"
)

// Write renders r in one of the formats the CLI's report --format offers:
//
//   - "markdown" (or "md"): GitHub-flavoured Markdown that fits a job
//     summary ($GITHUB_STEP_SUMMARY): totals, then a table per scenario with
//     one row per combination, the per-parameter pass rates and the
//     evaluations that fail most; why each job did not pass, identical
//     reasons counted together;
//   - "json": the Summary as indented JSON (its field names are stable);
//   - "junit": JUnit XML for CI test reporters, one testsuite per
//     combination and one testcase per job, streamed from the inputs;
//   - "csv": one row per job with the columns of ghx's results.csv
//     (agent-profiler's), for the spreadsheets and scripts that read ghx's;
//   - "html": one self-contained page (no scripts, no external references)
//     with pass rates and their intervals, heat maps of matrices, and the
//     failing jobs with their messages and transcripts (opts bound them).
func Write(w io.Writer, r *Results, format string, opts WriteOptions) error {
	if format != "json" && format != "csv" {
		w = termsafe.Writer(w) // control and bidi characters from outside are shown, not obeyed
	}
	switch format {
	case "csv":
		return writeCSV(w, r)
	case "markdown", "md":
		why, err := r.groupWhy()
		if err != nil {
			return fmt.Errorf("write markdown report: %w", err)
		}
		return writeMarkdown(w, r.Summary(), why)
	case "json":
		return writeJSON(w, r.Summary())
	case "junit":
		return writeJUnit(w, r)
	case "html":
		return writeHTML(w, r, opts)
	}
	return fmt.Errorf("report: unknown format %q: want markdown, json, junit, csv or html", format)
}

// WriteComparison renders c as "markdown" (or "md": the verdict, then one
// row per matched combination), "json" (the Comparison as indented JSON,
// with "reviewed": how many verdicts of the baseline and of the candidate
// are a person's review, when any is)
// or "html" (one page in the report's style: the verdict, the pass rates
// with their intervals, the efficiency table with which differences are
// significant, and the combinations).
func WriteComparison(w io.Writer, c *Comparison, format string) error {
	if format != "json" {
		w = termsafe.Writer(w)
	}
	switch format {
	case "markdown", "md":
		return writeComparisonMarkdown(w, c)
	case "json":
		return writeJSON(w, comparisonJSON{c, reviewedJSON(c)})
	case "html":
		return writeComparisonHTML(w, c)
	}
	return fmt.Errorf("report: unknown comparison format %q: want markdown, json or html", format)
}

// comparisonJSON is a Comparison as "json" writes it: its fields, and the
// reviewed verdicts that markdown and html state too.
type comparisonJSON struct {
	*Comparison
	Reviewed *reviewedCounts `json:"reviewed,omitempty"`
}

// reviewedCounts counts the verdicts of each side that a person's review
// gave (labels.jsonl).
type reviewedCounts struct {
	Baseline  int64 `json:"baseline"`
	Candidate int64 `json:"candidate"`
}

// reviewedJSON is c's reviewed verdicts (nil: none).
func reviewedJSON(c *Comparison) *reviewedCounts {
	if c.reviewed == [2]int64{} {
		return nil
	}
	return &reviewedCounts{Baseline: c.reviewed[0], Candidate: c.reviewed[1]}
}
