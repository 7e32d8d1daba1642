package githubtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/agenteval/agenteval/github/githubtest"
)

func post(t *testing.T, s *githubtest.Server, query string, vars map[string]any) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	resp, err := s.Client().Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	return string(b)
}

func TestSmoke(t *testing.T) {
	s := githubtest.NewServer(t)
	r := s.AddRepo("acme/demo")
	r.AddLabel(githubtest.Label{Name: "bug"})
	pr := r.AddPullRequest(githubtest.PullRequest{Title: "Fix", Head: "fix", Labels: []string{"bug"}})
	pr.AddReviewThread(githubtest.ReviewThread{Path: "a.go", Line: 3, Comments: []githubtest.Comment{{Author: "rev", Body: "please fix"}}})
	pr.AddReviewThread(githubtest.ReviewThread{Path: "a.go", Line: 5, Resolved: true, Comments: []githubtest.Comment{{Author: "rev", Body: "ok"}}})
	t.Log(post(t, s, `query($o:String!,$n:String!,$num:Int!){repository(owner:$o,name:$n){id nameWithOwner defaultBranchRef{name target{oid ... on Commit{messageHeadline}}} pullRequest(number:$num){number title state labels(first:10){nodes{name}} commits(first:10){totalCount nodes{commit{oid}}} reviewThreads(first:10){edges{cursor node{id isResolved resolvedBy{login} comments(first:5){nodes{body author{login __typename}}}}} pageInfo{hasNextPage endCursor}}}}}`,
		map[string]any{"o": "acme", "n": "demo", "num": 1}))
	t.Log(post(t, s, `{repository(owner:"acme",name:"nope"){id}}`, nil))
	t.Log(post(t, s, `{repository(owner:"acme",name:"demo"){idx}}`, nil))
	t.Log(post(t, s, `{repository(owner:"acme",name:"demo"){labels{nodes{name}}}}`, nil))
	t.Log(post(t, s, `{repository(owner:"acme",name:"demo"){pullRequest(number:9){id}}}`, nil))
}
