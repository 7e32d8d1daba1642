package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// WriteComparisonMarkdown writes a comparison as Markdown: the verdict,
// then one row per matched combination.
func WriteComparisonMarkdown(w io.Writer, c *Comparison) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# agenteval comparison\n\n")
	switch {
	case c.Failed && c.Regressions > 0:
		fmt.Fprintf(b, "**Regression:** %d combination(s) pass significantly less often (one-sided Fisher exact, %s correction, α = %s).\n\n",
			c.Regressions, c.Correction, strconv.FormatFloat(c.Alpha, 'g', -1, 64))
	case !c.Failed:
		fmt.Fprintf(b, "No significant regression (one-sided Fisher exact, %s correction, α = %s).\n\n",
			c.Correction, strconv.FormatFloat(c.Alpha, 'g', -1, 64))
	}
	if c.BelowMinPassRate {
		fmt.Fprintf(b, "**Pass rate below minimum:** candidate %s < %s.\n\n", pct(c.CandidateAll.PassRate), pct(c.MinPassRate))
	}
	fmt.Fprintf(b, "| | Baseline | Candidate |\n| --- | --- | --- |\n")
	fmt.Fprintf(b, "| Pass rate (matched) | %s | %s |\n",
		rateText(c.Baseline.Passed, c.Baseline.Runs, c.Baseline.PassRate, c.Baseline.PassInterval),
		rateText(c.Candidate.Passed, c.Candidate.Runs, c.Candidate.PassRate, c.Candidate.PassInterval))
	fmt.Fprintf(b, "| Completion rate (matched) | %s | %s |\n\n",
		rateText(c.Baseline.Completed, c.Baseline.Runs, c.Baseline.CompletionRate, c.Baseline.CompletionInterval),
		rateText(c.Candidate.Completed, c.Candidate.Runs, c.Candidate.CompletionRate, c.Candidate.CompletionInterval))
	if len(c.Rows) > 0 {
		fmt.Fprintf(b, "| Scenario | Combination | Baseline | Candidate | Δ | p | adjusted p | |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | :---: |\n")
		for _, r := range c.Rows {
			mark := ""
			if r.Regression {
				mark = "❌"
			}
			fmt.Fprintf(b, "| %s | %s | %s (%d/%d) | %s (%d/%d) | %+.1f pp | %.4f | %.4f | %s |\n",
				mdCell(r.Scenario), mdCell(r.Label), pct(r.Baseline.PassRate), r.Baseline.Passed, r.Baseline.Runs,
				pct(r.Candidate.PassRate), r.Candidate.Passed, r.Candidate.Runs, r.Delta*100, r.PValue, r.AdjustedP, mark)
		}
		fmt.Fprintln(b)
	}
	if len(c.OnlyBaseline) > 0 {
		fmt.Fprintf(b, "Only in baseline: %d combination(s)\n\n", len(c.OnlyBaseline))
		for _, k := range c.OnlyBaseline {
			fmt.Fprintf(b, "- %s\n", mdCode(k))
		}
		fmt.Fprintln(b)
	}
	if len(c.OnlyCandidate) > 0 {
		fmt.Fprintf(b, "Only in candidate: %d combination(s)\n\n", len(c.OnlyCandidate))
		for _, k := range c.OnlyCandidate {
			fmt.Fprintf(b, "- %s\n", mdCode(k))
		}
		fmt.Fprintln(b)
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}
