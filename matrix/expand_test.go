package matrix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

func compileText(t testing.TB, text string, opts Options) *Plan {
	t.Helper()
	_, f := loadMatrix(t, text)
	p, diags := Compile(f, opts)
	require.False(t, diags.HasErrors(), "%v", diags)
	return p
}

func collect(t testing.TB, p *Plan) []Job {
	t.Helper()
	var out []Job
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		out = append(out, j)
	}
	return out
}

const twoAxes = "name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 2\nmatrix:\n" +
	"  - parameter: run[1].conversation.max_turns\n    values: [2, 3]\n" +
	"  - parameter: name\n    values: [A, B, C]\n"

func TestJobsOrderAndIDs(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	jobs := collect(t, p)
	require.Len(t, jobs, 12)
	type row struct {
		turns any
		name  any
		run   int
	}
	var got []row
	for i, j := range jobs {
		assert.Equal(t, int64(i), j.Index)
		assert.Equal(t, "base", j.ScenarioID)
		assert.Equal(t, fmt.Sprintf("m/%s/run-%d", j.Combination, j.Run), j.ID, "the matrix file names its jobs")
		assert.Regexp(t, `^c-[0-9a-f]{16}$`, j.Combination)
		got = append(got, row{j.Params[0].Value, j.Params[1].Value, j.Run})
		assert.Equal(t, j.Params[1].Value, j.Scenario.Name)
		assert.Equal(t, j.Params[0].Value, json.Number(fmt.Sprint(j.Scenario.Run[1].Conversation.MaxTurns)))
	}
	n := func(s string) any { return json.Number(s) }
	assert.Equal(t, []row{
		{n("2"), "A", 1}, {n("2"), "A", 2}, {n("2"), "B", 1}, {n("2"), "B", 2}, {n("2"), "C", 1}, {n("2"), "C", 2},
		{n("3"), "A", 1}, {n("3"), "A", 2}, {n("3"), "B", 1}, {n("3"), "B", 2}, {n("3"), "C", 1}, {n("3"), "C", 2},
	}, got, "axis 0 slowest, the last axis fastest, runs innermost")
	// Runs of one combination share its id; combinations differ.
	assert.Equal(t, jobs[0].Combination, jobs[1].Combination)
	seen := map[string]bool{}
	for _, j := range jobs {
		assert.False(t, seen[j.ID], "duplicate id %s", j.ID)
		seen[j.ID] = true
	}
}

// TestCombinationIDsAreContentAddressed: the same parameters give the same id
// whatever the axis order and however the YAML spells the values.
func TestCombinationIDsAreContentAddressed(t *testing.T) {
	a := compileText(t, twoAxes, Options{})
	b := compileText(t, "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n"+
		"  - parameter: '[\"name\"]'\n    values: [\"C\", 'B', A]\n"+
		"  - parameter: run[1].conversation['max_turns']\n    values: [3.0, 0x2]\n", Options{})
	ids := func(p *Plan) map[string]string {
		out := map[string]string{}
		for j, err := range p.Headers(context.Background()) {
			require.NoError(t, err)
			key := ""
			for _, prm := range j.Params {
				if prm.Path == "name" {
					key += fmt.Sprint(prm.Value)
				}
			}
			for _, prm := range j.Params {
				if prm.Path != "name" {
					key += fmt.Sprint(prm.Value)
				}
			}
			out[key] = j.Combination
		}
		return out
	}
	assert.Equal(t, ids(a), ids(b))
	// A known vector, so that ids stay stable across releases.
	assert.Equal(t, "c-4f580d246aa8212b", mustSingleAxis(t, "name", "['Test A']"))
}

func mustSingleAxis(t *testing.T, param, values string) string {
	p := compileText(t, oneAxis(param, values), Options{})
	for j, err := range p.Headers(context.Background()) {
		require.NoError(t, err)
		return j.Combination
	}
	t.Fatal("no jobs")
	return ""
}

func TestJobsShareOnlyWhatTheyDoNotOverride(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	before, err := json.Marshal(p.base)
	require.NoError(t, err)
	jobs := collect(t, p)
	after, err := json.Marshal(p.base)
	require.NoError(t, err)
	assert.JSONEq(t, string(before), string(after), "expansion must not modify the base")

	j0, j1 := jobs[0], jobs[1]
	// Untouched parts are shared with the base...
	assert.Same(t, p.base.Run[0].Evaluations[0].Params, j0.Scenario.Run[0].Evaluations[0].Params)
	assert.Same(t, p.base.Setup, j0.Scenario.Setup)
	// ...while every container on an overridden path is the job's own.
	assert.NotSame(t, p.base, j0.Scenario)
	assert.NotSame(t, &p.base.Run[0], &j0.Scenario.Run[0])
	assert.NotSame(t, &j0.Scenario.Run[0], &j1.Scenario.Run[0])
	assert.NotSame(t, j0.Scenario.Run[1].Conversation, p.base.Run[1].Conversation)
	assert.NotSame(t, j0.Scenario.Run[1].Conversation, j1.Scenario.Run[1].Conversation)
	// Overridden containers of one job can be written without another job noticing.
	j0.Scenario.Run[1].Conversation.MaxTurns = 99
	j0.Scenario.Name = "changed"
	assert.Equal(t, 2, j1.Scenario.Run[1].Conversation.MaxTurns)
	assert.Equal(t, "A", j1.Scenario.Name)
	assert.Equal(t, 3, p.base.Run[1].Conversation.MaxTurns)
}

// TestJobsConcurrentReaders runs with -race: jobs are read on other
// goroutines while the expansion goes on.
func TestJobsConcurrentReaders(t *testing.T) {
	_, f := loadMatrix(t, readFixture(t, "testdata/sweep.matrix.yaml"))
	p, diags := Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	var wg sync.WaitGroup
	ch := make(chan Job)
	for range 4 {
		wg.Go(func() {
			for j := range ch {
				_, err := json.Marshal(j.Scenario)
				assert.NoError(t, err)
				j.Scenario.Name = j.ID // a runner writing its own top level
			}
		})
	}
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		ch <- j
	}
	close(ch)
	wg.Wait()
}

func TestSweepFixtureMatchesLoader(t *testing.T) {
	l, f := loadMatrix(t, readFixture(t, "testdata/sweep.matrix.yaml"))
	p, diags := Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	before, err := json.Marshal(p.base)
	require.NoError(t, err)
	defer func() {
		after, err := json.Marshal(p.base)
		require.NoError(t, err)
		assert.JSONEq(t, string(before), string(after), "expansion must not modify the base")
	}()
	n, err := p.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(256*2), n)
	weighted := 0
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		if j.Scenario.Judgment.Strategy == "weighted" {
			require.NotNil(t, j.Scenario.Judgment.Threshold, "weighted gets its default threshold")
			weighted++
		} else {
			assert.Nil(t, j.Scenario.Judgment.Threshold)
		}
		if j.Index%7 == 0 {
			checkAgainstLoader(t, l, f, p, j)
		}
	}
	assert.Equal(t, 256, weighted)
}

func TestMaterializeMatchesJobs(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	for j, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		s, err := p.Materialize(j.Index)
		require.NoError(t, err)
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(j.Scenario)
		assert.JSONEq(t, string(b), string(a))
	}
	_, err := p.Materialize(12)
	assert.EqualError(t, err, "matrix: job index 12 is outside the matrix (6 combinations × 2 runs)")
	_, err = p.Materialize(-1)
	assert.Error(t, err)
}

func TestCountCapAndOverflow(t *testing.T) {
	huge := "name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 4611686018427387904\nmatrix:\n" +
		"  - parameter: name\n    values: [A, B, C]\n"
	p := compileText(t, huge, Options{})
	_, err := p.Count()
	require.ErrorIs(t, err, ErrOverflow)
	assert.EqualError(t, err, "matrix: job count overflows int64: 3 × 4611686018427387904 run(s)")
	for _, err := range p.Jobs(context.Background()) {
		require.ErrorIs(t, err, ErrOverflow)
	}

	big := "name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 1000000000\nmatrix:\n" +
		"  - parameter: name\n    values: [A, B, C]\n"
	p = compileText(t, big, Options{})
	n, err := p.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(3_000_000_000), n, "counting never expands")
	f, err := parseFilter("name=B")
	require.NoError(t, err)
	q, err := p.Select([]Filter{f}, Shard{Index: 3, Count: 7})
	require.NoError(t, err)
	n, err = q.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(142857143), n)

	calls := 0
	for _, err := range p.withMaxJobs(10_000).Jobs(context.Background()) {
		calls++
		require.ErrorIs(t, err, ErrTooManyJobs)
		assert.EqualError(t, err, "matrix: too many jobs: the selection holds 3000000000 jobs (3 × 1000000000 run(s)), more than the cap of 10000; narrow it with filters or raise the cap (--max-jobs)")
	}
	assert.Equal(t, 1, calls)

	small := compileText(t, twoAxes, Options{MaxJobs: 11})
	for _, err := range small.Jobs(context.Background()) {
		require.ErrorIs(t, err, ErrTooManyJobs)
	}
	assert.Len(t, collect(t, small.withMaxJobs(12)), 12)
	assert.Len(t, collect(t, small.withMaxJobs(0)), 12, "0 is no cap")
	assert.Equal(t, int64(0), small.withMaxJobs(-1).maxJobs)
}

func TestJobsStopsEarly(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	n := 0
	for _, err := range p.Jobs(context.Background()) {
		require.NoError(t, err)
		n++
		if n == 3 {
			break
		}
	}
	assert.Equal(t, 3, n)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var errs []error
	for _, err := range p.Jobs(ctx) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.True(t, errors.Is(errs[0], context.Canceled))
}

func TestSingle(t *testing.T) {
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, err := l.LoadFile("testdata/base.scenario.yaml")
	require.NoError(t, err)
	p := Single(f.Scenario, 3, 0)
	n, err := p.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	jobs := collect(t, p)
	require.Len(t, jobs, 3)
	for i, j := range jobs {
		assert.Equal(t, fmt.Sprintf("base/-/run-%d", i+1), j.ID)
		assert.Equal(t, "-", j.Combination)
		assert.Equal(t, int64(i), j.Index)
		assert.Nil(t, j.Params)
		assert.NotSame(t, f.Scenario, j.Scenario, "each job has its own top level")
		assert.Same(t, &f.Scenario.Run[0], &j.Scenario.Run[0])
	}
	flt, err := parseFilter("name=x")
	require.NoError(t, err)
	_, err = p.Select([]Filter{flt}, Shard{})
	assert.EqualError(t, err, `filter "name=x": this scenario has no matrix, so there are no parameters to filter on`)
	q, err := p.Select(nil, Shard{Index: 2, Count: 2})
	require.NoError(t, err)
	jobs = collect(t, q)
	require.Len(t, jobs, 1)
	assert.Equal(t, "base/-/run-2", jobs[0].ID)
	assert.Equal(t, 1, Single(f.Scenario, 0, 0).runs)
	var capErr error
	for _, err := range Single(f.Scenario, 3, 2).Jobs(context.Background()) {
		if err != nil {
			capErr = err
			break
		}
	}
	assert.ErrorIs(t, capErr, ErrTooManyJobs, "3 runs over a cap of 2")
}

func TestParamsDoNotAlias(t *testing.T) {
	p := compileText(t, twoAxes, Options{})
	var jobs []Job
	for j, err := range p.Headers(context.Background()) {
		require.NoError(t, err)
		jobs = append(jobs, j)
	}
	want := fmt.Sprint(jobs[1].Params)
	jobs[0].Params = append(jobs[0].Params, Param{Path: "extra", Value: 1})
	jobs[0].Params[0].Value = "changed"
	assert.Equal(t, want, fmt.Sprint(jobs[1].Params))
	assert.Equal(t, 2, cap(jobs[1].Params))
}

// withMaxJobs (tests) returns a copy of the plan with another cap on its selected
// jobs: 0 (or less) means no cap.
func (p *Plan) withMaxJobs(n int64) *Plan {
	q := *p
	q.maxJobs = max(n, 0)
	return &q
}

// TestIDsKeptAfterExpansion: ids built in a reused buffer stay intact
// however many jobs follow, and Jobs and Headers give the same ids.
func TestIDsKeptAfterExpansion(t *testing.T) {
	t.Parallel()
	values := make([]string, 300)
	for i := range values {
		values[i] = fmt.Sprintf("'input %d'", i)
	}
	p := compileText(t, "name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 3\nmatrix:\n"+
		"  - parameter: run[0].input\n    values: ["+strings.Join(values, ", ")+"]\n", Options{})
	jobs := collect(t, p)
	require.Len(t, jobs, 900)
	var headers []string
	for j, err := range p.Headers(context.Background()) {
		require.NoError(t, err)
		headers = append(headers, j.ID)
	}
	for i, j := range jobs {
		assert.Regexp(t, `^c-[0-9a-f]{16}$`, j.Combination)
		assert.Equal(t, fmt.Sprintf("m/%s/run-%d", j.Combination, j.Run), j.ID)
		assert.Equal(t, headers[i], j.ID)
		if i%3 == 0 {
			assert.Equal(t, fmt.Sprintf("input %d", i/3), j.Scenario.Run[0].Input)
		}
	}
}
