package github_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/agenteval/agenteval/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLiveGitHub runs a few read-only tasks against api.github.com on the
// public repository cli/cli. It runs only when GITHUB_TOKEN is set.
func TestLiveGitHub(t *testing.T) {
	token := os.Getenv("GITHUB_TOKEN")
	if token == "" {
		t.Skip("GITHUB_TOKEN not set; skipping the live GitHub test")
	}
	t.Parallel()
	exec := github.NewExecutor(github.NewClient(github.Config{Token: token, Timeout: 30 * time.Second, MaxWait: 10 * time.Second}), github.ExecutorOptions{})
	ctx := context.Background()
	repo := map[string]any{"owner": "cli", "name": "cli"}

	data, err := exec.Execute(ctx, "repo.view", repo)
	require.NoError(t, err)
	assert.Equal(t, "cli/cli", norm(t, data)["nameWithOwner"])

	data, err = exec.Execute(ctx, "pr.list", map[string]any{"owner": "cli", "name": "cli", "first": 3})
	require.NoError(t, err)
	prs := items(t, norm(t, data))
	require.NotEmpty(t, prs)
	number := prs[0].(map[string]any)["number"]

	for _, task := range []string{"pr.view", "pr.commits.list", "pr.reviews.list", "pr.review_threads.list", "pr.diff.files", "pr.checks.list", "pr.merge.status"} {
		_, err := exec.Execute(ctx, task, map[string]any{"owner": "cli", "name": "cli", "prNumber": number})
		assert.NoError(t, err, task)
	}
	for _, task := range []string{"release.list", "repo.labels.list"} {
		_, err := exec.Execute(ctx, task, map[string]any{"owner": "cli", "name": "cli", "first": 5})
		assert.NoError(t, err, task)
	}
	data, err = exec.Execute(ctx, "workflow.runs.list", map[string]any{"owner": "cli", "name": "cli", "first": 2})
	require.NoError(t, err)
	assert.NotEmpty(t, items(t, norm(t, data)))

	_, err = exec.Execute(ctx, "repo.view", map[string]any{"owner": "cli", "name": "no-such-repo-agenteval"})
	require.ErrorIs(t, err, github.ErrNotFound)
	assert.NotContains(t, err.Error(), token)
}
