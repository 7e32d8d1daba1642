// Package runout is what the CLI and agenteval.Kit write about a run
// beside its results: the progress lines (ProgressPrinter) and the budget
// record a run with a budget ends with (BudgetRecord).
package runout

import (
	"fmt"
	"io"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// ProgressPrinter reports progress: on a terminal a line redrawn in place
// (counts, pass rate so far, rate, ETA) at most ten times a second; elsewhere
// a plain line every Every jobs (and for every failure when Verbose).
type ProgressPrinter struct {
	W        io.Writer
	Terminal bool
	Every    int64
	Verbose  bool
	last     time.Time
}

// Update is a runner.Config.Progress function.
func (p *ProgressPrinter) Update(pr runner.Progress) {
	if p.Verbose && pr.Last != nil && !pr.Last.Passed {
		if p.Terminal {
			fmt.Fprint(p.W, "\r\033[K")
		}
		fmt.Fprintf(p.W, "FAIL %s: %s\n", pr.Last.ID, pr.Last.Reason)
	}
	done := pr.Total > 0 && pr.Done >= pr.Total
	if p.Terminal {
		if !done && time.Since(p.last) < 100*time.Millisecond {
			return
		}
		p.last = time.Now()
		fmt.Fprintf(p.W, "\r\033[K%s", p.line(pr))
		if done {
			fmt.Fprintln(p.W)
		}
		return
	}
	every := p.Every
	if every <= 0 {
		every = 1000
	}
	if pr.Done%every == 0 || done {
		fmt.Fprintln(p.W, p.line(pr))
	}
}

func (p *ProgressPrinter) line(pr runner.Progress) string {
	rate := float64(pr.Done) / max(pr.Elapsed.Seconds(), 1e-9)
	passRate := 0.0
	if pr.Done > 0 {
		passRate = 100 * float64(pr.Passed) / float64(pr.Done)
	}
	s := fmt.Sprintf("%d", pr.Done)
	if pr.Total > 0 {
		s += fmt.Sprintf("/%d", pr.Total)
	}
	s += fmt.Sprintf(" jobs  %d passed  %d failed  %d incomplete  pass %.1f%%  %.0f jobs/s", pr.Passed, pr.Failed, pr.Incomplete, passRate, rate)
	if pr.Total > 0 && pr.Done < pr.Total && rate > 0 {
		eta := time.Duration(float64(pr.Total-pr.Done) / rate * float64(time.Second))
		s += "  ETA " + eta.Round(time.Second).String()
	}
	return s + throttled(pr.Throttle)
}

// throttled describes how much the endpoints' rate limits held the run
// back, as in "  throttled: 12 waits, 3 refused, limit 8 in flight";
// empty when nothing was.
func throttled(t llm.ThrottleStats) string {
	if t.Waits == 0 && t.Refused == 0 {
		return ""
	}
	s := fmt.Sprintf("  throttled: %d waits", t.Waits)
	if t.Refused > 0 {
		s += fmt.Sprintf(", %d refused", t.Refused)
	}
	if t.Limit > 0 {
		s += fmt.Sprintf(", limit %d in flight", t.Limit)
	}
	return s
}

// BudgetRecord is the results record (results.Budget) of u, what a run
// that owned owned jobs and ran ran of them used of budget b: what a
// results file ends with, so a report can say the run stopped at its
// budget.
func BudgetRecord(b *runner.Budget, u *runner.BudgetUse, runID string, owned, ran int64) *results.Budget {
	rec := &results.Budget{Record: results.RecordBudget, RunID: runID, Used: u.Used, Reached: u.Reached, Stopped: u.Stopped, Ended: time.Now().UTC()}
	if b != nil {
		rec.Priced = b.Cost != nil
		rec.Limit = results.Amounts{Tokens: b.Tokens, CostUSD: b.CostUSD, TimeMS: float64(b.Time) / float64(time.Millisecond)}
	}
	if u.Stopped {
		rec.Unstarted = max(0, owned-ran)
	}
	return rec
}
