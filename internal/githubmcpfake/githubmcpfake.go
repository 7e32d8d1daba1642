// Package githubmcpfake serves the tools of GitHub's MCP server that a
// pull request review needs, over the GitHub fake, for the tests of ghx's
// mcp mode (tests only).
//
// ghx's mcp mode gives OpenCode GitHub's hosted MCP server (a streamable
// HTTP URL with the GitHub token as bearer token). GitHub's server
// (github/github-mcp-server) cannot be had here: its Go module is not
// served by the module proxy and it is not an npm package, and the npm
// reference server (@modelcontextprotocol/server-github, deprecated)
// hard-codes api.github.com and has no review-thread tools. So this
// package serves the same tools by the same names and arguments
// (pull_request_read with its get and get_review_comments methods,
// add_reply_to_pull_request_comment) on the official Go MCP SDK, over
// streamable HTTP on loopback, and each call acts on the GitHub fake
// through its own API (GraphQL and REST) with the bearer token the MCP
// client sent: what a tool changes is the fake's state every other client
// (gh, the checkpoints) sees, and a wrong token is refused by the fake.
package githubmcpfake

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve starts the MCP server over the GitHub fake whose base URL is
// apiURL (githubfake.Server.URL: GraphQL at apiURL/graphql, REST paths
// under it) and returns the MCP endpoint's URL. A request without an
// Authorization header is answered 401, as GitHub's server answers it. The
// server closes when t's test ends.
func Serve(t testing.TB, apiURL string) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newServer(apiURL) }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			http.Error(w, `{"message":"Requires authentication"}`, http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp/"
}

// pullRequestReadIn are pull_request_read's arguments.
type pullRequestReadIn struct {
	Method     string `json:"method" jsonschema:"the read to do: get (the pull request) or get_review_comments (its review threads, each with its comments)"`
	Owner      string `json:"owner" jsonschema:"repository owner"`
	Repo       string `json:"repo" jsonschema:"repository name"`
	PullNumber int    `json:"pullNumber" jsonschema:"pull request number"`
	PerPage    int    `json:"perPage,omitempty" jsonschema:"results per page (get_review_comments; default 30, at most 100)"`
	After      string `json:"after,omitempty" jsonschema:"cursor of the page before (get_review_comments)"`
}

// replyIn are add_reply_to_pull_request_comment's arguments.
type replyIn struct {
	Owner      string `json:"owner" jsonschema:"repository owner"`
	Repo       string `json:"repo" jsonschema:"repository name"`
	PullNumber int    `json:"pullNumber" jsonschema:"pull request number"`
	CommentID  int64  `json:"commentId" jsonschema:"the numeric ID of the review comment to reply to (the number of its #discussion_r... anchor, not the thread's node ID)"`
	Body       string `json:"body" jsonschema:"the text of the reply"`
}

func newServer(apiURL string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "github-mcp-server (agenteval's fake)", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "pull_request_read", Description: "Get information on a specific pull request in a GitHub repository: " +
		"get (its details) or get_review_comments (its review threads with isResolved, isOutdated and isCollapsed, and their comments)."},
		func(ctx context.Context, req *mcp.CallToolRequest, in pullRequestReadIn) (*mcp.CallToolResult, any, error) {
			auth := authorization(req)
			switch in.Method {
			case "get":
				return rest(ctx, auth, http.MethodGet, fmt.Sprintf("%s/repos/%s/%s/pulls/%d", apiURL, in.Owner, in.Repo, in.PullNumber), nil), nil, nil
			case "get_review_comments":
				return reviewThreads(ctx, auth, apiURL, in), nil, nil
			default:
				return errorResult(fmt.Sprintf("method %q is not served by this fake: use get or get_review_comments", in.Method)), nil, nil
			}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add_reply_to_pull_request_comment", Description: "Add a reply to an existing pull request review comment."},
		func(ctx context.Context, req *mcp.CallToolRequest, in replyIn) (*mcp.CallToolResult, any, error) {
			if strings.TrimSpace(in.Body) == "" {
				return errorResult("missing required parameter: body"), nil, nil
			}
			body := map[string]any{"body": in.Body, "in_reply_to": in.CommentID}
			return rest(ctx, authorization(req), http.MethodPost, fmt.Sprintf("%s/repos/%s/%s/pulls/%d/comments", apiURL, in.Owner, in.Repo, in.PullNumber), body), nil, nil
		})
	return s
}

// authorization is the Authorization header the MCP client sent.
func authorization(req *mcp.CallToolRequest) string {
	if req.Extra == nil || req.Extra.Header == nil {
		return ""
	}
	return req.Extra.Header.Get("Authorization")
}

// reviewThreadsQuery reads one page of a pull request's review threads.
const reviewThreadsQuery = `query($owner: String!, $repo: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: $first, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor }
        nodes {
          id isResolved isOutdated isCollapsed
          comments(first: 100) { totalCount nodes { id body path line author { login } createdAt url } }
        }
      }
    }
  }
}`

func reviewThreads(ctx context.Context, auth, apiURL string, in pullRequestReadIn) *mcp.CallToolResult {
	first := in.PerPage
	if first <= 0 {
		first = 30
	}
	vars := map[string]any{"owner": in.Owner, "repo": in.Repo, "number": in.PullNumber, "first": min(first, 100)}
	if in.After != "" {
		vars["after"] = in.After
	}
	status, b, err := call(ctx, auth, http.MethodPost, apiURL+"/graphql", map[string]any{"query": reviewThreadsQuery, "variables": vars})
	if err != nil {
		return errorResult(err.Error())
	}
	var out struct {
		Data struct {
			Repository *struct {
				PullRequest *struct {
					ReviewThreads json.RawMessage `json:"reviewThreads"`
				} `json:"pullRequest"`
			} `json:"repository"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if status != http.StatusOK || json.Unmarshal(b, &out) != nil {
		return errorResult(fmt.Sprintf("failed to get pull request review threads: %d %s", status, b))
	}
	if len(out.Errors) > 0 {
		return errorResult("failed to get pull request review threads: " + out.Errors[0].Message)
	}
	if out.Data.Repository == nil || out.Data.Repository.PullRequest == nil {
		return errorResult("failed to get pull request review threads: not found")
	}
	return textResult(out.Data.Repository.PullRequest.ReviewThreads)
}

// rest makes one REST call and gives its answer as the tool's result.
func rest(ctx context.Context, auth, method, url string, body any) *mcp.CallToolResult {
	status, b, err := call(ctx, auth, method, url, body)
	if err != nil {
		return errorResult(err.Error())
	}
	if status >= 300 {
		return errorResult(fmt.Sprintf("GitHub API error %d: %s", status, b))
	}
	return textResult(b)
}

// call sends one request to the fake with the MCP client's Authorization.
func call(ctx context.Context, auth, method, url string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", auth)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return resp.StatusCode, b, err
}

func textResult(b []byte) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
}

func errorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}
