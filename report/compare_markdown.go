package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

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
	if t := reviewedText(c); t != "" {
		fmt.Fprintf(b, "%s\n\n", t)
	}
	if c.BelowMinPassRate {
		fmt.Fprintf(b, "**Pass rate below minimum:** candidate %s < %s.\n\n", pct(c.CandidateAll.PassRate), pct(c.MinPassRate))
	}
	if c.NothingMatched {
		fmt.Fprintf(b, "**Nothing compared:** the baseline and the candidate have no combination in common (job ids are source/combination/run-N: the two ran different files, matrices or agents).\n\n")
	}
	if text := missingText(c); text != "" && !c.NothingMatched {
		if c.Incomplete {
			fmt.Fprintf(b, "**The candidate does not cover the baseline:** %s; the gate cannot vouch for what did not run (`--allow-missing` accepts it).\n\n", text)
		} else {
			fmt.Fprintf(b, "Accepted as missing (`--allow-missing`): %s.\n\n", text)
		}
	}
	if !c.NothingMatched {
		fmt.Fprintf(b, "%s\n\n", powerSentence(c))
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
		fmt.Fprintf(b, "| Scenario | Combination | Baseline | Candidate | Δ | p | adjusted p | Detectable drop | |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: |\n")
		for _, r := range c.Rows {
			mark := ""
			if r.Regression {
				mark = "❌"
			}
			fmt.Fprintf(b, "| %s | %s | %s (%d/%d) | %s (%d/%d) | %s pp | %s | %s | %s | %s |\n",
				mdCell(r.Scenario), mdCell(r.Label), pct(r.Baseline.PassRate), r.Baseline.Passed, r.Baseline.Runs,
				pct(r.Candidate.PassRate), r.Candidate.Passed, r.Candidate.Runs, ppSigned(r.Delta), pValueText(r.PValue), pValueText(r.AdjustedP),
				dropText(r.MinDetectableDrop), mark)
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
		fmt.Fprintf(b, "| %s | %s | %s | %s [%s, %s] | %.2f (%s) | %s | %s |\n", metricText(e.Metric),
			effMedianText(e.Metric, e.BaselineMedian), effMedianText(e.Metric, e.CandidateMedian),
			pctSigned(e.ReductionPct), pctSigned(e.CI95[0]), pctSigned(e.CI95[1]), e.EffectSize, e.EffectMagnitude, permutationPText(e.PValue), significanceText(e, c.Alpha))
	}
	fmt.Fprintln(b)
}

// missingText lists what the candidate lacks ("" when nothing): the
// baseline's combinations it did not run, its shards without results and
// its jobs without a record.
func missingText(c *Comparison) string {
	var parts []string
	if n := len(c.OnlyBaseline) + c.MoreOnlyBaseline; n > 0 {
		parts = append(parts, fmt.Sprintf("%d combination(s) of the baseline did not run (listed below)", n))
	}
	if n := len(c.MissingShards); n > 0 {
		parts = append(parts, fmt.Sprintf("shard(s) %s have no results", listTextN(c.MissingShards, 10)))
	}
	if c.CandidateMissingJobs > 0 {
		parts = append(parts, fmt.Sprintf("%d job(s) of its run never ran (indexes %s)", c.CandidateMissingJobs, rangesText(c.CandidateMissing, 10)))
	}
	return strings.Join(parts, "; ")
}

// listTextN joins the first n items, saying how many more there are.
func listTextN(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// powerSentence says in one sentence how large a drop the tests could see
// at these sample sizes, so that a reader knows when a pass means little.
func powerSentence(c *Comparison) string {
	var lo, hi float64
	blind, seeing := 0, 0
	for _, r := range c.Rows {
		if r.MinDetectableDrop == nil {
			blind++
			continue
		}
		d := *r.MinDetectableDrop
		if seeing == 0 || d < lo {
			lo = d
		}
		if seeing == 0 || d > hi {
			hi = d
		}
		seeing++
	}
	var per string
	switch {
	case seeing == 0:
		per = "no single combination's test can detect any drop"
	case lo == hi:
		per = fmt.Sprintf("a combination's test needs a drop of at least %s pp", ppText(lo))
	default:
		per = fmt.Sprintf("a combination's test needs a drop of at least %s to %s pp, depending on its runs", ppText(lo), ppText(hi))
	}
	if seeing > 0 && blind > 0 {
		per += fmt.Sprintf(", while %d of %d combination(s) cannot detect any drop", blind, len(c.Rows))
	}
	if c.Overall.MinDetectableDrop == nil {
		return fmt.Sprintf("Power: at these sample sizes the overall test cannot detect any drop in the pass rate, and %s; add runs before trusting a pass.", per)
	}
	return fmt.Sprintf("Power: at these sample sizes the overall test would flag a drop of %s pp or more in the pass rate, and %s (α = %s).",
		ppText(*c.Overall.MinDetectableDrop), per, strconv.FormatFloat(c.Alpha, 'g', -1, 64))
}

// ppText prints a rate difference in percentage points with one decimal.
func ppText(d float64) string { return strconv.FormatFloat(d*100, 'f', 1, 64) }

// ppSigned prints a rate difference in percentage points with its sign.
func ppSigned(d float64) string { return fmt.Sprintf("%+.1f", d*100) }

// dropText prints a row's smallest detectable drop, "none" when no drop
// could be detected.
func dropText(d *float64) string {
	if d == nil {
		return "none"
	}
	return "≥ " + ppText(*d) + " pp"
}

// metricText names an efficiency metric for people.
func metricText(m string) string {
	switch m {
	case "active_tokens":
		return "active tokens (input + output + reasoning, cache excluded)"
	case "total_tokens":
		return "total tokens"
	case "duration_ms":
		return "duration (ms)"
	case "tool_calls":
		return "tool calls"
	case "cost_usd":
		return "cost (US dollars: agent, user and judge)"
	}
	return m
}

// medianText prints a median: an integer as one, else with one decimal.
func medianText(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return strconv.FormatFloat(f, 'f', 1, 64)
}

// significanceText says whether an efficiency difference is significant,
// and when its p is under α but it is not, why: the interval of the
// reduction must exclude 0 too.
func significanceText(e EfficiencyRow, alpha float64) string {
	switch {
	case e.Significant:
		return "significant"
	case stats.Below(e.PValue, alpha):
		return "not significant: the 95% interval includes 0"
	}
	return ""
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
