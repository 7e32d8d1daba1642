package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// TestLargeInputCapsTables reads 10^5 combinations (a one-axis matrix, one
// run each, 1 in 97 failing): every total covers all of them, while the
// per-combination tables list the first DefaultMaxCombinations and say
// how many they leave out, in every format and in a comparison.
func TestLargeInputCapsTables(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 2×10^5 records")
	}
	t.Parallel()
	const n, failEvery = 100_000, 97
	failing := n / failEvery
	dir := t.TempDir()
	read := func(path string) *Results {
		r, err := ReadFiles([]string{path}, Options{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = r.Close() })
		return r
	}
	cand := read(writeOneAxisRun(t, dir, n, failEvery))
	base := read(writeOneAxisRun(t, dir, n, 0))

	s := cand.Summary()
	require.Len(t, s.Scenarios, 1)
	sc := s.Scenarios[0]
	assert.Equal(t, n, s.Totals.Runs)
	assert.Equal(t, n-failing, s.Totals.Passed)
	assert.Len(t, sc.Combinations, DefaultMaxCombinations)
	assert.Equal(t, n-DefaultMaxCombinations, sc.MoreCombinations)
	assert.Equal(t, n, sc.CombinationCount())
	assert.Equal(t, "m/c-00000000", sc.Combinations[0].Key, "the first combinations in job order")
	assert.Equal(t, fmt.Sprintf("m/c-%08x", DefaultMaxCombinations-1), sc.Combinations[DefaultMaxCombinations-1].Key)
	require.Len(t, sc.Parameters, 1)
	p := sc.Parameters[0]
	assert.Len(t, p.Values, DefaultMaxCombinations)
	require.NotNil(t, p.Other)
	assert.Equal(t, n-DefaultMaxCombinations, p.Other.Runs, "the runs of the values not listed")
	listedFailing := 0
	for _, v := range p.Values {
		listedFailing += v.Runs - v.Passed
	}
	assert.Equal(t, failing, listedFailing+p.Other.Runs-p.Other.Passed)
	assert.Len(t, sc.FailingEvaluations, 1)
	assert.Equal(t, failing, sc.FailingEvaluations[0].Failed, "evaluations tallied over every combination")

	renderAs := func(format string) string {
		var b bytes.Buffer
		require.NoError(t, Write(&b, cand, format, WriteOptions{}))
		return b.String()
	}
	more := fmt.Sprintf("%d more combination(s) not shown", n-DefaultMaxCombinations)
	md := renderAs("md")
	assert.Contains(t, md, more)
	assert.Contains(t, md, fmt.Sprintf("flaky 0/%d", n))
	assert.Equal(t, DefaultMaxCombinations, strings.Count(md, "| run[0].input=Question "), "one table row a listed combination")
	assert.Contains(t, md, fmt.Sprintf("| (other values, not listed) | %d |", n-DefaultMaxCombinations))
	assert.Contains(t, renderAs("html"), more)
	var js Summary
	require.NoError(t, json.Unmarshal([]byte(renderAs("json")), &js))
	assert.Equal(t, n-DefaultMaxCombinations, js.Scenarios[0].MoreCombinations)
	junit := renderAs("junit")
	assert.Equal(t, n, strings.Count(junit, "<testsuite "), "JUnit keeps every combination: CI counts them")
	assert.Equal(t, n, strings.Count(junit, "<testcase "))
	assert.Equal(t, failing, strings.Count(junit, "<failure "))

	c, err := CompareResults(base, cand, CompareOptions{})
	require.NoError(t, err)
	assert.Len(t, c.Rows, DefaultMaxCombinations)
	assert.Equal(t, n-DefaultMaxCombinations, c.MoreRows)
	assert.Equal(t, n-failing, c.Candidate.Passed, "the totals cover every matched combination")
	for _, row := range c.Rows {
		// 1030 combinations failed on the candidate: the most significant.
		require.Equal(t, 0, row.Candidate.Passed, row.Key)
		require.NotEqual(t, "-", row.Label, "rows are labelled from their records")
	}
	require.NotEmpty(t, c.Efficiency)
	assert.Equal(t, maxResampledJobs, c.Efficiency[0].Resampled)
	var b bytes.Buffer
	require.NoError(t, WriteComparison(&b, c, "md"))
	assert.Contains(t, b.String(), fmt.Sprintf("%d more matched combination(s) not shown", n-DefaultMaxCombinations))
	b.Reset()
	require.NoError(t, WriteComparison(&b, c, "html"))
	assert.Contains(t, b.String(), fmt.Sprintf("%d more matched combination(s) not shown", n-DefaultMaxCombinations))
}

// TestMaxCombinations caps the golden fixture's tables at one combination:
// the totals stay, the rest is counted and said.
func TestMaxCombinations(t *testing.T) {
	t.Parallel()
	s1, s2 := sampleLines(t)
	inputs := func() []Input { return []Input{input("shard-1.jsonl", s1...), input("shard-2.jsonl", s2...)} }
	all, err := Read(inputs(), Options{})
	require.NoError(t, err)
	capped, err := Read(inputs(), Options{MaxCombinations: 1})
	require.NoError(t, err)
	a, c := all.Summary(), capped.Summary()
	assert.Equal(t, a.Totals, c.Totals)
	assert.Equal(t, a.FlakyCombinations, c.FlakyCombinations)
	for i := range a.Scenarios {
		as, cs := a.Scenarios[i], c.Scenarios[i]
		assert.Equal(t, as.Stats, cs.Stats, as.ID)
		assert.Equal(t, as.CombinationCount(), cs.CombinationCount())
		assert.LessOrEqual(t, len(cs.Combinations), 1)
		if len(as.Combinations) > 1 {
			assert.Equal(t, as.Combinations[0], cs.Combinations[0], "the first in job order, the same figures")
			assert.Equal(t, len(as.Combinations)-1, cs.MoreCombinations)
		}
	}
	var b bytes.Buffer
	require.NoError(t, Write(&b, capped, "md", WriteOptions{}))
	assert.Contains(t, b.String(), "more combination(s) not shown: the table lists the first 1 in job order")
}

// TestDuplicateOfLaterRun replaces records of a combination's second and
// third runs (the runs after the first are found by another index than
// the first): each job counts once, with its winning record, in the
// combination's counts, its parameter values and its runs' order.
func TestDuplicateOfLaterRun(t *testing.T) {
	t.Parallel()
	job := func(run int, outcome string) string {
		j := simpleJob("s", run, int64(run-1), outcome)
		j.ID, j.Combination, j.Matrix = fmt.Sprintf("s/c1/run-%d", run), "c1", "m"
		j.Params = map[string]any{"model": "a"}
		return jobLine(t, j)
	}
	plan := planLine(t, results.Plan{RunID: "r", TotalJobs: 3})
	r, err := Read([]Input{input("a", plan, job(3, "fail"), job(1, "pass"), job(2, "error"), job(3, "pass"), job(2, "fail"), job(3, "fail"))}, Options{})
	require.NoError(t, err)
	s := r.Summary()
	assert.Equal(t, int64(3), s.Duplicates)
	require.Len(t, s.Scenarios, 1)
	sc := s.Scenarios[0]
	require.Len(t, sc.Combinations, 1)
	cs := sc.Combinations[0]
	assert.Equal(t, 3, cs.Runs)
	assert.Equal(t, 3, cs.Completed)
	assert.Equal(t, 1, cs.Passed, "run 1 passed, run 2's later completed record failed, run 3's last record failed")
	assert.True(t, cs.Flaky)
	require.Len(t, sc.Parameters, 1)
	assert.Equal(t, []ValueSummary{{Value: "a", Counts: newCounts(3, 3, 1)}}, sc.Parameters[0].Values)
	var runs []int
	for j, err := range r.Jobs() {
		require.NoError(t, err)
		runs = append(runs, j.Run)
	}
	assert.Equal(t, []int{1, 2, 3}, runs)
}
