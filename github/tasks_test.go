package github_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/github"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// norm round-trips data through JSON, as a scorer comparing it would see it:
// numbers become float64, maps map[string]any.
func norm(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

func items(t testing.TB, data map[string]any) []any {
	t.Helper()
	list, ok := data["items"].([]any)
	require.True(t, ok, "items is not a list: %#v", data["items"])
	return list
}

func item(t testing.TB, data map[string]any, i int) map[string]any {
	t.Helper()
	list := items(t, data)
	require.Greater(t, len(list), i)
	return list[i].(map[string]any)
}

var noNextPage = map[string]any{"hasNextPage": false, "endCursor": nil}

// TestTasks runs every task against the fake through the real githubv4
// client and checks the output shape and values.
func TestTasks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, execOptions{})
	sd := seed(t, e.srv)
	repo := map[string]any{"owner": "acme", "name": "demo"}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{"owner": "acme", "name": "demo"}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}

	tests := []struct {
		task  string
		input map[string]any
		check func(t *testing.T, d map[string]any)
	}{
		{"repo.view", repo, func(t *testing.T, d map[string]any) {
			assert.Equal(t, "acme/demo", d["nameWithOwner"])
			assert.Equal(t, "main", d["defaultBranch"])
			assert.Equal(t, 5.0, d["stargazerCount"])
			assert.Equal(t, 2.0, d["forkCount"])
			assert.Equal(t, false, d["isPrivate"])
			assert.Equal(t, "https://github.com/acme/demo", d["url"])
			assert.Len(t, d, 8)
		}},
		{"repo.labels.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, "enhancement", item(t, d, 0)["name"], "newest first")
			bug := item(t, d, 1)
			assert.Equal(t, map[string]any{"id": bug["id"], "name": "bug", "description": "Something isn't working", "color": "d73a4a", "isDefault": true}, bug)
			assert.Equal(t, nil, item(t, d, 0)["description"])
			assert.Equal(t, noNextPage["hasNextPage"], d["pageInfo"].(map[string]any)["hasNextPage"])
		}},
		{"repo.issue_types.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, map[string]any{"id": item(t, d, 0)["id"], "name": "Bug", "color": "red", "isEnabled": true}, item(t, d, 0))
			assert.Equal(t, false, item(t, d, 1)["isEnabled"])
			assert.Equal(t, noNextPage, d["pageInfo"])
		}},
		{"issue.view", with(map[string]any{"issueNumber": 1}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, 1.0, d["number"])
			assert.Equal(t, "Crash on start", d["title"])
			assert.Equal(t, "OPEN", d["state"])
			assert.Equal(t, "It crashes.", d["body"])
			assert.Equal(t, []any{"bug"}, d["labels"])
			assert.Equal(t, "https://github.com/acme/demo/issues/1", d["url"])
			assert.Len(t, d, 7)
		}},
		{"issue.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, 2.0, item(t, d, 0)["number"], "newest first")
			assert.Len(t, item(t, d, 0), 5)
		}},
		{"issue.list", with(map[string]any{"state": "open"}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, "Crash on start", item(t, d, 0)["title"])
		}},
		{"issue.comments.list", with(map[string]any{"issueNumber": 1, "first": 10}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			c := item(t, d, 0)
			assert.Equal(t, "Confirmed.", c["body"])
			assert.Equal(t, "bob", c["authorLogin"])
			assert.NotEmpty(t, c["createdAt"])
			assert.Contains(t, c["url"], "#issuecomment-")
			assert.Len(t, c, 5)
		}},
		{"issue.relations.prs.list", with(map[string]any{"issueNumber": 1}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, 3.0, item(t, d, 0)["number"])
			assert.Equal(t, "Fix crash", item(t, d, 0)["title"])
			assert.Len(t, d, 1, "no pageInfo, as the card says")
		}},
		{"issue.relations.view", with(map[string]any{"issueNumber": 2}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, 2.0, d["issue"].(map[string]any)["number"])
			assert.Equal(t, 1.0, d["parent"].(map[string]any)["number"])
			assert.Empty(t, d["children"])
			assert.Empty(t, d["blockedBy"])
		}},
		{"issue.relations.view", with(map[string]any{"issueNumber": 1}), func(t *testing.T, d map[string]any) {
			assert.Nil(t, d["parent"])
			require.Len(t, d["children"], 1)
			assert.Equal(t, 2.0, d["children"].([]any)[0].(map[string]any)["number"])
			require.Len(t, d["blockedBy"], 1)
			assert.Equal(t, 2.0, d["blockedBy"].([]any)[0].(map[string]any)["number"])
		}},
		{"pr.view", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, 3.0, d["number"])
			assert.Equal(t, "Fix crash", d["title"])
			assert.Equal(t, "Fixes #1", d["body"])
			assert.Equal(t, []any{"bug"}, d["labels"])
			assert.Equal(t, "https://github.com/acme/demo/pull/3", d["url"])
			assert.Len(t, d, 7)
		}},
		{"pr.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, "OPEN", item(t, d, 0)["state"])
		}},
		{"pr.list", with(map[string]any{"state": "merged"}), func(t *testing.T, d map[string]any) {
			assert.Empty(t, items(t, d))
		}},
		{"pr.commits.list", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, "Fix crash", item(t, d, 0)["messageHeadline"])
			assert.Equal(t, "Add test", item(t, d, 1)["messageHeadline"])
			assert.Len(t, item(t, d, 0)["oid"], 40)
			assert.Equal(t, "alice", item(t, d, 0)["authorLogin"])
			assert.Equal(t, 2.0, d["totalCount"])
		}},
		{"pr.diff.files", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, map[string]any{"path": "main.go", "additions": 10.0, "deletions": 2.0}, item(t, d, 0))
		}},
		{"pr.diff.view", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, "diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -1,2 +1,10 @@\n-old\n+new\n", d["diff"])
		}},
		{"pr.checks.list", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 3)
			assert.Equal(t, map[string]any{"name": "build", "state": "SUCCESS", "workflow": "CI", "link": "https://example.test/build", "annotations": []any{}}, item(t, d, 0))
			lint := item(t, d, 1)
			assert.Equal(t, "FAILURE", lint["state"])
			assert.Equal(t, []any{map[string]any{"path": "main.go", "startLine": 4.0, "endLine": 4.0, "level": "FAILURE", "message": "unused variable"}}, lint["annotations"])
			assert.Equal(t, map[string]any{"name": "ci/legacy", "state": "PENDING", "workflow": nil, "link": "https://example.test/legacy", "annotations": []any{}}, item(t, d, 2))
			assert.Equal(t, map[string]any{"total": 3.0, "failed": 1.0, "pending": 1.0, "passed": 1.0}, d["summary"])
		}},
		{"pr.checks.list", with(map[string]any{"prNumber": 3, "state": "failed"}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, "lint", item(t, d, 0)["name"])
			assert.Equal(t, 3.0, d["summary"].(map[string]any)["total"])
		}},
		{"pr.merge.status", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, map[string]any{"mergeable": "MERGEABLE", "mergeStateStatus": "CLEAN", "reviewDecision": "CHANGES_REQUESTED", "isDraft": false, "state": "OPEN"}, d)
		}},
		{"pr.reviews.list", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			// One explicit review plus the COMMENTED review each thread came in.
			require.Len(t, items(t, d), 4)
			r := item(t, d, 0)
			assert.Equal(t, "bob", r["authorLogin"])
			assert.Equal(t, "CHANGES_REQUESTED", r["state"])
			assert.Equal(t, "Needs work", r["body"])
			assert.Len(t, r["commitOid"], 40)
			assert.NotNil(t, r["submittedAt"])
			assert.Len(t, r, 7)
		}},
		{"pr.threads.list", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2, "unresolved only by default")
			th := item(t, d, 1)
			assert.Equal(t, "main.go", th["path"])
			assert.Equal(t, 7.0, th["line"])
			assert.Equal(t, 5.0, th["startLine"])
			assert.Equal(t, "RIGHT", th["diffSide"])
			assert.Equal(t, "LINE", th["subjectType"])
			assert.Equal(t, false, th["isResolved"])
			assert.Nil(t, th["resolvedByLogin"])
			require.Len(t, th["comments"], 2)
			assert.Equal(t, "Will do.", th["comments"].([]any)[1].(map[string]any)["body"])
			assert.Len(t, th, 13)
			assert.Equal(t, map[string]any{"unresolvedOnly": true, "includeOutdated": true}, d["filterApplied"])
			assert.Equal(t, map[string]any{"pagesScanned": 1.0, "sourceItemsScanned": 3.0, "scanTruncated": false}, d["scan"])
		}},
		{"pr.threads.list", with(map[string]any{"prNumber": 3, "unresolvedOnly": false}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 3)
			assert.Equal(t, "bob", item(t, d, 2)["resolvedByLogin"])
		}},
		{"pr.review_threads.list", with(map[string]any{"prNumber": 3}), func(t *testing.T, d map[string]any) {
			assert.Len(t, items(t, d), 3, "all by default")
		}},
		{"pr.review_threads.list", with(map[string]any{"prNumber": 3, "filter": "resolved"}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, true, item(t, d, 0)["isResolved"])
		}},
		{"pr.review_threads.list", with(map[string]any{"prNumber": 3, "filter": "unresolved"}), func(t *testing.T, d map[string]any) {
			assert.Len(t, items(t, d), 2)
			assert.Equal(t, map[string]any{"filter": "unresolved"}, d["filterApplied"])
		}},
		{"workflow.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, map[string]any{"id": float64(sd.workflowID), "name": "CI", "path": ".github/workflows/ci.yml", "state": "active"}, item(t, d, 0))
			assert.Equal(t, noNextPage, d["pageInfo"])
		}},
		{"workflow.list", with(map[string]any{"first": 1}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, true, d["pageInfo"].(map[string]any)["hasNextPage"])
		}},
		{"workflow.view", with(map[string]any{"workflowId": sd.workflowID}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, "CI", d["name"])
			assert.Equal(t, "https://github.com/acme/demo/blob/main/.github/workflows/ci.yml", d["url"])
			assert.Len(t, d, 5)
		}},
		{"workflow.view", with(map[string]any{"workflowId": "ci.yml"}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, float64(sd.workflowID), d["id"])
		}},
		{"workflow.view", with(map[string]any{"workflowId": "Release"}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, "disabled_manually", d["state"])
		}},
		{"workflow.runs.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			assert.Equal(t, map[string]any{"id": float64(sd.runID), "workflowName": "CI", "status": "completed", "conclusion": "failure",
				"headBranch": "fix-crash", "url": "https://github.com/acme/demo/actions/runs/" + itoa(sd.runID)}, item(t, d, 0))
		}},
		{"workflow.runs.list", with(map[string]any{"branch": "main"}), func(t *testing.T, d map[string]any) {
			assert.Empty(t, items(t, d))
		}},
		{"workflow.runs.list", with(map[string]any{"status": "failure", "event": "pull_request"}), func(t *testing.T, d map[string]any) {
			assert.Len(t, items(t, d), 1)
		}},
		{"workflow.run.view", with(map[string]any{"runId": sd.runID}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, float64(sd.runID), d["id"])
			assert.Equal(t, "CI", d["workflowName"])
			assert.Equal(t, "pull_request", d["event"])
			assert.Equal(t, 1.0, d["attempt"])
			assert.Len(t, d["headSha"], 40)
			require.Len(t, d["jobs"], 2)
			job := d["jobs"].([]any)[1].(map[string]any)
			assert.Equal(t, "test", job["name"])
			assert.Equal(t, "failure", job["conclusion"])
			assert.Len(t, job, 7)
			assert.Len(t, d, 13)
		}},
		{"workflow.run.artifacts.list", with(map[string]any{"runId": sd.runID}), func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 1)
			a := item(t, d, 0)
			assert.Equal(t, "coverage", a["name"])
			assert.Equal(t, 1234.0, a["sizeInBytes"])
			assert.Contains(t, a["archiveDownloadUrl"], "/zip")
		}},
		{"workflow.job.logs.raw", with(map[string]any{"jobId": sd.jobID}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, map[string]any{"jobId": float64(sd.jobID), "log": "compiling\nwarning: deprecated API\nok\n", "truncated": false}, d)
		}},
		{"workflow.job.logs.view", with(map[string]any{"jobId": sd.failJobID}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, map[string]any{"jobId": float64(sd.failJobID), "truncated": false, "summary": map[string]any{
				"errorCount": 2.0, "warningCount": 1.0, "topErrorLines": []any{"Error: nil pointer", "error: exit 1"}}}, d)
		}},
		{"project_v2.org.view", map[string]any{"org": "acme", "projectNumber": 1}, func(t *testing.T, d map[string]any) {
			assert.Equal(t, "Roadmap", d["title"])
			assert.Equal(t, "Next", d["shortDescription"])
			assert.Equal(t, true, d["public"])
			assert.Equal(t, false, d["closed"])
			assert.Equal(t, "https://github.com/orgs/acme/projects/1", d["url"])
			assert.Len(t, d, 6)
		}},
		{"project_v2.user.view", map[string]any{"user": "alice", "projectNumber": 1}, func(t *testing.T, d map[string]any) {
			assert.Equal(t, "Personal", d["title"])
			assert.Nil(t, d["shortDescription"])
		}},
		{"project_v2.fields.list", map[string]any{"owner": "acme", "projectNumber": 1}, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 3)
			assert.Equal(t, "TITLE", item(t, d, 0)["dataType"])
			assert.Nil(t, item(t, d, 0)["options"])
			status := item(t, d, 1)
			assert.Equal(t, "SINGLE_SELECT", status["dataType"])
			require.Len(t, status["options"], 2)
			assert.Equal(t, "Done", status["options"].([]any)[1].(map[string]any)["name"])
		}},
		{"project_v2.fields.list", map[string]any{"owner": "alice", "projectNumber": 1}, func(t *testing.T, d map[string]any) {
			assert.Len(t, items(t, d), 1, "user projects work through the same query")
		}},
		{"project_v2.items.list", map[string]any{"owner": "acme", "projectNumber": 1}, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 3)
			assert.Equal(t, map[string]any{"id": item(t, d, 0)["id"], "contentType": "ISSUE", "contentNumber": 1.0, "contentTitle": "Crash on start"}, item(t, d, 0))
			assert.Equal(t, "PULL_REQUEST", item(t, d, 1)["contentType"])
			assert.Equal(t, 3.0, item(t, d, 1)["contentNumber"])
			assert.Equal(t, map[string]any{"id": item(t, d, 2)["id"], "contentType": "DRAFT_ISSUE", "contentNumber": nil, "contentTitle": "Think about it"}, item(t, d, 2))
		}},
		{"release.list", repo, func(t *testing.T, d map[string]any) {
			require.Len(t, items(t, d), 2)
			assert.Equal(t, "v1.1.0-rc1", item(t, d, 0)["tagName"], "newest first")
			assert.Equal(t, true, item(t, d, 0)["isPrerelease"])
			assert.Len(t, item(t, d, 0), 9)
		}},
		{"release.view", with(map[string]any{"tagName": "v1.0.0"}), func(t *testing.T, d map[string]any) {
			assert.Equal(t, float64(sd.releaseID), d["id"])
			assert.Equal(t, "First", d["name"])
			assert.Len(t, d["targetCommitish"], 40)
			assert.NotNil(t, d["publishedAt"])
			assert.Equal(t, "https://github.com/acme/demo/releases/tag/v1.0.0", d["url"])
			assert.Len(t, d, 9)
		}},
	}
	covered := map[string]bool{}
	for _, tc := range tests {
		covered[tc.task] = true
		t.Run(tc.task, func(t *testing.T) {
			t.Parallel()
			data, err := e.exec.Execute(context.Background(), tc.task, tc.input)
			require.NoError(t, err)
			tc.check(t, norm(t, data))
		})
	}
	for _, task := range github.Tasks() {
		assert.True(t, covered[task.Name], "task %s has no test", task.Name)
	}
}
