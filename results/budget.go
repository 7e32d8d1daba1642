package results

import "time"

// RecordBudget is the record a run with a budget writes when it ends: the
// limits, what the run used, and whether it stopped because a limit was
// reached. Readers that predate it skip it (an unknown record kind).
const RecordBudget = "budget"

// Budget is the record of a run with a budget. A run that stopped at its
// budget left its unstarted jobs unrecorded, so --resume runs them later.
type Budget struct {
	// Record is always "budget".
	Record string `json:"record"`
	// RunID is the run's id, as in its plan.
	RunID string `json:"run_id"`
	// Limit is the budget; a zero field has no limit.
	Limit Amounts `json:"limit"`
	// Used is what this invocation's finished jobs used (resumed jobs that
	// were already recorded are not counted).
	Used Amounts `json:"used"`
	// Priced is true when the agent model's price was known, so Used.CostUSD
	// is the cost; false means the cost is unknown, not 0.
	Priced bool `json:"priced"`
	// Reached names the limits that were reached ("tokens", "cost",
	// "time"); empty when the run ended within its budget.
	Reached []string `json:"reached,omitempty"`
	// Stopped is true when the run stopped at its budget with jobs left
	// unstarted; Unstarted counts them.
	Stopped   bool  `json:"stopped"`
	Unstarted int64 `json:"unstarted"`
	// Ended is when the run ended.
	Ended time.Time `json:"ended"`
}

// Amounts are tokens, cost and wall time, in a budget or in what was used.
type Amounts struct {
	// Tokens counts total tokens (prompt and completion).
	Tokens int64 `json:"tokens,omitempty"`
	// CostUSD is in US dollars.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// TimeMS is wall time in milliseconds.
	TimeMS float64 `json:"time_ms,omitempty"`
}

// Estimate is a forecast of a run's use, stored in its plan so that a
// report can put it beside what the run used.
type Estimate struct {
	// Jobs is the number of jobs the forecast covers.
	Jobs int64 `json:"jobs"`
	// Tokens is the forecast's total tokens.
	Tokens int64 `json:"tokens"`
	// CostUSD is its cost; nil when a model's price is unknown.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// WallMS is its wall time at the run's concurrency, in milliseconds.
	WallMS float64 `json:"wall_ms"`
	// Basis says where the numbers came from ("history", "limits", or both).
	Basis string `json:"basis"`
}

// WriteBudget appends the run's budget record.
func (w *Writer) WriteBudget(b *Budget) error {
	if w == nil || w.closed {
		return errWriterClosed
	}
	b.Record = RecordBudget
	return w.writeValue(b)
}
