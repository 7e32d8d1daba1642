package sources

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// TestShardsNearTheLimitRunTheirOwnJobs: with a shard count near 2^63 the
// first position a shard owns was computed as (x mod n) + n, which
// wrapped, so the shard ran jobs it did not own with negative run numbers
// (run--2). Every shard runs exactly the jobs Owns gives it, and an
// impossible shard is refused.
func TestShardsNearTheLimitRunTheirOwnJobs(t *testing.T) {
	t.Parallel()
	s := &scenario.Scenario{ID: "s", Name: "s"}
	srcs := []Source{Scenario("a", s, 3), Scenario("b", s, 2)}
	for _, sh := range []matrix.Shard{
		{Index: math.MaxInt64, Count: math.MaxInt64},
		{Index: math.MaxInt64 - 1, Count: math.MaxInt64},
		{Index: 1, Count: math.MaxInt64},
		{Index: 4, Count: math.MaxInt64},
		{Index: 2, Count: 3},
		{Index: math.MaxInt64 - 3, Count: math.MaxInt64 - 1},
	} {
		jobs, total, err := Combine(srcs, sh)
		require.NoError(t, err)
		require.Equal(t, int64(5), total)
		var got []int64
		for j, err := range jobs {
			require.NoError(t, err)
			require.GreaterOrEqual(t, j.Run, 1, "%v ran %s", sh, j.ID)
			got = append(got, j.Index)
		}
		var want []int64
		for i := range total {
			if sh.Owns(i) {
				want = append(want, i)
			}
		}
		assert.Equal(t, want, got, "shard %v", sh)
	}
	for _, sh := range []matrix.Shard{{Index: 0, Count: 3}, {Index: 4, Count: 3}, {Index: -1, Count: math.MaxInt64}, {Index: 1, Count: math.MinInt64}} {
		_, _, err := Combine(srcs, sh)
		require.Error(t, err, "%v", sh)
	}
}
