package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// TestReadBudgetRecords: a budget record is read with the estimate of the
// plan before it in its input, shown in Markdown and HTML; a malformed one
// is skipped with a warning like any malformed line.
func TestReadBudgetRecords(t *testing.T) {
	t.Parallel()
	cost := 0.25
	budget, err := json.Marshal(&results.Budget{Record: results.RecordBudget, RunID: "r", Limit: results.Amounts{Tokens: 300},
		Used: results.Amounts{Tokens: 300, CostUSD: 0.01, TimeMS: 1500}, Priced: true, Reached: []string{"tokens"}, Stopped: true, Unstarted: 2})
	require.NoError(t, err)
	lines := []string{
		planLine(t, results.Plan{RunID: "r", TotalJobs: 4, Estimate: &results.Estimate{Jobs: 4, Tokens: 400, CostUSD: &cost, WallMS: 4000, Basis: "limits"}}),
		jobLine(t, simpleJob("s", 1, 0, "pass")),
		jobLine(t, simpleJob("s", 2, 1, "pass")),
		string(budget),
		`{"record":"budget","used":"lots"}`,
	}
	r, err := Read([]Input{input("in", lines...)}, Options{})
	require.NoError(t, err)
	s := r.Summary()
	require.Len(t, s.Budgets, 1)
	b := s.Budgets[0]
	assert.Equal(t, "in", b.Input)
	assert.True(t, b.Stopped)
	require.NotNil(t, b.Estimate)
	assert.EqualValues(t, 400, b.Estimate.Tokens)
	assert.EqualValues(t, 1, s.Malformed)
	assert.Contains(t, s.Warnings[0], "malformed budget record skipped")

	md := render(t, func(w *bytes.Buffer) error { return writeMarkdown(w, s, nil) })
	assert.Contains(t, md, "The run stopped at its budget (tokens reached) with 2 job(s) not started")
	assert.Contains(t, md, "| 1 (stopped at its budget) | tokens | 300 | 400 | 300 |")
	assert.Contains(t, md, "| | cost | none | $0.2500 | $0.0100 |")
	html := render(t, func(w *bytes.Buffer) error { return writeHTML(w, r, WriteOptions{}) })
	assert.Contains(t, html, `<div class="warn budget">Run r stopped at its budget (tokens reached): tokens 300 of 300 (estimate 400), cost $0.0100 (estimate $0.2500), time 1.5s (estimate 4s); 2 job(s) not started</div>`)
}
