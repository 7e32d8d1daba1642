package checkpoint_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/scenario"
)

// BenchmarkScore10FakeGitHub scores ten checkpoints of the kinds a GitHub
// scenario uses through the GitHub executor against the fake GitHub, one
// after another and four at a time, and reports the requests each
// checkpoint costs.
func BenchmarkScore10FakeGitHub(b *testing.B) {
	srv, repo, exec := fakeGitHub(b)
	mixed, changes := seedPRs(repo)
	mixed.AddCommit("Rename the variable as asked", githubfake.File{Path: "parser.go", Content: "package parser\n"})
	changes.AddReview(githubfake.Review{Author: "agent", Body: "Consider an LRU.", State: "COMMENTED"})
	repo.AddIssue(githubfake.Issue{Title: "Crash on start", State: "CLOSED", Labels: []string{"bug"}})
	pr := func(n int) map[string]any { return map[string]any{"owner": "acme", "name": "demo", "prNumber": n} }
	cps := []scenario.Checkpoint{
		{Task: "pr.commits.list", Input: pr(mixed.Number()), Condition: scenario.Condition{Type: "count_gte", Value: 2}},
		{Task: "pr.threads.list", Input: pr(mixed.Number()), Condition: scenario.Condition{Type: "count_eq", Value: 3}},
		{Task: "pr.review_threads.list", Input: map[string]any{"owner": "acme", "repo": "demo", "pr_number": mixed.Number(), "filter": "resolved"},
			Condition: scenario.Condition{Type: "count_eq", Value: 4}},
		{Task: "pr.reviews.list", Input: pr(changes.Number()), Condition: scenario.Condition{Type: "field_equals", Path: "items.0.state", Value: "COMMENTED"}},
		{Task: "pr.reviews.list", Input: pr(changes.Number()), Condition: scenario.Condition{Type: "field_contains", Path: "items.0.body", Value: "LRU"}},
		{Task: "pr.view", Input: pr(changes.Number()), Condition: scenario.Condition{Type: "field_equals", Path: "state", Value: "OPEN"}},
		{Task: "pr.diff.files", Input: pr(changes.Number()), Condition: scenario.Condition{Type: "non_empty"}},
		{Task: "pr.merge.status", Input: pr(changes.Number()), Condition: scenario.Condition{Type: "field_equals", Path: "isDraft", Value: false}},
		{Task: "issue.list", Input: map[string]any{"owner": "acme", "name": "demo", "state": "closed"}, Condition: scenario.Condition{Type: "count_eq", Value: 1}},
		{Task: "repo.labels.list", Input: map[string]any{"owner": "acme", "name": "demo"}, Condition: scenario.Condition{Type: "field_contains", Path: "items.0.name", Value: "bug"}},
	}
	for i := range cps {
		cps[i].ID = fmt.Sprintf("cp-%d", i)
	}
	ctx := context.Background()
	rep := checkpoint.Checker{Executor: exec}.Score(ctx, cps)
	for _, r := range rep.Results {
		if !r.Passed {
			b.Fatalf("%s %s: %s %v (expected %s)", r.ID, r.Task, r.Message, r.Err, r.Expected)
		}
	}
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			checker := checkpoint.Checker{Executor: exec, Concurrency: conc}
			srv.ResetRequests()
			b.ReportAllocs()
			for b.Loop() {
				if rep := checker.Score(ctx, cps); !rep.Passed {
					b.Fatal("a checkpoint failed")
				}
			}
			b.ReportMetric(float64(srv.RequestCount(""))/float64(b.N*len(cps)), "requests/checkpoint")
		})
	}
}
