package githubfake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/internal/testtool"
)

// reviewFixture is a pull request with one unresolved review thread.
func reviewFixture(t *testing.T) (*githubfake.Server, int, string) {
	t.Helper()
	s := githubfake.NewServer(t)
	s.RequireToken("ghp_enterpriseTest")
	pr := s.AddRepo("acme/demo").AddPullRequest(githubfake.PullRequest{Title: "Add lists"})
	thread := pr.AddReviewThread(githubfake.ReviewThread{Path: "lists.go", Line: 2, Comments: []githubfake.Comment{{Body: "Off by one."}}})
	return s, pr.Number(), thread
}

// TestEnterpriseHostServesGH runs GitHub's own CLI against the fake as a
// GitHub Enterprise Server host: gh reaches it over TLS by GH_HOST with
// GH_ENTERPRISE_TOKEN, trusting the listener's certificate through
// SSL_CERT_FILE, and its GraphQL and REST calls (/api/graphql, /api/v3)
// read and change the same state the plain URL serves.
func TestEnterpriseHostServesGH(t *testing.T) {
	t.Parallel()
	gh := testtool.Need(t, "gh")
	s, number, threadID := reviewFixture(t)
	run := ghOn(t, gh, s)

	out := run("api", "graphql", "-f", fmt.Sprintf(`query=query { repository(owner: "acme", name: "demo") {
  pullRequest(number: %d) { reviewThreads(first: 10) { nodes { id isResolved comments(first: 10) { nodes { databaseId body } } } } } } }`, number))
	var threads struct {
		Data struct {
			Repository struct {
				PullRequest struct {
					ReviewThreads struct {
						Nodes []struct {
							ID       string
							Comments struct {
								Nodes []struct {
									DatabaseID int64
									Body       string
								}
							}
						}
					}
				}
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &threads), out)
	nodes := threads.Data.Repository.PullRequest.ReviewThreads.Nodes
	require.Len(t, nodes, 1)
	assert.Equal(t, threadID, nodes[0].ID)
	first := nodes[0].Comments.Nodes[0].DatabaseID

	run("api", "graphql", "-f", fmt.Sprintf(`query=mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: %q, body: "Use len - 1."}) { comment { id } } }`, threadID))
	run("api", "-X", "POST", fmt.Sprintf("repos/acme/demo/pulls/%d/comments/%d/replies", number, first), "-f", "body=Fixed in the next commit.")
	run("api", "-X", "POST", fmt.Sprintf("repos/acme/demo/pulls/%d/comments", number), "-f", "body=Thanks.", "-F", fmt.Sprintf("in_reply_to=%d", first))

	out = run("api", fmt.Sprintf("repos/acme/demo/pulls/%d/comments", number))
	var comments []struct {
		ID        int64  `json:"id"`
		Body      string `json:"body"`
		InReplyTo int64  `json:"in_reply_to_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &comments), out)
	require.Len(t, comments, 4)
	assert.Equal(t, []string{"Off by one.", "Use len - 1.", "Fixed in the next commit.", "Thanks."},
		[]string{comments[0].Body, comments[1].Body, comments[2].Body, comments[3].Body})
	for _, c := range comments[1:] {
		assert.Equal(t, first, c.InReplyTo)
	}
	pr, ok := s.PullRequest("acme/demo", number)
	require.True(t, ok)
	require.Len(t, pr.ReviewThreads, 1)
	assert.Len(t, pr.ReviewThreads[0].Comments, 4, "the replies are the fake's state, seen on its plain URL too")

	var ops []string
	for _, r := range s.Requests() {
		ops = append(ops, r.Operation)
	}
	assert.Contains(t, ops, "mutation addPullRequestReviewThreadReply")
	assert.Contains(t, ops, "POST /repos/{owner}/{repo}/pulls/{number}/comments/{comment}/replies")
	assert.Contains(t, ops, "GET /repos/{owner}/{repo}/pulls/{number}/comments")
}

// ghOn returns a function running gh against s as an enterprise host, which
// fails the test when gh fails.
func ghOn(t *testing.T, gh string, s *githubfake.Server) func(args ...string) string {
	t.Helper()
	host, certPEM := s.EnterpriseHost()
	dir := t.TempDir()
	cert := filepath.Join(dir, "cert.pem")
	require.NoError(t, os.WriteFile(cert, certPEM, 0o600))
	return func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, gh, args...)
		cmd.Env = []string{"HOME=" + dir, "GH_CONFIG_DIR=" + filepath.Join(dir, "gh"), "GH_HOST=" + host,
			"GH_ENTERPRISE_TOKEN=ghp_enterpriseTest", "SSL_CERT_FILE=" + cert, "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PROMPT_DISABLED=1"}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "gh %v: %s", args, stderr.String())
		return string(out)
	}
}

// TestGHIssueAndPRCommands: the gh commands ghx's baseline instructions
// name (`gh pr view N --json`, `gh pr list --json`, `gh issue view N
// --json`) and those its issue scenarios need (comment, label, close) work
// against the fake and change its state.
func TestGHIssueAndPRCommands(t *testing.T) {
	t.Parallel()
	gh := testtool.Need(t, "gh")
	s := githubfake.NewServer(t)
	s.RequireToken("ghp_enterpriseTest")
	r := s.AddRepo("acme/demo")
	r.AddLabel(githubfake.Label{Name: "bug", Color: "d73a4a"})
	issue := r.AddIssue(githubfake.Issue{Title: "Memory leak", Body: "Connections leak."}).Number()
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "Fix the leak", Body: "Closes the leak."}).Number()
	run := ghOn(t, gh, s)
	repo := []string{"-R", "acme/demo"}

	out := run(append([]string{"issue", "view", fmt.Sprint(issue), "--json", "title,body,state,labels"}, repo...)...)
	assert.JSONEq(t, `{"title":"Memory leak","body":"Connections leak.","state":"OPEN","labels":[]}`, out)
	out = run(append([]string{"pr", "view", fmt.Sprint(pr), "--json", "title,body,state,number"}, repo...)...)
	assert.JSONEq(t, fmt.Sprintf(`{"title":"Fix the leak","body":"Closes the leak.","state":"OPEN","number":%d}`, pr), out)
	out = run(append([]string{"pr", "list", "--json", "number,title"}, repo...)...)
	assert.JSONEq(t, fmt.Sprintf(`[{"number":%d,"title":"Fix the leak"}]`, pr), out)
	// gh issue view also reads a pull request by its number (issueOrPullRequest).
	out = run(append([]string{"issue", "view", fmt.Sprint(pr), "--json", "title"}, repo...)...)
	assert.JSONEq(t, `{"title":"Fix the leak"}`, out)

	run(append([]string{"issue", "comment", fmt.Sprint(issue), "--body", "Reproduced at 500 requests."}, repo...)...)
	run(append([]string{"issue", "edit", fmt.Sprint(issue), "--add-label", "bug"}, repo...)...)
	run(append([]string{"issue", "close", fmt.Sprint(issue)}, repo...)...)
	got, ok := s.Issue("acme/demo", issue)
	require.True(t, ok)
	assert.Equal(t, "CLOSED", got.State)
	assert.Equal(t, []string{"bug"}, got.Labels)
	require.Len(t, got.Comments, 1)
	assert.Equal(t, "Reproduced at 500 requests.", got.Comments[0].Body)
}

// TestReplyToReviewComment: replies by GraphQL and REST join the thread in
// a submitted review of the viewer's; a blank reply, an unknown comment and
// a reply without in_reply_to are refused as GitHub refuses them.
func TestReplyToReviewComment(t *testing.T) {
	t.Parallel()
	s, number, threadID := reviewFixture(t)
	auth := "bearer ghp_enterpriseTest"
	post := func(url, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", auth)
		resp, err := s.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var b bytes.Buffer
		_, err = b.ReadFrom(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, b.String()
	}
	gql := func(q string) string {
		t.Helper()
		b, err := json.Marshal(map[string]string{"query": q})
		require.NoError(t, err)
		_, out := post(s.GraphQLURL(), string(b))
		return out
	}
	out := gql(fmt.Sprintf(`mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: %q, body: "Done.", clientMutationId: "m1"}) { clientMutationId comment { body author { login } } } }`, threadID))
	assert.JSONEq(t, `{"data":{"addPullRequestReviewThreadReply":{"clientMutationId":"m1","comment":{"body":"Done.","author":{"login":"octocat"}}}}}`, out)
	out = gql(fmt.Sprintf(`mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: %q, body: "  "}) { comment { id } } }`, threadID))
	assert.Contains(t, out, "Body can't be blank")
	out = gql(`mutation { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: "PRRT_404", body: "x"}) { comment { id } } }`)
	assert.Contains(t, out, "Could not resolve to a node")

	pr, _ := s.PullRequest("acme/demo", number)
	require.Len(t, pr.ReviewThreads[0].Comments, 2)
	base := fmt.Sprintf("%s/repos/acme/demo/pulls/%d/comments", s.URL, number)
	var ids struct {
		Data struct {
			Node struct {
				Comments struct{ Nodes []struct{ DatabaseID int64 } }
			}
		}
	}
	out = gql(fmt.Sprintf(`query { node(id: %q) { ... on PullRequestReviewThread { comments(first: 1) { nodes { databaseId } } } } }`, threadID))
	require.NoError(t, json.Unmarshal([]byte(out), &ids), out)
	first := ids.Data.Node.Comments.Nodes[0].DatabaseID
	for _, tc := range []struct {
		name, url, body string
		status          int
		want            string
	}{
		{"in_reply_to", base, fmt.Sprintf(`{"body":"Thanks.","in_reply_to":%d}`, first), 201, `"in_reply_to_id":` + fmt.Sprint(first)},
		{"replies route", fmt.Sprintf("%s/%d/replies", base, first), `{"body":"Again."}`, 201, `"body":"Again."`},
		{"blank", base, fmt.Sprintf(`{"body":" ","in_reply_to":%d}`, first), 422, "body can't be blank"},
		{"no in_reply_to", base, `{"body":"x","path":"lists.go","line":1}`, 422, "in_reply_to is required"},
		{"unknown comment", base + "/999999/replies", `{"body":"x"}`, 404, "Not Found"},
		{"not JSON", base, `{`, 400, "Problems parsing JSON"},
	} {
		status, out := post(tc.url, tc.body)
		assert.Equal(t, tc.status, status, tc.name+": "+out)
		assert.Contains(t, out, tc.want, tc.name)
	}
	pr, _ = s.PullRequest("acme/demo", number)
	assert.Len(t, pr.ReviewThreads[0].Comments, 4)
	assert.Len(t, pr.Reviews, 4, "each reply in a review of its own")
}
