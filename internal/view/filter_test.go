package view

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/results"
)

// suiteJob makes job i a suite's: four combinations (city), two agents,
// repetitions; agent b fails the combination Paris where a passes it.
func suiteJob(j *results.Job) {
	i := int(j.Index)
	city := []string{"Paris", "Tokyo", "Lima", "Oslo"}[i%4]
	agent := []string{"a", "b"}[i/4%2]
	j.Agent, j.Model = agent, "m1"
	j.Combination = fmt.Sprintf("c-%d", i%4)
	j.Run = i/8 + 1
	j.ID = fmt.Sprintf("%s/m1/greet/%s/run-%d", agent, j.Combination, j.Run)
	j.Params = map[string]any{"vars.city": city, "vars.n": i % 2}
	j.Completed, j.Passed, j.Cause, j.Error, j.Crash = true, true, "", "", ""
	j.Evaluations = []results.Evaluation{
		{Type: "string_contains", Scope: results.ScopeStep, Passed: true, Score: 1, Message: "ok", Weight: 1},
		{Type: "tool_called", Scope: results.ScopeStep, Passed: true, Score: 1, Message: "ok", Weight: 1},
	}
	if agent == "b" && city == "Paris" {
		j.Passed, j.Reason = false, "1 of 2 evaluations failed"
		j.Evaluations[1].Passed, j.Evaluations[1].Message = false, "lookup was not called"
	}
}

// The jobs table filters on parameter values, evaluation types and
// failing evaluations, and lists their values with counts.
func TestFiltersOnParametersAndEvaluations(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, dir, "s", 32, suiteJob)
	_, base := serve(t, dir)
	var p page
	get(t, base+"/api/jobs?run=s&limit=50", &p)
	require.Len(t, p.Facets.Params, 2)
	assert.Equal(t, "vars.city", p.Facets.Params[0].Path)
	assert.Contains(t, p.Facets.Params[0].Values, count{"vars.city=Paris", 8})
	assert.Contains(t, p.Facets.Params[1].Values, count{"vars.n=1", 16}, "a number as its JSON")
	assert.Equal(t, []count{{"string_contains", 32}, {"tool_called", 32}}, p.Facets.Evals)
	assert.Equal(t, []count{{"tool_called", 4}}, p.Facets.Failing)

	q := func(v url.Values) page {
		var p page
		v.Set("run", "s")
		get(t, base+"/api/jobs?"+v.Encode(), &p)
		return p
	}
	assert.Equal(t, 8, q(url.Values{"param": {"vars.city=Paris"}}).Total)
	assert.Equal(t, 8, q(url.Values{"param": {"vars.city=Tokyo", "vars.n=1"}}).Total, "every parameter filter holds")
	assert.Equal(t, 0, q(url.Values{"param": {"vars.city=Tokyo", "vars.n=0"}}).Total)
	assert.Equal(t, 0, q(url.Values{"param": {"vars.city=Nowhere"}}).Total)
	assert.Equal(t, 32, q(url.Values{"eval": {"tool_called"}}).Total)
	assert.Equal(t, 0, q(url.Values{"eval": {"llm_judge"}}).Total)
	failing := q(url.Values{"failing": {"tool_called"}})
	assert.Equal(t, 4, failing.Total)
	for _, rw := range failing.Rows {
		assert.Equal(t, "b × m1", rw.Variant)
		assert.Equal(t, "Paris", rw.Params["vars.city"])
	}
	assert.Equal(t, 4, q(url.Values{"failing": {"tool_called"}, "variant": {"b × m1"}, "param": {"vars.city=Paris"}}).Total)
	assert.Equal(t, 32, q(url.Values{"review": {"none"}}).Total)
	assert.Equal(t, 0, q(url.Values{"review": {"any"}}).Total)
}

// Side by side: one combination's jobs across agents, repetitions and
// runs, the job asked for first, each other one marked a regression or an
// improvement against it.
func TestSideBySideAcrossAgentsAndRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, dir+"/one", "one", 32, suiteJob)
	writeResults(t, dir+"/two", "two", 8, suiteJob)
	_, base := serve(t, dir)
	var side struct {
		ID     string
		Jobs   []sibling
		Groups []sideGroup
	}
	get(t, base+"/api/side?run=one&index=0&id="+url.QueryEscape("a/m1/greet/c-0/run-1"), &side)
	require.Len(t, side.Jobs, 10, "8 jobs of c-0 in run one (2 agents × 4 repetitions), 2 in run two")
	assert.Equal(t, "one", side.Jobs[0].Run)
	assert.EqualValues(t, 0, side.Jobs[0].Index)
	assert.Empty(t, side.Jobs[0].Versus)
	regressions, runs := 0, map[string]int{}
	for _, sb := range side.Jobs[1:] {
		runs[sb.Run]++
		if sb.Variant == "b × m1" {
			assert.Equal(t, "regression", sb.Versus, "agent b fails Paris where a passed")
			regressions++
		} else {
			assert.Empty(t, sb.Versus)
		}
	}
	assert.Equal(t, 5, regressions)
	assert.Equal(t, map[string]int{"one": 7, "two": 2}, runs)
	// Per agent and run, tested as report compare tests a combination.
	require.Len(t, side.Groups, 4)
	assert.Equal(t, sideGroup{Run: "one", Variant: "a × m1", Jobs: 4, Passed: 4, Baseline: true}, side.Groups[0])
	assert.Equal(t, "b × m1", side.Groups[1].Variant)
	assert.Equal(t, 0, side.Groups[1].Passed)
	assert.True(t, side.Groups[1].Regression, "4/4 → 0/4 is significant (p %v)", side.Groups[1].P)
	assert.False(t, side.Groups[3].Regression, "1/1 → 0/1 is not (p %v)", side.Groups[3].P)

	get(t, base+"/api/side?run=one&index=4&id="+url.QueryEscape("b/m1/greet/c-0/run-1"), &side)
	require.Len(t, side.Jobs, 10)
	assert.Equal(t, "b × m1", side.Jobs[0].Variant)
	assert.Equal(t, "improvement", side.Jobs[1].Versus)
}
