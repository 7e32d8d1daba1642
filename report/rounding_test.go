package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// TestDurationsAreRoundedToTheMicrosecond: sums and percentiles of
// durations reach the JSON report rounded to 0.001 ms, not as
// floating-point noise (0.1 + 0.2 ms summed to 0.30000000000000004), and
// the Markdown prints whole milliseconds (issue 25 point 8).
func TestDurationsAreRoundedToTheMicrosecond(t *testing.T) {
	t.Parallel()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 3, Agent: "echo"})}
	for i, d := range []float64{0.1, 0.2, 65.35900000000001} {
		j := simpleJob("s", i+1, int64(i), "pass")
		j.DurationMS = d
		lines = append(lines, jobLine(t, j))
	}
	r, err := Read([]Input{input("x", lines...)}, Options{})
	require.NoError(t, err)
	s := r.Summary()
	d := s.Scenarios[0].Durations
	assert.Equal(t, 65.659, d.Total)
	assert.Equal(t, 0.2, d.P50)
	assert.Equal(t, 65.359, d.Max)
	var b bytes.Buffer
	require.NoError(t, json.NewEncoder(&b).Encode(s))
	assert.Contains(t, b.String(), `"total_ms":65.659`)
	assert.NotContains(t, b.String(), "0000000")
}
