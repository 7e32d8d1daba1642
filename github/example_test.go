package github_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/github/githubtest"
)

// ExampleNewExecutor runs a checkpoint task against the in-process fake.
// Against GitHub itself, give the client a Token and leave the URL empty.
func ExampleNewExecutor() {
	srv := githubtest.NewServer(nil) // in a test: githubtest.NewServer(t)
	defer srv.Close()
	srv.AddRepo("acme/demo", nil, []githubtest.PullRequest{{Title: "Fix crash", Head: "fix", Commits: []string{"Update fix", "Address review"}}})

	client := github.NewClient(srv.Config())
	exec := github.NewExecutor(client, github.ExecutorOptions{})
	data, err := exec.Execute(context.Background(), "pr.commits.list",
		map[string]any{"owner": "acme", "repo": "demo", "pr_number": "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range data.(map[string]any)["items"].([]any) {
		fmt.Println(c.(map[string]any)["messageHeadline"])
	}
	// Output:
	// Update fix
	// Address review
}

// ExampleTasks lists the task names, as a CLI's help would.
func ExampleTasks() {
	for _, task := range github.Tasks()[:3] {
		fmt.Println(task.Name, "-", task.Description)
	}
	// Output:
	// issue.comments.list - List comments for one issue, oldest first.
	// issue.list - List repository issues, newest first.
	// issue.relations.prs.list - List pull requests linked to an issue (closing references and manual links, open or closed).
}
