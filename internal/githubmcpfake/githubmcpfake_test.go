package githubmcpfake

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/githubfake"
)

// bearer sends a token with every request of an MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func connect(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func text(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, r.Content, 1)
	return r.Content[0].(*mcp.TextContent).Text
}

// TestToolsActOnTheFake: the review threads read through pull_request_read
// are the fake's, a reply made with add_reply_to_pull_request_comment is in
// the fake's state, and the fake checks the MCP client's token.
func TestToolsActOnTheFake(t *testing.T) {
	t.Parallel()
	fake := githubfake.NewServer(t)
	fake.RequireToken("ghp_mcpTest")
	pr := fake.AddRepo("acme/demo").AddPullRequest(githubfake.PullRequest{Title: "Add lists"})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "a.go", Line: 1, Resolved: true, Comments: []githubfake.Comment{{Body: "Done already."}}})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "a.go", Line: 2, Comments: []githubfake.Comment{{Body: "Off by one."}}})
	url := Serve(t, fake.URL)
	cs := connect(t, url, "ghp_mcpTest")
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	assert.ElementsMatch(t, []string{"pull_request_read", "add_reply_to_pull_request_comment"}, names)

	read := func() (threads []struct {
		ID         string
		IsResolved bool
		Comments   struct {
			TotalCount int
			Nodes      []struct{ Body, URL string }
		}
	}) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "pull_request_read",
			Arguments: map[string]any{"method": "get_review_comments", "owner": "acme", "repo": "demo", "pullNumber": pr.Number()}})
		require.NoError(t, err)
		require.False(t, res.IsError, text(t, res))
		var page struct {
			TotalCount int
			Nodes      []struct {
				ID         string
				IsResolved bool
				Comments   struct {
					TotalCount int
					Nodes      []struct{ Body, URL string }
				}
			}
		}
		require.NoError(t, json.Unmarshal([]byte(text(t, res)), &page))
		assert.Equal(t, len(page.Nodes), page.TotalCount)
		return page.Nodes
	}
	threads := read()
	require.Len(t, threads, 2)
	assert.True(t, threads[0].IsResolved)
	assert.False(t, threads[1].IsResolved)
	m := regexp.MustCompile(`#discussion_r(\d+)$`).FindStringSubmatch(threads[1].Comments.Nodes[0].URL)
	require.Len(t, m, 2, threads[1].Comments.Nodes[0].URL)
	id, err := strconv.ParseInt(m[1], 10, 64)
	require.NoError(t, err)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add_reply_to_pull_request_comment",
		Arguments: map[string]any{"owner": "acme", "repo": "demo", "pullNumber": pr.Number(), "commentId": id, "body": "Use len - 1."}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(t, res))
	assert.Contains(t, text(t, res), `"in_reply_to_id":`+m[1])
	threads = read()
	assert.Equal(t, 2, threads[1].Comments.TotalCount)
	assert.Equal(t, "Use len - 1.", threads[1].Comments.Nodes[1].Body)
	got, _ := fake.PullRequest("acme/demo", pr.Number())
	assert.Len(t, got.ReviewThreads[1].Comments, 2, "the reply is the fake's state")

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "pull_request_read",
		Arguments: map[string]any{"method": "get", "owner": "acme", "repo": "demo", "pullNumber": pr.Number()}})
	require.NoError(t, err)
	assert.Contains(t, text(t, res), `"title":"Add lists"`)

	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"pull_request_read", map[string]any{"method": "get_files", "owner": "acme", "repo": "demo", "pullNumber": 1}, `method "get_files" is not served`},
		{"pull_request_read", map[string]any{"method": "get_review_comments", "owner": "acme", "repo": "nope", "pullNumber": 1}, "failed to get pull request review threads"},
		{"add_reply_to_pull_request_comment", map[string]any{"owner": "acme", "repo": "demo", "pullNumber": pr.Number(), "commentId": 999999, "body": "x"}, "GitHub API error 404"},
		{"add_reply_to_pull_request_comment", map[string]any{"owner": "acme", "repo": "demo", "pullNumber": pr.Number(), "commentId": id, "body": " "}, "missing required parameter: body"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
		require.NoError(t, err)
		assert.True(t, res.IsError, tc.want)
		assert.Contains(t, text(t, res), tc.want)
	}

	// The fake refuses a wrong token; the MCP server refuses none.
	wrong := connect(t, url, "ghp_wrong")
	res, err = wrong.CallTool(ctx, &mcp.CallToolParams{Name: "pull_request_read",
		Arguments: map[string]any{"method": "get", "owner": "acme", "repo": "demo", "pullNumber": pr.Number()}})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, text(t, res), "Bad credentials")
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	_, err = c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{}}}, nil)
	assert.ErrorContains(t, err, "Unauthorized")
}
