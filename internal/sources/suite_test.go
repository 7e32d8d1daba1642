package sources

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// TestSuiteHoldsTheJobCap: the variants multiply the jobs Files counted,
// and the cap applies to the product (it once applied per variant).
func TestSuiteHoldsTheJobCap(t *testing.T) {
	t.Parallel()
	s := &scenario.Scenario{ID: "s", Name: "s"}
	srcs := []Source{Scenario("a", s, 3), Scenario("b", s, 2)}
	variants := []matrix.Variant{{Agent: "x"}, {Agent: "y", Model: "m"}, {Agent: "z"}}
	for _, tc := range []struct {
		name    string
		maxJobs int64
		err     string
	}{
		{name: "no cap", maxJobs: 0},
		{name: "exactly the cap", maxJobs: 15},
		{name: "one over", maxJobs: 14, err: "the run has more than 14 jobs (3 agent/model variant(s) × 5); raise the cap (--max-jobs) to run it anyway"},
		{name: "under one variant's jobs", maxJobs: 4, err: "the run has more than 4 jobs (3 agent/model variant(s) × 5)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := Suite(variants, srcs, tc.maxJobs)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			_, total, err := Combine(out, matrix.Shard{})
			require.NoError(t, err)
			assert.Equal(t, int64(15), total)
		})
	}
}
