package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/agenteval/agenteval/internal/stats"
)

// writeComparisonMarkdown writes a comparison as Markdown: the verdict,
// then one row per matched combination.
func writeComparisonMarkdown(w io.Writer, c *Comparison) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# agenteval comparison\n\n")
	if c.By != "" {
		fmt.Fprintf(b, "By %s: baseline %s, candidate %s.\n\n", c.By, mdCode(c.BaselineName), mdCode(c.CandidateName))
	}
	alpha := strconv.FormatFloat(c.Alpha, 'g', -1, 64)
	if c.Overall.Regression {
		fmt.Fprintf(b, "**Regression overall:** the candidate passes significantly less often across the matched combinations (%s, p = %s, α = %s).\n\n",
			overallMethodText(c.Overall.Method), pValueText(c.Overall.PValue), alpha)
	}
	if c.Regressions > 0 {
		fmt.Fprintf(b, "**Regression:** %d combination(s) pass significantly less often (one-sided Fisher exact, %s correction, α = %s).\n\n",
			c.Regressions, c.Correction, alpha)
	}
	if !c.Failed {
		fmt.Fprintf(b, "No significant regression (overall: %s, p = %s; per combination: one-sided Fisher exact, %s correction; α = %s).\n\n",
			overallMethodText(c.Overall.Method), pValueText(c.Overall.PValue), c.Correction, alpha)
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
	fmt.Fprintf(b, "Overall, stratified by combination: the candidate passed %d time(s) where %s were expected if nothing had changed (%d combination(s) with both passes and failures); one-sided p = %s.\n\n",
		c.Overall.Observed, strconv.FormatFloat(c.Overall.Expected, 'f', 1, 64), c.Overall.Combinations, pValueText(c.Overall.PValue))
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
		if c.MoreRows > 0 {
			fmt.Fprintf(b, "%d more matched combination(s) not shown: the table lists the %d with the smallest adjusted p; the tests cover all %d.\n\n",
				c.MoreRows, len(c.Rows), len(c.Rows)+c.MoreRows)
		}
	}
	writeMarkdownEfficiency(b, c)
	for _, only := range []struct {
		side string
		keys []string
		more int
	}{{"baseline", c.OnlyBaseline, c.MoreOnlyBaseline}, {"candidate", c.OnlyCandidate, c.MoreOnlyCandidate}} {
		if len(only.keys) == 0 {
			continue
		}
		fmt.Fprintf(b, "Only in %s: %d combination(s)\n\n", only.side, len(only.keys)+only.more)
		for _, k := range only.keys {
			fmt.Fprintf(b, "- %s\n", mdCode(k))
		}
		if only.more > 0 {
			fmt.Fprintf(b, "- … %d more not shown\n", only.more)
		}
		fmt.Fprintln(b)
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// overallMethodText names the overall test's method for people.
func overallMethodText(method string) string {
	if method == stats.MethodCMH {
		return "one-sided Cochran–Mantel–Haenszel test stratified by combination"
	}
	return "one-sided exact conditional test stratified by combination"
}

// pValueText prints a p-value with four decimals, or in scientific notation
// when that would print 0.0000.
func pValueText(p float64) string {
	switch {
	case p == 0:
		return "< 1e-300"
	case p < 0.0001:
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// writeMarkdownEfficiency writes the efficiency table of a comparison.
func writeMarkdownEfficiency(b *bufio.Writer, c *Comparison) {
	if len(c.Efficiency) == 0 {
		return
	}
	resampled := ""
	for _, e := range c.Efficiency {
		if e.Resampled > 0 {
			resampled = fmt.Sprintf(", drawn from %d jobs a side picked evenly", e.Resampled)
		}
	}
	fmt.Fprintf(b, "Efficiency over the matched combinations (median per job; reduction = 1 − candidate/baseline, bootstrap 95%% interval, 1000 resamples, seed 42; permutation p%s):\n\n", resampled)
	fmt.Fprintf(b, "| Metric | Baseline | Candidate | Reduction [95%% CI] | Effect size | p | |\n| --- | ---: | ---: | --- | --- | ---: | :---: |\n")
	for _, e := range c.Efficiency {
		mark := ""
		if e.Significant {
			mark = "significant"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s [%s, %s] | %.2f (%s) | %s | %s |\n", e.Metric,
			strconv.FormatFloat(e.BaselineMedian, 'f', -1, 64), strconv.FormatFloat(e.CandidateMedian, 'f', -1, 64),
			pctSigned(e.ReductionPct), pctSigned(e.CI95[0]), pctSigned(e.CI95[1]), e.EffectSize, e.EffectMagnitude, permutationPText(e.PValue), mark)
	}
	fmt.Fprintln(b)
}

// pctSigned prints a percentage that is already ×100, with one decimal.
func pctSigned(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) + "%" }

// permutationPText prints a permutation test's p: 0 means no permutation
// of ghx's 1,000 was as extreme, so p < 0.001.
func permutationPText(p float64) string {
	if p == 0 {
		return "< 0.001"
	}
	return pValueText(p)
}
