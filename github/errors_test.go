package github_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNotFound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	seed(t, e.srv)
	tests := []struct {
		task  string
		input map[string]any
		want  string
	}{
		{"repo.view", map[string]any{"owner": "acme", "name": "nope"}, "Could not resolve to a Repository with the name 'acme/nope'."},
		{"pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": 99}, "Could not resolve to a PullRequest with the number of 99."},
		{"pr.commits.list", map[string]any{"owner": "acme", "name": "demo", "prNumber": 1}, "Could not resolve to a PullRequest with the number of 1."},
		{"issue.view", map[string]any{"owner": "acme", "name": "demo", "issueNumber": 3}, "Could not resolve to an Issue with the number of 3."},
		{"release.view", map[string]any{"owner": "acme", "name": "demo", "tagName": "v9"}, `release with tag "v9" in acme/demo`},
		{"project_v2.org.view", map[string]any{"org": "nobody", "projectNumber": 1}, "Could not resolve to an Organization with the login of 'nobody'."},
		{"project_v2.items.list", map[string]any{"owner": "nobody", "projectNumber": 1}, "project 1 of nobody"},
		{"project_v2.user.view", map[string]any{"user": "alice", "projectNumber": 7}, "Could not resolve to a ProjectV2 with the number 7."},
		{"workflow.run.view", map[string]any{"owner": "acme", "name": "demo", "runId": 424242}, "workflow run 424242 in acme/demo (HTTP 404)"},
		{"workflow.job.logs.raw", map[string]any{"owner": "acme", "name": "demo", "jobId": 424242}, "logs of job 424242 in acme/demo (HTTP 404)"},
		{"workflow.view", map[string]any{"owner": "acme", "name": "demo", "workflowId": "Nightly"}, `workflow "Nightly" in acme/demo`},
		{"pr.diff.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": 42}, "pull request #42 in acme/demo (HTTP 404)"},
		{"repo.issue_types.list", map[string]any{"owner": "alice", "name": "x"}, `organization "alice" (issue types exist only for organizations) (HTTP 404)`},
	}
	for _, tc := range tests {
		t.Run(tc.task, func(t *testing.T) {
			t.Parallel()
			_, err := e.exec.Execute(context.Background(), tc.task, tc.input)
			require.Error(t, err)
			assert.ErrorIs(t, err, github.ErrNotFound)
			var nf *github.Error
			require.ErrorAs(t, err, &nf)
			assert.Equal(t, tc.task, nf.Task)
			assert.Equal(t, tc.want, nf.Message)
			assert.Equal(t, tc.task+": not found: "+tc.want, err.Error())
		})
	}
}

func TestUnknownTask(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	tests := []struct {
		task string
		want []string
	}{
		{"pr.comits.list", []string{"pr.commits.list"}},
		{"pr.review-threads.list", []string{"pr.review_threads.list"}},
		{"pr.diff", []string{"pr.view", "pr.list"}},
		{"issue.relations.get", []string{"issue.relations.prs.list", "issue.relations.view"}},
	}
	for _, tc := range tests {
		t.Run(tc.task, func(t *testing.T) {
			t.Parallel()
			_, err := e.exec.Execute(context.Background(), tc.task, nil)
			require.ErrorIs(t, err, github.ErrUnknownTask)
			var ut *github.Error
			require.ErrorAs(t, err, &ut)
			assert.Equal(t, tc.task, ut.Task)
			for _, w := range tc.want {
				assert.Contains(t, ut.Suggestions, w)
			}
			assert.Contains(t, err.Error(), "did you mean "+ut.Suggestions[0])
		})
	}
	assert.Zero(t, e.srv.RequestCount(""), "an unknown task sends nothing")
}

func TestInputValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	tests := []struct {
		name  string
		task  string
		input map[string]any
		field string
		want  string
	}{
		{"missing", "pr.view", map[string]any{"owner": "acme", "name": "demo"}, "prNumber", `pr.view: input "prNumber" is required`},
		{"missing owner", "repo.view", map[string]any{"name": "demo"}, "owner", `repo.view: input "owner" is required`},
		{"wrong type", "pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": true}, "prNumber", `pr.view: input "prNumber" must be an integer, got the boolean true`},
		{"not a number", "pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": "4x"}, "prNumber", `pr.view: input "prNumber" must be an integer, got the string "4x"`},
		{"fraction", "pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": 4.5}, "prNumber", `pr.view: input "prNumber" must be a whole number, got 4.5`},
		{"zero", "pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": 0}, "prNumber", `pr.view: input "prNumber" must be at least 1, got 0`},
		{"empty string", "repo.view", map[string]any{"owner": "", "name": "demo"}, "owner", `repo.view: input "owner" must not be empty`},
		{"owner not string", "repo.view", map[string]any{"owner": 7, "name": "demo"}, "owner", `repo.view: input "owner" must be a string, got 7 (int)`},
		{"unknown key", "repo.view", map[string]any{"owner": "acme", "name": "demo", "pr": 1}, "pr", `repo.view: input "pr" is not an input of this task (accepted: owner, name)`},
		{"twice", "pr.view", map[string]any{"owner": "acme", "name": "demo", "prNumber": 1, "pr_number": 1}, "prNumber", `pr.view: input "prNumber" is given twice (as "prNumber" and "pr_number")`},
		{"enum", "pr.review_threads.list", map[string]any{"owner": "acme", "repo": "demo", "pr_number": 1, "filter": "open"}, "filter", `pr.review_threads.list: input "filter" must be one of all, resolved, unresolved, got "open"`},
		{"bad bool", "pr.threads.list", map[string]any{"owner": "acme", "name": "demo", "prNumber": 1, "unresolvedOnly": "maybe"}, "unresolvedOnly", `pr.threads.list: input "unresolvedOnly" must be a boolean, got the string "maybe"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := e.exec.Execute(context.Background(), tc.task, tc.input)
			require.ErrorIs(t, err, github.ErrInvalidInput)
			var ie *github.Error
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tc.field, ie.Field)
			assert.Equal(t, tc.want, err.Error())
		})
	}
	assert.Zero(t, e.srv.RequestCount(""), "invalid input sends nothing")
}

// TestInputSpellings checks the spellings seen in the wild all reach the
// same pull request.
func TestInputSpellings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	seed(t, e.srv)
	for name, input := range map[string]map[string]any{
		"card":             {"owner": "acme", "name": "demo", "prNumber": 3},
		"scenario":         {"owner": "acme", "repo": "demo", "pr_number": "3"},
		"float":            {"owner": "acme", "repo_name": "demo", "prNumber": 3.0},
		"int64":            {"owner": "acme", "name": "demo", "number": int64(3)},
		"owner/name":       {"repo": "acme/demo", "pr_number": " 3 "},
		"repository alias": {"owner": "acme", "repository": "demo", "prNumber": uint8(3)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := e.exec.Execute(context.Background(), "pr.view", input)
			require.NoError(t, err)
			assert.Equal(t, "Fix crash", data.(map[string]any)["title"])
		})
	}
}

// TestTokenNeverLeaks drives every error path with the token in the
// transport and checks that no error text and no log line contains it.
func TestTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{MaxWait: -1})
	sd := seed(t, e.srv)
	var texts []string
	run := func(task string, input map[string]any) {
		_, err := e.exec.Execute(context.Background(), task, input)
		if err != nil {
			texts = append(texts, err.Error())
		}
	}
	for task, input := range sampleInputs(sd) {
		run(task, input)
	}
	run("repo.view", map[string]any{"owner": "acme", "name": "missing"})
	run("workflow.run.view", map[string]any{"owner": "acme", "name": "demo", "runId": 1})
	run("pr.view", map[string]any{"owner": "acme"})
	run("no.such.task", nil)
	e.srv.SimulateRateLimit(githubtestRateLimit(2))
	run("repo.view", map[string]any{"owner": "acme", "name": "demo"})
	run("workflow.list", map[string]any{"owner": "acme", "name": "demo"})
	e.srv.RequireToken("another-token")
	run("repo.view", map[string]any{"owner": "acme", "name": "demo"})
	run("workflow.list", map[string]any{"owner": "acme", "name": "demo"})

	require.NotEmpty(t, texts)
	assert.GreaterOrEqual(t, len(texts), 8)
	for _, s := range append(texts, e.logs.String()) {
		assert.NotContains(t, s, testToken)
		assert.NotContains(t, s, testToken[4:20])
	}
	assert.Contains(t, e.logs.String(), "github task")
}

// TestUnauthorized checks a 401 surfaces as an Error of no kind with GitHub's
// message, for GraphQL and REST.
func TestUnauthorized(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	seed(t, e.srv)
	e.srv.RequireToken("rotated")
	for _, task := range []string{"repo.view", "workflow.list"} {
		_, err := e.exec.Execute(context.Background(), task, map[string]any{"owner": "acme", "name": "demo"})
		var api *github.Error
		require.ErrorAs(t, err, &api, task)
		assert.Nil(t, api.Kind, "another error from GitHub has no kind")
		assert.Equal(t, http.StatusUnauthorized, api.Status)
		assert.Equal(t, "Bad credentials", api.Message)
		assert.False(t, errors.Is(err, github.ErrNotFound))
		assert.True(t, strings.HasPrefix(err.Error(), task+": github HTTP 401"), err.Error())
	}
}

// headerRecorder records the Authorization header of each request.
type headerRecorder struct {
	next  http.RoundTripper
	auths []string
}

func (h *headerRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	h.auths = append(h.auths, r.Header.Get("Authorization"))
	return h.next.RoundTrip(r)
}

// TestLogDownloadWithoutToken checks the redirect to blob storage is
// followed without the GitHub token.
func TestLogDownloadWithoutToken(t *testing.T) {
	t.Parallel()
	dl := &headerRecorder{next: http.DefaultTransport}
	e := newEnv(t, execOptions{DownloadClient: &http.Client{Transport: dl}})
	sd := seed(t, e.srv)
	data, err := e.exec.Execute(context.Background(), "workflow.job.logs.raw", map[string]any{"owner": "acme", "name": "demo", "jobId": sd.jobID})
	require.NoError(t, err)
	assert.Contains(t, data.(map[string]any)["log"], "compiling")
	assert.Equal(t, []string{""}, dl.auths, "one download, no token")
}

func TestTasksListing(t *testing.T) {
	t.Parallel()
	tasks := github.Tasks()
	require.Len(t, tasks, 31, "29 read-only ghx tasks plus pr.commits.list and pr.review_threads.list")
	names := make([]string, len(tasks))
	for i, task := range tasks {
		names[i] = task.Name
		assert.NotEmpty(t, task.Description, task.Name)
		assert.NotEmpty(t, task.Output, task.Name)
		assert.NotEmpty(t, task.Inputs, task.Name)
	}
	assert.IsIncreasing(t, names)
	var prView github.Task
	for _, task := range tasks {
		if task.Name == "pr.view" {
			prView = task
		}
	}
	require.Len(t, prView.Inputs, 3)
	assert.Equal(t, github.Input{Name: "prNumber", Type: "integer", Required: true, Aliases: []string{"number"}, Description: "pull request number"}, prView.Inputs[2])
	assert.Contains(t, prView.Inputs[1].Aliases, "repo")
}
