package githubfake_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/agenteval/agenteval/internal/githubfake"
)

// BenchmarkQuery measures one validated, executed query over HTTP: a pull
// request with its review threads, as checkpoint tasks read it.
func BenchmarkQuery(b *testing.B) {
	s := githubfake.NewServer(b)
	pr := s.AddRepo("acme/demo").AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h"})
	for i := 0; i < 20; i++ {
		pr.AddReviewThread(githubfake.ReviewThread{Path: "a.go", Line: i + 1, Comments: []githubfake.Comment{{Author: "rev", Body: "x"}}})
	}
	body, _ := json.Marshal(map[string]any{
		"query":     `query($o:String!,$n:String!,$p:Int!){repository(owner:$o,name:$n){pullRequest(number:$p){reviewThreads(first:100){nodes{id isResolved comments(first:20){nodes{body author{login}}}} pageInfo{hasNextPage endCursor}}}}}`,
		"variables": map[string]any{"o": "acme", "n": "demo", "p": 1},
	})
	c := s.Client()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatal(resp.Status)
		}
	}
}
