package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/results"
)

// BudgetSummary is one invocation of a run with a budget: its limits, what
// it used, whether it stopped at the budget, and the forecast its plan
// recorded, side by side.
type BudgetSummary struct {
	// Input is the results file that holds the budget record.
	Input string `json:"input"`
	RunID string `json:"run_id"`
	// Limit, Used, Reached, Stopped and Unstarted are the budget record's.
	Limit     results.Amounts `json:"limit"`
	Used      results.Amounts `json:"used"`
	Priced    bool            `json:"priced"`
	Reached   []string        `json:"reached,omitempty"`
	Stopped   bool            `json:"stopped"`
	Unstarted int64           `json:"unstarted"`
	// Estimate is the forecast of the plan the invocation opened with.
	Estimate *results.Estimate `json:"estimate,omitempty"`
}

// addBudget keeps a budget record with the estimate of the plan before it
// in the same input.
func (r *Results) addBudget(input string, line []byte) error {
	var b results.Budget
	if err := json.Unmarshal(line, &b); err != nil {
		return fmt.Errorf("malformed budget record skipped: %w", err)
	}
	s := BudgetSummary{Input: input, RunID: b.RunID, Limit: b.Limit, Used: b.Used, Priced: b.Priced, Reached: b.Reached, Stopped: b.Stopped, Unstarted: b.Unstarted}
	for i := len(r.plans) - 1; i >= 0; i-- {
		if p := r.plans[i]; p.input == input {
			s.Estimate = p.plan.Estimate
			break
		}
	}
	r.budgets = append(r.budgets, s)
	return nil
}

// writeMarkdownBudgets says which invocations stopped at their budget and
// puts each one's forecast beside what it used.
func writeMarkdownBudgets(b *bufio.Writer, s *Summary) {
	if len(s.Budgets) == 0 {
		return
	}
	last := s.Budgets[len(s.Budgets)-1]
	switch {
	case last.Stopped && s.MissingJobs > 0:
		fmt.Fprintf(b, "> [!WARNING]\n> The run stopped at its budget (%s reached) with %d job(s) not started; `agenteval run --resume` finishes them.\n\n",
			strings.Join(last.Reached, ", "), last.Unstarted)
	case slices.ContainsFunc(s.Budgets, func(b BudgetSummary) bool { return b.Stopped }):
		fmt.Fprintf(b, "> [!NOTE]\n> The run stopped at its budget once; a later invocation (--resume) recorded the jobs it left.\n\n")
	}
	fmt.Fprintf(b, "## Budget\n\n| Invocation | | Limit | Estimate | Used |\n| --- | --- | ---: | ---: | ---: |\n")
	for i, bs := range s.Budgets {
		label := fmt.Sprintf("%d", i+1)
		switch {
		case bs.Stopped:
			label += " (stopped at its budget)"
		case len(bs.Reached) > 0:
			label += " (budget reached by its last jobs)"
		default:
			label += " (within budget)"
		}
		est := bs.Estimate
		estTokens, estCost, estTime := "—", "—", "—"
		if est != nil {
			estTokens = fmt.Sprintf("%d", est.Tokens)
			estCost = "unknown"
			if est.CostUSD != nil {
				estCost = fmt.Sprintf("$%.4f", *est.CostUSD)
			}
			estTime = msText(est.WallMS)
		}
		limit := func(set bool, v string) string {
			if !set {
				return "none"
			}
			return v
		}
		fmt.Fprintf(b, "| %s | tokens | %s | %s | %d |\n", label, limit(bs.Limit.Tokens > 0, fmt.Sprintf("%d", bs.Limit.Tokens)), estTokens, bs.Used.Tokens)
		usedCost := "unknown"
		if bs.Priced {
			usedCost = fmt.Sprintf("$%.4f", bs.Used.CostUSD)
		}
		fmt.Fprintf(b, "| | cost | %s | %s | %s |\n", limit(bs.Limit.CostUSD > 0, "$"+strconv.FormatFloat(bs.Limit.CostUSD, 'f', -1, 64)), estCost, usedCost)
		fmt.Fprintf(b, "| | time | %s | %s | %s |\n", limit(bs.Limit.TimeMS > 0, msText(bs.Limit.TimeMS)), estTime, msText(bs.Used.TimeMS))
	}
	fmt.Fprintln(b)
}

func msText(v float64) string {
	return (time.Duration(v * float64(time.Millisecond))).Round(time.Millisecond).String()
}

// budgetLine says in one line what one invocation did with its budget, with
// the plan's estimate beside each use: "stopped at its budget (tokens
// reached): tokens 500 of 500 (estimate 13000); 5 job(s) not started".
func budgetLine(bs BudgetSummary) string {
	var b strings.Builder
	switch {
	case bs.Stopped:
		fmt.Fprintf(&b, "stopped at its budget (%s reached)", strings.Join(bs.Reached, ", "))
	case len(bs.Reached) > 0:
		fmt.Fprintf(&b, "reached its budget (%s) with its last jobs", strings.Join(bs.Reached, ", "))
	default:
		b.WriteString("ended within its budget")
	}
	est := bs.Estimate
	var parts []string
	if bs.Limit.Tokens > 0 || (est != nil && est.Tokens > 0) {
		p := fmt.Sprintf("tokens %d", bs.Used.Tokens)
		if bs.Limit.Tokens > 0 {
			p += fmt.Sprintf(" of %d", bs.Limit.Tokens)
		}
		if est != nil {
			p += fmt.Sprintf(" (estimate %d)", est.Tokens)
		}
		parts = append(parts, p)
	}
	if bs.Priced {
		p := fmt.Sprintf("cost $%.4f", bs.Used.CostUSD)
		if bs.Limit.CostUSD > 0 {
			p += " of $" + strconv.FormatFloat(bs.Limit.CostUSD, 'f', -1, 64)
		}
		if est != nil && est.CostUSD != nil {
			p += fmt.Sprintf(" (estimate $%.4f)", *est.CostUSD)
		}
		parts = append(parts, p)
	}
	p := "time " + msText(bs.Used.TimeMS)
	if bs.Limit.TimeMS > 0 {
		p += " of " + msText(bs.Limit.TimeMS)
	}
	if est != nil {
		p += " (estimate " + msText(est.WallMS) + ")"
	}
	parts = append(parts, p)
	fmt.Fprintf(&b, ": %s", strings.Join(parts, ", "))
	if bs.Stopped {
		fmt.Fprintf(&b, "; %d job(s) not started", bs.Unstarted)
	}
	return b.String()
}
