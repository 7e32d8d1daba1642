package githubfake_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/shurcooL/githubv4"
)

// Example seeds a pull request with review threads, lets a client resolve
// one through the real githubv4 client, and inspects the result.
func Example() {
	srv := githubfake.NewServer(nil) // in a test: githubfake.NewServer(t)
	defer srv.Close()

	repo := srv.AddRepo("acme/demo")
	pr := repo.AddPullRequest(githubfake.PullRequest{Title: "Add parser", Head: "parser"})
	threadID := pr.AddReviewThread(githubfake.ReviewThread{
		Path: "parser.go", Line: 12,
		Comments: []githubfake.Comment{{Author: "reviewer", Body: "Handle EOF."}},
	})

	client := githubv4.NewEnterpriseClient(srv.GraphQLURL(), srv.Client())
	var m struct {
		ResolveReviewThread struct {
			Thread struct{ IsResolved bool }
		} `graphql:"resolveReviewThread(input: $input)"`
	}
	if err := client.Mutate(context.Background(), &m, githubv4.ResolveReviewThreadInput{ThreadID: threadID}, nil); err != nil {
		fmt.Println(err)
		return
	}

	var q struct {
		Repository struct {
			PullRequest struct {
				Commits       struct{ TotalCount int }
				ReviewThreads struct {
					Nodes []struct {
						IsResolved bool
						ResolvedBy struct{ Login string }
					}
				} `graphql:"reviewThreads(first: 10)"`
			} `graphql:"pullRequest(number: 1)"`
		} `graphql:"repository(owner: \"acme\", name: \"demo\")"`
	}
	if err := client.Query(context.Background(), &q, nil); err != nil {
		fmt.Println(err)
		return
	}
	th := q.Repository.PullRequest.ReviewThreads.Nodes[0]
	fmt.Println("commits:", q.Repository.PullRequest.Commits.TotalCount)
	fmt.Println("resolved:", th.IsResolved, "by", th.ResolvedBy.Login)
	fmt.Println("queries:", srv.RequestCount("query repository"), "mutations:", srv.RequestCount("mutation resolveReviewThread"))
	// Output:
	// commits: 1
	// resolved: true by octocat
	// queries: 1 mutations: 1
}
