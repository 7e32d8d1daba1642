package githubfake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzGraphQL sends arbitrary documents and variables to the GraphQL
// handler: whatever arrives, the fake must answer 200 with a JSON body (or
// 400 for a body that is not JSON) and never panic.
func FuzzGraphQL(f *testing.F) {
	for _, q := range []string{
		`{repository(owner:"acme",name:"demo"){pullRequest(number:2){reviewThreads(first:5){nodes{id comments(first:2){nodes{body}}}}}}}`,
		`query($n:Int!,$c:String){repository(owner:"acme",name:"demo"){issues(first:$n,after:$c){nodes{title labels(first:3){nodes{name}}} pageInfo{endCursor}}}}`,
		`{node(id:"PR_1"){__typename ... on PullRequest{commits(last:1){nodes{commit{oid statusCheckRollup{state}}}}}}}`,
		`mutation($id:ID!){addComment(input:{subjectId:$id,body:"x"}){commentEdge{node{body}}}}`,
		`{repositoryOwner(login:"acme"){... on ProjectV2Owner{projectV2(number:1){items(first:2){nodes{type}}}}}}`,
		`{__schema{types{name}}}`,
	} {
		f.Add(q, `{"n":2,"c":null,"id":"I_1"}`)
	}
	s := NewServer(f)
	r := s.AddRepo("acme/demo")
	r.AddIssue(Issue{Title: "i", Labels: []string{"bug"}})
	pr := r.AddPullRequest(PullRequest{Title: "p", Head: "h"})
	pr.AddReviewThread(ReviewThread{Path: "a", Line: 1, Comments: []Comment{{Body: "c"}}})
	handler := s.srv.Config.Handler
	f.Fuzz(func(t *testing.T, query, vars string) {
		var v map[string]any
		_ = json.Unmarshal([]byte(vars), &v)
		body, _ := json.Marshal(map[string]any{"query": query, "variables": v})
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("status %d for %q: %s", rec.Code, query, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON for %q: %s", query, rec.Body)
		}
	})
}
