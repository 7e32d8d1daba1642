package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// score runs checkpoints with exec and the built-in condition types, one
// after another.
func score(ctx context.Context, exec Executor, cps []scenario.Checkpoint) Report {
	return Checker{Executor: exec}.Score(ctx, cps)
}

// tasks is an in-memory executor: task name → data, or an error.
func tasks(m map[string]any) ExecutorFunc {
	return func(_ context.Context, task string, _ map[string]any) (any, error) {
		v, ok := m[task]
		if !ok {
			return nil, errors.New("Unsupported task: " + task)
		}
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v, nil
	}
}

func cp(id, task string, cond scenario.Condition) scenario.Checkpoint {
	return scenario.Checkpoint{ID: id, Description: "checks " + id, Task: task, Input: map[string]any{"id": id}, Condition: cond}
}

func TestScoreOverall(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	gte2 := scenario.Condition{Type: "count_gte", Value: 2.0}

	t.Run("one passing", func(t *testing.T) { // §8.16
		t.Parallel()
		rep := score(ctx, tasks(map[string]any{"t": arr(1, 2, 3)}), []scenario.Checkpoint{cp("a", "t", gte2)})
		assert.True(t, rep.Passed)
		assert.Equal(t, 1, rep.PassedCount)
		assert.Equal(t, 1, rep.Total)
	})
	t.Run("one failing", func(t *testing.T) { // §8.16
		t.Parallel()
		rep := Checker{Executor: tasks(map[string]any{"t": arr(1)})}.Score(ctx, []scenario.Checkpoint{cp("a", "t", scenario.Condition{Type: "count_gte", Value: 3.0})})
		assert.False(t, rep.Passed)
		assert.Equal(t, 0, rep.PassedCount)
		r := rep.Results[0]
		assert.Equal(t, "count >= 3", r.Expected)
		assert.Equal(t, "count is 1, want >= 3 (result: [1])", r.Message)
		assert.Equal(t, arr(1), r.Actual)
		require.NoError(t, r.Err)
	})
	t.Run("mixed", func(t *testing.T) { // §8.16
		t.Parallel()
		rep := score(ctx, tasks(map[string]any{"two": arr(1, 2), "none": arr()}), []scenario.Checkpoint{
			cp("a", "two", gte2),
			cp("b", "none", scenario.Condition{Type: "non_empty"}),
		})
		assert.False(t, rep.Passed)
		assert.Equal(t, 1, rep.PassedCount)
		assert.Equal(t, 2, rep.Total)
		assert.True(t, rep.Results[0].Passed)
		assert.False(t, rep.Results[1].Passed)
		assert.Equal(t, "b", rep.Results[1].ID)
	})
	t.Run("zero checkpoints is not a pass", func(t *testing.T) { // §8.16
		t.Parallel()
		rep := Checker{Executor: tasks(nil)}.Score(ctx, nil)
		assert.False(t, rep.Passed)
		assert.Equal(t, 0, rep.Total)
		assert.Empty(t, rep.Results)
	})
}

func TestScoreResultFields(t *testing.T) {
	t.Parallel()
	var gotTask string
	var gotInput map[string]any
	exec := ExecutorFunc(func(_ context.Context, task string, input map[string]any) (any, error) {
		gotTask, gotInput = task, input
		return map[string]any{"state": "CLOSED"}, nil
	})
	w := 2.5
	c := scenario.Checkpoint{ID: "closed", Description: "The issue is closed", Task: "issue.view",
		Input:     map[string]any{"owner": "acme", "name": "demo", "issueNumber": 7},
		Condition: scenario.Condition{Type: "field_equals", Path: "state", Value: "CLOSED"}, Weight: &w, Critical: true}
	rep := score(context.Background(), exec, []scenario.Checkpoint{c})
	require.Len(t, rep.Results, 1)
	r := rep.Results[0]
	assert.Equal(t, "issue.view", gotTask)
	assert.Equal(t, c.Input, gotInput)
	assert.Equal(t, "closed", r.ID)
	assert.Equal(t, "The issue is closed", r.Description)
	assert.Equal(t, "issue.view", r.Task)
	assert.True(t, r.Passed)
	assert.Equal(t, `state == "CLOSED"`, r.Expected)
	assert.Equal(t, `state is "CLOSED"`, r.Message)
	assert.Equal(t, 2.5, r.Weight)
	assert.True(t, r.Critical)
	assert.Positive(t, r.Duration)

	b, err := json.Marshal(r)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, map[string]any{"state": "CLOSED"}, m["actual"])
	assert.NotContains(t, m, "error")
}

func TestScoreTaskFailures(t *testing.T) { // §8.23
	t.Parallel()
	notFound := errors.New("Not found")
	rep := score(context.Background(), tasks(map[string]any{"pr.view": notFound, "ok": arr(1)}), []scenario.Checkpoint{
		cp("a", "pr.view", scenario.Condition{Type: "non_empty"}),
		cp("b", "pr.commits.list", scenario.Condition{Type: "count_gte", Value: 2.0}),
		cp("c", "ok", scenario.Condition{Type: "non_empty"}),
	})
	assert.False(t, rep.Passed)
	assert.Equal(t, 1, rep.PassedCount, "a failed task does not stop the others")

	a := rep.Results[0]
	assert.False(t, a.Passed)
	var te *Error
	require.ErrorAs(t, a.Err, &te)
	assert.Equal(t, "pr.view", te.Task)
	assert.Nil(t, te.Panic)
	require.ErrorIs(t, a.Err, notFound)
	assert.Equal(t, "task pr.view: Not found", a.Error)
	assert.Nil(t, a.Actual)
	// Unlike the reference, expected is kept on a failed task.
	assert.Equal(t, "non-empty result", a.Expected)

	assert.Equal(t, "task pr.commits.list: Unsupported task: pr.commits.list", rep.Results[1].Error)
	assert.True(t, rep.Results[2].Passed)
}

func TestScorePanics(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	require.NoError(t, reg.RegisterScorer("boom", ScorerFunc(func(context.Context, any, scenario.Condition) (bool, string, error) {
		var m map[string]int
		//lint:ignore SA5000 the point: a real runtime panic
		m["x"] = 1
		return true, "", nil
	})))
	exec := ExecutorFunc(func(_ context.Context, task string, _ map[string]any) (any, error) {
		if task == "explode" {
			panic(errTest("executor exploded"))
		}
		return arr(1), nil
	})
	rep := Checker{Executor: exec, Conditions: reg.Registry}.Score(context.Background(), []scenario.Checkpoint{
		cp("custom", "t", scenario.Condition{Type: "custom", Scorer: "boom"}),
		cp("exec", "explode", scenario.Condition{Type: "non_empty"}),
		cp("fine", "t", scenario.Condition{Type: "non_empty"}),
	})
	var pe *Error
	require.ErrorAs(t, rep.Results[0].Err, &pe)
	assert.NotNil(t, pe.Panic)
	assert.Equal(t, "t", pe.Task, "a panic in the condition names its checkpoint's task")
	assert.Contains(t, rep.Results[0].Error, "assignment to entry in nil map")
	assert.False(t, rep.Results[0].Passed)
	require.ErrorAs(t, rep.Results[1].Err, &pe)
	require.ErrorIs(t, rep.Results[1].Err, errTest("executor exploded"))
	assert.True(t, rep.Results[2].Passed)
	assert.Equal(t, 1, rep.PassedCount)
}

func TestScoreInvalidConditionSkipsTask(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	exec := ExecutorFunc(func(context.Context, string, map[string]any) (any, error) {
		calls.Add(1)
		return arr(), nil
	})
	rep := score(context.Background(), exec, []scenario.Checkpoint{
		cp("a", "t", scenario.Condition{Type: "count_gte", Value: "2"}),
		cp("b", "t", scenario.Condition{Type: "regex"}),
		cp("c", "t", scenario.Condition{Type: "custom", Scorer: "unregistered"}),
	})
	assert.Zero(t, calls.Load())
	require.ErrorIs(t, rep.Results[0].Err, ErrInvalidCondition)
	require.ErrorIs(t, rep.Results[1].Err, ErrUnknownType)
	require.ErrorIs(t, rep.Results[2].Err, ErrUnknownScorer)
	assert.Equal(t, 0, rep.PassedCount)
}

func TestScoreCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	exec := ExecutorFunc(func(context.Context, string, map[string]any) (any, error) {
		calls.Add(1)
		return arr(1), nil
	})
	rep := Checker{Executor: exec}.Score(ctx, []scenario.Checkpoint{cp("a", "t", scenario.Condition{Type: "non_empty"})})
	require.ErrorIs(t, rep.Results[0].Err, context.Canceled)
	assert.Zero(t, calls.Load())
	assert.False(t, rep.Passed)
}

func TestScoreNilExecutor(t *testing.T) {
	t.Parallel()
	rep := Checker{}.Score(context.Background(), []scenario.Checkpoint{cp("a", "t", scenario.Condition{Type: "non_empty"})})
	require.Error(t, rep.Results[0].Err)
	assert.Contains(t, rep.Results[0].Error, "Executor is nil")
}

func TestScoreConcurrency(t *testing.T) {
	t.Parallel()
	const n, limit = 12, 3
	var inFlight, peak atomic.Int32
	var mu sync.Mutex
	seen := map[string]bool{}
	exec := ExecutorFunc(func(_ context.Context, _ string, input map[string]any) (any, error) {
		cur := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		mu.Lock()
		seen[input["id"].(string)] = true
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		return arr(input["id"]), nil
	})
	cps := make([]scenario.Checkpoint, n)
	for i := range cps {
		id := string(rune('a' + i))
		cps[i] = cp(id, "t", scenario.Condition{Type: "field_equals", Path: "0", Value: id})
	}
	rep := Checker{Executor: exec, Concurrency: limit}.Score(context.Background(), cps)
	assert.True(t, rep.Passed)
	assert.Len(t, seen, n)
	assert.LessOrEqual(t, peak.Load(), int32(limit))
	assert.Greater(t, peak.Load(), int32(1), "checkpoints ran concurrently")
	for i, r := range rep.Results {
		assert.Equal(t, cps[i].ID, r.ID, "results keep the checkpoints' order")
	}
}

func TestRegistry(t *testing.T) {
	t.Parallel()
	reg := newTestRegistry()
	var names []string
	for _, ct := range reg.All() {
		names = append(names, ct.Name)
		assert.NotEmpty(t, ct.Doc, ct.Name)
	}
	assert.Equal(t, []string{"non_empty", "empty", "count_gte", "count_eq", "field_equals", "field_contains", "field_gte", "custom"}, names,
		"the built-ins are the format's eight, in its order")

	ok := ScorerFunc(func(context.Context, any, scenario.Condition) (bool, string, error) { return true, "", nil })
	require.NoError(t, reg.RegisterScorer("b", ok))
	require.NoError(t, reg.RegisterScorer("a", ok))
	require.ErrorIs(t, reg.RegisterScorer("a", ok), registry.ErrDuplicate)
	require.Error(t, reg.RegisterScorer("", ok))
	require.Error(t, reg.RegisterScorer("c", nil))
	assert.Equal(t, []string{"a", "b"}, reg.scorers.Names())
	assert.True(t, reg.HasScorer("a"))
	assert.False(t, reg.HasScorer("c"))

	require.ErrorIs(t, reg.Register(&ConditionType{Name: "empty", Check: checkEmpty, Describe: func(scenario.Condition) string { return "" }}), registry.ErrDuplicate)
	require.Error(t, reg.Register(&ConditionType{Name: "nocheck"}))

	// A host's own condition type works exactly like a built-in.
	require.NoError(t, reg.Register(&ConditionType{
		Name: "is_true", Doc: "holds for true",
		Check: func(_ context.Context, data any, _ scenario.Condition) (bool, string, error) {
			return data == true, "result is " + preview(data), nil
		},
		Describe: func(scenario.Condition) string { return "true" },
	}))
	rep := Checker{Executor: tasks(map[string]any{"t": true}), Conditions: reg.Registry}.Score(context.Background(),
		[]scenario.Checkpoint{cp("x", "t", scenario.Condition{Type: "is_true"})})
	assert.True(t, rep.Passed)
	assert.Equal(t, "true", rep.Results[0].Expected)
	ct, found := reg.Lookup("is_true")
	require.True(t, found)
	assert.Equal(t, "holds for true", ct.Doc)

	// Registries are independent values: no global state.
	assert.False(t, newTestRegistry().HasScorer("a"))
}

func TestHasScorerPlugsIntoLoader(t *testing.T) {
	t.Parallel()
	doc := []byte(`{"id":"custom-check-001","name":"n","description":"d","prompt":"p","timeoutMs":1000,
		"category":"pr","difficulty":"basic",
		"assertions":{"checkpoints":[{"id":"c","description":"d","task":"pr.view","input":{},
		"condition":{"type":"custom","scorer":"approvals"}}]}}`)
	reg := newTestRegistry()
	l := scenario.NewLoader(reg, scenario.Options{Kind: scenario.KindGitHub})
	_, err := l.Load("custom-check-001.json", doc)
	require.Error(t, err, "an unregistered scorer is a load-time error")
	assert.Contains(t, err.Error(), `no custom scorer "approvals"`)

	require.NoError(t, reg.RegisterScorer("approvals", ScorerFunc(func(context.Context, any, scenario.Condition) (bool, string, error) {
		return true, "", nil
	})))
	f, err := l.Load("custom-check-001.json", doc)
	require.NoError(t, err)
	rep := Checker{Executor: tasks(map[string]any{"pr.view": obj()}), Conditions: reg.Registry}.Score(context.Background(), f.Scenario.Checkpoints)
	assert.True(t, rep.Passed)
}

func TestErrorMessage(t *testing.T) {
	t.Parallel()
	e := &Error{Task: "pr.view", Err: errors.New("Not found")}
	assert.Equal(t, "task pr.view: Not found", e.Error())
	e = &Error{Task: "pr.view", Err: errors.New("pr.view: not found: Could not resolve to a PullRequest")}
	assert.Equal(t, "pr.view: not found: Could not resolve to a PullRequest", e.Error(), "no stutter")
	e = &Error{Task: "pr.view", Err: errors.New("pr.viewer: x")}
	assert.Equal(t, "task pr.view: pr.viewer: x", e.Error())
}
