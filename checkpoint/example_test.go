package checkpoint_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/scenario"
)

func ExampleChecker_Score() {
	// An in-memory executor standing in for GitHub: one commit on the pull
	// request, one unresolved review thread.
	exec := checkpoint.ExecutorFunc(func(_ context.Context, task string, _ map[string]any) (any, error) {
		switch task {
		case "pr.commits.list":
			return map[string]any{"items": []any{map[string]any{"oid": "a1b2c3"}}, "pageInfo": map[string]any{"hasNextPage": false}}, nil
		case "pr.threads.list":
			return map[string]any{"items": []any{map[string]any{"id": "T1", "isResolved": false}}}, nil
		}
		return nil, fmt.Errorf("unsupported task %s", task)
	})
	checkpoints := []scenario.Checkpoint{
		{ID: "new-commit-pushed", Task: "pr.commits.list", Condition: scenario.Condition{Type: "count_gte", Value: 2}},
		{ID: "threads-not-resolved", Task: "pr.threads.list", Condition: scenario.Condition{Type: "non_empty"}},
	}
	report := checkpoint.Checker{Executor: exec}.Score(context.Background(), checkpoints)
	for _, r := range report.Results {
		fmt.Printf("%s passed=%v expected %q: %s\n", r.ID, r.Passed, r.Expected, r.Message)
	}
	fmt.Printf("passed %d/%d, overall %v\n", report.PassedCount, report.Total, report.Passed)
	// Output:
	// new-commit-pushed passed=false expected "count >= 2": count is 1, want >= 2 (result.items: [{"oid":"a1b2c3"}])
	// threads-not-resolved passed=true expected "non-empty result": result.items has 1 item: [{"id":"T1","isResolved":false}]
	// passed 1/2, overall false
}

func ExampleScorer() {
	kit := agenteval.New()
	err := kit.Scorers.Register(&checkpoint.Scorer{Name: "all-approved", Doc: "Every review approves.",
		Score: func(_ context.Context, data any, _ scenario.Condition) (bool, string, error) {
			items, _ := data.(map[string]any)["items"].([]any)
			for _, it := range items {
				if it.(map[string]any)["state"] != "APPROVED" {
					return false, "a review is not an approval", nil
				}
			}
			return len(items) > 0, fmt.Sprintf("%d approvals", len(items)), nil
		}})
	if err != nil {
		panic(err)
	}
	// The kit's loader knows the scorer: a custom condition naming another
	// is a load error.
	_ = kit.Loader(scenario.Options{})

	exec := checkpoint.ExecutorFunc(func(context.Context, string, map[string]any) (any, error) {
		return map[string]any{"items": []any{map[string]any{"state": "APPROVED"}}}, nil
	})
	report := checkpoint.Checker{Executor: exec, Conditions: kit.Conditions}.Score(context.Background(), []scenario.Checkpoint{
		{ID: "approved", Task: "pr.reviews.list", Condition: scenario.Condition{Type: "custom", Scorer: "all-approved"}},
	})
	r := report.Results[0]
	fmt.Println(r.Passed, r.Expected, "-", r.Message)
	// Output: true custom scorer: all-approved - 1 approvals
}
