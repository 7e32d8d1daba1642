package checkpoint

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenteval/agenteval/scenario"
)

// tenCheckpoints is a scenario's worth of checkpoints using every built-in
// condition, over results shaped like list and view capabilities.
func tenCheckpoints() ([]scenario.Checkpoint, Executor) {
	items := make([]any, 20)
	for i := range items {
		items[i] = map[string]any{"id": fmt.Sprintf("T%d", i), "state": "OPEN", "body": "please rename this variable", "labels": []any{"bug", "ui"}}
	}
	list := map[string]any{"items": items, "pageInfo": map[string]any{"hasNextPage": false, "endCursor": "c"}}
	view := map[string]any{"number": 42.0, "state": "CLOSED", "title": "Fix the bug", "labels": []any{"bug"}}
	exec := ExecutorFunc(func(_ context.Context, task string, _ map[string]any) (any, error) {
		if task == "issue.view" {
			return view, nil
		}
		return list, nil
	})
	conds := []scenario.Condition{
		{Type: "non_empty"},
		{Type: "empty"},
		{Type: "count_gte", Value: 2.0},
		{Type: "count_eq", Value: 20.0},
		{Type: "field_equals", Path: "items.3.state", Value: "OPEN"},
		{Type: "field_equals", Path: "items.length", Value: 20.0},
		{Type: "field_contains", Path: "items.0.body", Value: "rename"},
		{Type: "field_contains", Path: "items.0.labels", Value: "ui"},
		{Type: "field_equals", Path: "number", Value: 42},
		{Type: "field_contains", Path: "title", Value: "bug"},
	}
	cps := make([]scenario.Checkpoint, len(conds))
	for i, c := range conds {
		task := "pr.threads.list"
		if i >= 8 {
			task = "issue.view"
		}
		cps[i] = scenario.Checkpoint{ID: fmt.Sprintf("cp-%d", i), Description: "d", Task: task, Input: map[string]any{"owner": "acme"}, Condition: c}
	}
	return cps, exec
}

func BenchmarkScore10InMemory(b *testing.B) {
	cps, exec := tenCheckpoints()
	reg := newTestRegistry()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		rep := Checker{Executor: exec, Conditions: reg.Registry}.Score(ctx, cps)
		if rep.PassedCount != 9 {
			b.Fatalf("passed %d, want 9", rep.PassedCount)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(cps)), "ns/checkpoint")
}

func BenchmarkScore10InMemoryConcurrent(b *testing.B) {
	cps, exec := tenCheckpoints()
	reg := newTestRegistry()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		rep := Checker{Executor: exec, Conditions: reg.Registry, Concurrency: 4}.Score(ctx, cps)
		if rep.PassedCount != 9 {
			b.Fatalf("passed %d, want 9", rep.PassedCount)
		}
	}
}

// BenchmarkFieldGTE decides field_gte on a list capability's length, as
// ghx's HEAD scenarios ask (items.length >= 1), and on a missing path.
func BenchmarkFieldGTE(b *testing.B) {
	reg := newTestRegistry()
	items := make([]any, 20)
	for i := range items {
		items[i] = map[string]any{"body": "done"}
	}
	data := map[string]any{"items": items, "pageInfo": map[string]any{"hasNextPage": false}}
	hit := scenario.Condition{Type: "field_gte", Path: "items.length", Value: 1.0}
	miss := scenario.Condition{Type: "field_gte", Path: "items.30.n", Value: 1.0}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if ok, _, err := reg.Check(ctx, data, hit); !ok || err != nil {
			b.Fatal(ok, err)
		}
		if ok, _, _ := reg.Check(ctx, data, miss); ok {
			b.Fatal("missing path passed")
		}
	}
}
