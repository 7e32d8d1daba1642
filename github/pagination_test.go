package github_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigPR builds acme/big with PR #1 holding 230 commits and 250 review
// threads (every third one resolved), and 150 labels.
func bigPR(t testing.TB, s *githubfake.Server) {
	t.Helper()
	r := s.AddRepo("acme/big")
	msgs := make([]string, 230)
	for i := range msgs {
		msgs[i] = fmt.Sprintf("commit %03d", i)
	}
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "Huge", Head: "huge", Commits: msgs})
	for i := 0; i < 250; i++ {
		pr.AddReviewThread(githubfake.ReviewThread{Path: "big.go", Line: i + 1, Resolved: i%3 == 0,
			Comments: []githubfake.Comment{{Author: "rev", Body: fmt.Sprintf("thread %03d", i)}}})
	}
	for i := 0; i < 150; i++ {
		r.AddLabel(githubfake.Label{Name: fmt.Sprintf("label-%03d", i)})
	}
}

var big = map[string]any{"owner": "acme", "name": "big", "prNumber": 1}

func TestPaginationToTheEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	bigPR(t, e.srv)
	tests := []struct {
		task     string
		input    map[string]any
		n        int
		requests int
	}{
		{"pr.commits.list", big, 230, 3},
		{"pr.review_threads.list", big, 250, 3},
		{"repo.labels.list", map[string]any{"owner": "acme", "name": "big"}, 150, 2},
	}
	for _, tc := range tests {
		t.Run(tc.task, func(t *testing.T) {
			e := newEnv(t, execOptions{})
			bigPR(t, e.srv)
			data, err := e.exec.Execute(context.Background(), tc.task, tc.input)
			require.NoError(t, err)
			d := norm(t, data)
			assert.Len(t, items(t, d), tc.n)
			assert.Equal(t, false, d["pageInfo"].(map[string]any)["hasNextPage"])
			assert.Equal(t, tc.requests, e.srv.RequestCount(""))
		})
	}
	data, err := e.exec.Execute(context.Background(), "pr.commits.list", big)
	require.NoError(t, err)
	list := items(t, norm(t, data))
	assert.Equal(t, "commit 000", list[0].(map[string]any)["messageHeadline"])
	assert.Equal(t, "commit 229", list[229].(map[string]any)["messageHeadline"])
}

func TestPaginationFirstAndAfter(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	bigPR(t, e.srv)
	in := map[string]any{"owner": "acme", "name": "big", "prNumber": 1, "first": 120}
	data, err := e.exec.Execute(context.Background(), "pr.commits.list", in)
	require.NoError(t, err)
	d := norm(t, data)
	require.Len(t, items(t, d), 120)
	pi := d["pageInfo"].(map[string]any)
	require.Equal(t, true, pi["hasNextPage"])
	in["after"], in["first"] = pi["endCursor"], 500
	data, err = e.exec.Execute(context.Background(), "pr.commits.list", in)
	require.NoError(t, err)
	d = norm(t, data)
	require.Len(t, items(t, d), 110)
	assert.Equal(t, "commit 120", item(t, d, 0)["messageHeadline"])
	assert.Equal(t, false, d["pageInfo"].(map[string]any)["hasNextPage"])
}

func TestPaginationPageCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{MaxPages: 2})
	bigPR(t, e.srv)
	data, err := e.exec.Execute(context.Background(), "pr.review_threads.list", big)
	require.NoError(t, err)
	d := norm(t, data)
	assert.Len(t, items(t, d), 200)
	assert.Equal(t, true, d["pageInfo"].(map[string]any)["hasNextPage"], "a capped list says there is more")
	assert.Equal(t, 2, e.srv.RequestCount(""))
}

// TestThreadsScanResume pages through unresolved threads ten at a time
// with pr.threads.list and checks nothing is skipped or repeated.
func TestThreadsScanResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	bigPR(t, e.srv)
	seen := map[string]bool{}
	in := map[string]any{"owner": "acme", "name": "big", "prNumber": 1, "first": 70}
	for round := 0; ; round++ {
		require.Less(t, round, 10)
		data, err := e.exec.Execute(context.Background(), "pr.threads.list", in)
		require.NoError(t, err)
		d := norm(t, data)
		for _, it := range items(t, d) {
			body := it.(map[string]any)["comments"].([]any)[0].(map[string]any)["body"].(string)
			require.False(t, seen[body], "repeated %s", body)
			seen[body] = true
			assert.Equal(t, false, it.(map[string]any)["isResolved"])
		}
		pi := d["pageInfo"].(map[string]any)
		if pi["hasNextPage"] != true {
			break
		}
		in["after"] = pi["endCursor"]
	}
	assert.Len(t, seen, 166, "250 threads, 84 resolved")
}
