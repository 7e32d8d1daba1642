package githubtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/github/githubtest"
)

// A host's test seeds a repository, lets the real client work on it, and
// reads back what changed.
func TestSeedRunInspect(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer(t)
	srv.RequireToken("secret")
	srv.AddRepo("acme/widgets",
		[]githubtest.Issue{{Title: "App crashes on start", Labels: []string{"bug"}, Comments: []githubtest.Comment{{Body: "seen on 1.2"}}}},
		[]githubtest.PullRequest{{Title: "Fix the crash", Head: "fix", Reviews: []githubtest.Review{{Author: "reviewer", State: "APPROVED"}},
			Files: []githubtest.ChangedFile{{Path: "main.go", Additions: 3}}}})
	cfg := srv.Config()
	cfg.Token = "secret"
	exec := github.NewExecutor(github.NewClient(cfg), github.ExecutorOptions{})
	data, err := exec.Execute(t.Context(), "issue.list", map[string]any{"owner": "acme", "repo": "widgets"})
	require.NoError(t, err)
	items := data.(map[string]any)["items"].([]any)
	require.Len(t, items, 1)
	assert.Equal(t, "App crashes on start", items[0].(map[string]any)["title"])

	issues := srv.Issues("acme/widgets")
	require.Len(t, issues, 1)
	assert.Equal(t, 1, issues[0].Number)
	pulls := srv.PullRequests("acme/widgets")
	require.Len(t, pulls, 1)
	assert.Equal(t, 2, pulls[0].Number, "issues and pull requests share numbers")

	cfg.Token = "wrong"
	_, err = github.NewExecutor(github.NewClient(cfg), github.ExecutorOptions{}).Execute(t.Context(), "issue.list", map[string]any{"owner": "acme", "repo": "widgets"})
	assert.Error(t, err, "RequireToken refuses another token")
}
