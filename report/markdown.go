package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// writeMarkdown writes the summary as GitHub-flavoured Markdown that fits a
// job summary ($GITHUB_STEP_SUMMARY): totals, then a table per scenario
// with one row per combination, the per-parameter pass rates and the
// evaluations that fail most. why, when not nil, lists why jobs did not
// pass, identical reasons counted together.
func writeMarkdown(w io.Writer, s *Summary, why *whyReport) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "# agenteval report\n\n")
	if len(s.RunIDs) > 0 {
		fmt.Fprintf(b, "Run %s", mdCode(strings.Join(s.RunIDs, ", ")))
		if s.Agent != "" {
			fmt.Fprintf(b, " · agent %s", mdCode(s.Agent))
		}
		if len(s.Shards) > 0 {
			fmt.Fprintf(b, " · shards %s", strings.Join(s.Shards, ", "))
		}
		fmt.Fprintf(b, "\n\n")
	}
	t := s.Totals
	fmt.Fprintf(b, "| | |\n| --- | --- |\n")
	fmt.Fprintf(b, "| Pass rate | %s |\n", rateText(t.Passed, t.Runs, t.PassRate, t.PassInterval))
	fmt.Fprintf(b, "| Completion rate | %s |\n", rateText(t.Completed, t.Runs, t.CompletionRate, t.CompletionInterval))
	fmt.Fprintf(b, "| Failed (completed, not passed) | %d |\n", t.Failed)
	fmt.Fprintf(b, "| Incomplete | %d |\n", t.Incomplete)
	fmt.Fprintf(b, "| Flaky combinations | %d |\n", s.FlakyCombinations)
	if s.Cost != nil {
		fmt.Fprintf(b, "| Cost | %s |\n", mdCell(costText(s.Cost)))
	}
	if s.TotalJobs > 0 {
		fmt.Fprintf(b, "| Jobs recorded | %d of %d |\n", s.Recorded, s.TotalJobs)
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(b, "| Duplicate records dropped | %d |\n", s.Duplicates)
	}
	if s.Reviewed > 0 {
		fmt.Fprintf(b, "| Verdicts reviewed by a person (labels.jsonl) | %d |\n", s.Reviewed)
	}
	fmt.Fprintln(b)
	if s.MissingJobs > 0 {
		fmt.Fprintf(b, "> [!WARNING]\n> %d job(s) have no record: indexes %s\n\n", s.MissingJobs, rangesText(s.Missing, 20))
	}
	writeMarkdownWhy(b, why)
	writeMarkdownBudgets(b, s)
	writeMarkdownVariants(b, s)
	for _, sc := range s.Scenarios {
		writeMarkdownScenario(b, s, &sc)
	}
	if len(s.Warnings) > 0 {
		fmt.Fprintf(b, "## Warnings\n\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(b, "- %s\n", mdCell(w))
		}
		fmt.Fprintln(b)
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write markdown report: %w", err)
	}
	return nil
}

func writeMarkdownScenario(b *bufio.Writer, s *Summary, sc *ScenarioSummary) {
	title := sc.ID
	if sc.Name != "" && sc.Name != sc.ID {
		title = sc.Name + " (" + sc.ID + ")"
	}
	fmt.Fprintf(b, "## %s\n\n", mdCell(title))
	at, hat := kText(sc.Chosen)
	fmt.Fprintf(b, "Pass rate %s · completion %s · pass@%d %s · pass^%d %s · flaky %d/%d · p50 %s · p90 %s · %d tokens\n\n",
		rateText(sc.Passed, sc.Runs, sc.PassRate, sc.PassInterval),
		rateText(sc.Completed, sc.Runs, sc.CompletionRate, sc.CompletionInterval),
		s.K, at, s.K, hat, sc.FlakyCombinations, sc.CombinationCount(),
		ms(sc.Durations.P50), ms(sc.Durations.P90), sc.Tokens.Total)
	fmt.Fprintf(b, "| Combination | Runs | Passed | Pass rate [95%% CI] | Completed | pass@%d | pass^%d | Flaky | p50 | p90 | p99 | Tokens |\n", s.K, s.K)
	fmt.Fprintf(b, "| --- | ---: | ---: | --- | ---: | ---: | ---: | :---: | ---: | ---: | ---: | ---: |\n")
	for _, c := range sc.Combinations {
		at, hat := kText(c.Chosen)
		flaky := ""
		if c.Flaky {
			flaky = "⚠️"
		}
		rate := "n/a"
		if c.Runs > 0 {
			rate = fmt.Sprintf("%s [%s, %s]", pct(c.PassRate), pct(c.PassInterval.Lower), pct(c.PassInterval.Upper))
		}
		fmt.Fprintf(b, "| %s | %d | %d | %s | %d | %s | %s | %s | %s | %s | %s | %d |\n",
			mdCell(c.Label), c.Runs, c.Passed, rate, c.Completed, at, hat, flaky,
			ms(c.Durations.P50), ms(c.Durations.P90), ms(c.Durations.P99), c.Tokens.Total)
	}
	fmt.Fprintln(b)
	if sc.MoreCombinations > 0 {
		fmt.Fprintf(b, "%d more combination(s) not shown: the table lists the first %d in job order; the figures above cover all %d.\n\n",
			sc.MoreCombinations, len(sc.Combinations), sc.CombinationCount())
	}
	for _, p := range sc.Parameters {
		fmt.Fprintf(b, "<details><summary>By %s</summary>\n\n| Value | Runs | Pass rate [95%% CI] | Completion |\n| --- | ---: | --- | ---: |\n", mdCell(p.Path))
		for _, v := range p.Values {
			fmt.Fprintf(b, "| %s | %d | %s | %s |\n", mdCell(v.Value), v.Runs,
				rateText(v.Passed, v.Runs, v.PassRate, v.PassInterval), pct(v.CompletionRate))
		}
		if o := p.Other; o != nil {
			fmt.Fprintf(b, "| (other values, not listed) | %d | %s | %s |\n", o.Runs,
				rateText(o.Passed, o.Runs, o.PassRate, o.PassInterval), pct(o.CompletionRate))
		}
		fmt.Fprintf(b, "\n</details>\n\n")
	}
	if len(sc.FailingEvaluations) > 0 {
		fmt.Fprintf(b, "Failing evaluations:\n\n| Evaluation | Failed jobs | Errors |\n| --- | ---: | ---: |\n")
		for _, e := range sc.FailingEvaluations {
			fmt.Fprintf(b, "| %s | %d/%d | %d |\n", mdCell(evalLabel(e.Type, e.Description)), e.Failed, e.Jobs, e.Errored)
		}
		fmt.Fprintln(b)
	}
	if len(sc.TerminationReasons) > 0 {
		parts := make([]string, len(sc.TerminationReasons))
		for i, r := range sc.TerminationReasons {
			parts[i] = fmt.Sprintf("%s ×%d", mdCode(r.Name), r.N)
		}
		fmt.Fprintf(b, "Termination reasons: %s\n\n", strings.Join(parts, ", "))
	}
}

// evalLabel names an evaluation as "type: description".
func evalLabel(typ, desc string) string {
	if desc == "" {
		return typ
	}
	return typ + ": " + desc
}

// mdCell makes text safe in a table cell: no line breaks, escaped pipes and
// markup characters.
func mdCell(s string) string {
	r := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "|", `\|`, "<", "&lt;", ">", "&gt;",
		"*", `\*`, "`", "\\`")
	return r.Replace(s)
}

// mdCode renders s as inline code (no line breaks, backticks replaced).
func mdCode(s string) string {
	return "`" + strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s) + "`"
}

// writeMarkdownVariants writes a suite's agents × models, ranked, with
// their success intervals and medians of effort per job.
func writeMarkdownVariants(b *bufio.Writer, s *Summary) {
	if len(s.Variants) == 0 {
		return
	}
	fmt.Fprintf(b, "## Agents\n\n")
	costCol, costSep := "", ""
	withCost := variantsPriced(s.Variants)
	if withCost {
		costCol, costSep = " Median cost |", " ---: |"
	}
	fmt.Fprintf(b, "| Rank | Agent | Model | Pass rate [95%% CI] | Completed | Median time | Median active tokens | Median total tokens | Median tool calls | Median turns |%s Tool calls by category |\n", costCol)
	fmt.Fprintf(b, "| ---: | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |%s --- |\n", costSep)
	for _, v := range s.Variants {
		model := v.Model
		if model == "" {
			model = "-"
		}
		rank, dur, active, tokens, calls, turns := "—", "—", "—", "—", "—", "—" // no job completed: nothing measured
		if v.Completed > 0 {
			rank, dur, active, tokens = strconv.Itoa(v.Rank), msText(v.Median.DurationMS), numText(v.Median.ActiveTokens), numText(v.Median.Tokens)
			calls, turns = numText(v.Median.ToolCalls), numText(v.Median.Turns)
		}
		cost := ""
		if withCost {
			cost = " " + variantCostText(v) + " |"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d/%d | %s | %s | %s | %s | %s |%s %s |\n", rank, mdCell(v.Agent), mdCell(model),
			rateText(v.Passed, v.Runs, v.PassRate, v.PassInterval), v.Completed, v.Runs, dur,
			active, tokens, calls, turns, cost, mdCell(categoriesText(v.ToolCalls)))
	}
	fmt.Fprintln(b)
}

// numText prints a count-like figure: whole numbers without decimals.
func numText(x float64) string {
	return medianText(x)
}

// categoriesText prints tool calls by category: "ghx 12 · bash 3", or "-".
func categoriesText(cs results.Counts) string {
	if len(cs) == 0 {
		return "-"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + " " + strconv.Itoa(c.N)
	}
	return strings.Join(parts, " · ")
}

// writeMarkdownWhy lists why jobs did not pass: one row per reason, the
// largest groups first, with how many jobs and the first few job ids.
func writeMarkdownWhy(b *bufio.Writer, why *whyReport) {
	if why == nil || len(why.Groups) == 0 {
		return
	}
	fmt.Fprintf(b, "## Why jobs did not pass\n\n| Jobs | Why | For example |\n| ---: | --- | --- |\n")
	for _, g := range why.Groups {
		ids := make([]string, len(g.IDs))
		for i, id := range g.IDs {
			ids[i] = mdCode(id)
		}
		more := ""
		if g.Jobs > len(g.IDs) {
			more = fmt.Sprintf(" and %d more", g.Jobs-len(g.IDs))
		}
		fmt.Fprintf(b, "| %d | %s | %s%s |\n", g.Jobs, mdCell(g.Why), strings.Join(ids, ", "), more)
	}
	fmt.Fprintln(b)
	for _, g := range why.Groups {
		if g.Evidence == "" {
			continue
		}
		fmt.Fprintf(b, "<details><summary>Evidence of %s (%d job(s): %s)</summary>\n\n~~~~text\n%s\n~~~~\n\n</details>\n\n",
			mdCode(g.IDs[0]), g.Jobs, mdCell(clip(g.Why, 120)), strings.ReplaceAll(strings.TrimRight(g.Evidence, "\n"), "~~~~", "~ ~ ~ ~"))
	}
	if why.MoreJobs > 0 {
		fmt.Fprintf(b, "%d more job(s) did not pass for %d other reason(s)", why.MoreJobs, why.MoreGroups)
		if why.Uncounted > 0 {
			fmt.Fprintf(b, " (%d of them not grouped: more than %d distinct reasons)", why.Uncounted, maxWhyKeys)
		}
		fmt.Fprintf(b, ".\n\n")
	}
}
