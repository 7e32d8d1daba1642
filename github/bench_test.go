package github_test

import (
	"context"
	"testing"
)

// BenchmarkTask runs one typical task (pr.view) against the fake.
func BenchmarkTask(b *testing.B) {
	e := newEnv(b, execOptions{})
	seed(b, e.srv)
	in := map[string]any{"owner": "acme", "repo": "demo", "pr_number": "3"}
	ctx := context.Background()
	e.srv.ResetRequests()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.exec.Execute(ctx, "pr.view", in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(e.srv.RequestCount(""))/float64(b.N), "requests/task")
}

// sequence is a checkpoint-like mix of ten tasks: GraphQL lists, views and
// REST calls.
var sequence = []string{
	"pr.view", "pr.commits.list", "pr.review_threads.list", "pr.reviews.list", "pr.checks.list",
	"pr.diff.view", "issue.view", "repo.labels.list", "workflow.run.view", "release.list",
}

// BenchmarkTaskSequence runs the ten tasks of sequence per iteration.
func BenchmarkTaskSequence(b *testing.B) {
	e := newEnv(b, execOptions{})
	sd := seed(b, e.srv)
	inputs := sampleInputs(sd)
	ctx := context.Background()
	e.srv.ResetRequests()
	b.ReportAllocs()
	for b.Loop() {
		for _, task := range sequence {
			if _, err := e.exec.Execute(ctx, task, inputs[task]); err != nil {
				b.Fatal(task, err)
			}
		}
	}
	b.ReportMetric(float64(e.srv.RequestCount(""))/float64(b.N*len(sequence)), "requests/task")
}
