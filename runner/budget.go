package runner

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/agenteval/agenteval/results"
)

// Budget bounds what a run may use: tokens, cost, wall time, in any
// combination (a zero field has no limit). Once a limit is reached no new
// job starts; jobs already running finish (or time out) and are recorded,
// and the jobs never started are not recorded, so resuming the run later
// runs them. Usage is counted from each job's Usage (what the agent
// reported) when the job finishes, so the use can overshoot a limit by what
// the jobs running at that moment use: at most Concurrency-1 jobs beyond
// the one that reached it. Time counts from the start of Run.
type Budget struct {
	// Tokens bounds the total tokens of the run's jobs.
	Tokens int64
	// CostUSD bounds their cost in US dollars, priced by Cost.
	CostUSD float64
	// Cost prices one finished job in US dollars (its Usage, priced by the
	// model its Agent and Model say it ran with); required with CostUSD.
	Cost func(*results.Job) float64
	// Time bounds the run's wall time.
	Time time.Duration
}

// BudgetUse is what a run with a budget used, in Summary.Budget.
type BudgetUse struct {
	// Used is what the jobs that finished in this run used, and its wall time.
	Used results.Amounts
	// Reached names the limits reached: "tokens", "cost", "time".
	Reached []string
	// Stopped is true when jobs were left unstarted because of the budget.
	Stopped bool
}

// Limit names of BudgetUse.Reached, in the order they are reported.
const (
	limitTokens = 1 << iota
	limitCost
	limitTime
)

// budgetState accounts a run's use with atomics only: one load before each
// job and a few adds after it, no lock.
type budgetState struct {
	b        Budget
	tokens   atomic.Int64
	costNano atomic.Int64 // US dollars × 1e9
	reached  atomic.Uint32
	stopped  atomic.Bool
	timer    *time.Timer
}

func newBudgetState(b *Budget) *budgetState {
	if b == nil {
		return nil
	}
	s := &budgetState{b: *b}
	if b.Time > 0 {
		s.timer = time.AfterFunc(b.Time, func() { s.reached.Or(limitTime) })
	}
	return s
}

// over reports whether a limit was reached, and then notes that a job is
// being left unstarted.
func (s *budgetState) over() bool {
	if s == nil || s.reached.Load() == 0 {
		return false
	}
	s.stopped.Store(true)
	return true
}

// add counts a finished job's usage.
func (s *budgetState) add(j *results.Job) {
	if s == nil {
		return
	}
	u := j.Usage
	n := int64(u.TotalTokens)
	if n == 0 {
		n = int64(u.PromptTokens) + int64(u.CompletionTokens)
	}
	if t := s.tokens.Add(n); s.b.Tokens > 0 && t >= s.b.Tokens {
		s.reached.Or(limitTokens)
	}
	if s.b.Cost != nil {
		c := s.b.Cost(j)
		if c > 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
			if total := s.costNano.Add(int64(math.Round(c * 1e9))); s.b.CostUSD > 0 && float64(total) >= s.b.CostUSD*1e9 {
				s.reached.Or(limitCost)
			}
		}
	}
}

// use ends the accounting and reports it.
func (s *budgetState) use(elapsed time.Duration) *BudgetUse {
	if s == nil {
		return nil
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	if s.b.Time > 0 && elapsed >= s.b.Time {
		s.reached.Or(limitTime)
	}
	u := &BudgetUse{Used: results.Amounts{Tokens: s.tokens.Load(), CostUSD: float64(s.costNano.Load()) / 1e9,
		TimeMS: float64(elapsed) / float64(time.Millisecond)}, Stopped: s.stopped.Load()}
	r := s.reached.Load()
	for _, l := range []struct {
		bit  uint32
		name string
	}{{limitTokens, "tokens"}, {limitCost, "cost"}, {limitTime, "time"}} {
		if r&l.bit != 0 {
			u.Reached = append(u.Reached, l.name)
		}
	}
	return u
}
