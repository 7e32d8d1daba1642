// Package githubtest is an in-process fake of GitHub for a host's tests, in
// the spirit of net/http/httptest: make a github.Client from
// [Server.Config] (and from it the checkpoint executor and the fixture
// manager), seed repositories with issues and pull requests, run
// scenarios, and look at what the agent changed.
//
// Every GraphQL document it receives is validated against GitHub's
// published schema before it runs, and answers hold exactly the fields a
// query selected, so a query that passes here is valid on GitHub. It also
// serves the few REST paths agenteval's capability tasks use.
package githubtest

import (
	"testing"

	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
)

// Server is a fake GitHub, safe for concurrent use.
type Server struct{ fake *githubfake.Server }

// NewServer starts a fake GitHub with the viewer account "octocat" and
// closes it when t's test ends. t may be nil outside tests: Close it then.
func NewServer(t testing.TB) *Server {
	if t != nil {
		t.Helper()
	}
	return &Server{fake: githubfake.NewServer(t)}
}

// The seeding and inspection types: a repository's issues and pull
// requests and what they hold.
type (
	// Issue is an issue; ID and Number are set by the server.
	Issue = githubfake.Issue
	// PullRequest is a pull request with its commits, changed files,
	// reviews and review threads.
	PullRequest = githubfake.PullRequest
	// Comment is a comment of an issue, a pull request or a review thread.
	Comment = githubfake.Comment
	// Review is a pull request review.
	Review = githubfake.Review
	// ReviewThread is a review thread on a line of a pull request's file.
	ReviewThread = githubfake.ReviewThread
	// ChangedFile is a file of a pull request's diff.
	ChangedFile = githubfake.ChangedFile
)

// Config returns a github.Config that points at the server (its GraphQL
// endpoint, and a transport that reaches it); set Token, retries or a
// logger on it as a test needs, and pass it to github.NewClient.
func (s *Server) Config() github.Config {
	return github.Config{GraphQLURL: s.fake.GraphQLURL(), Transport: s.fake.Client().Transport}
}

// RequireToken makes the server answer 401 to requests without this
// bearer token.
func (s *Server) RequireToken(token string) { s.fake.RequireToken(token) }

// AddRepo adds the repository owner/name, with its default branch "main",
// and the given issues and pull requests (in order, sharing numbers as on
// GitHub; a pull request's head branch is created when missing).
func (s *Server) AddRepo(nameWithOwner string, issues []Issue, pulls []PullRequest) {
	r := s.fake.AddRepo(nameWithOwner)
	for _, i := range issues {
		r.AddIssue(i)
	}
	for _, p := range pulls {
		r.AddPullRequest(p)
	}
}

// Issues returns the repository's issues, in number order.
func (s *Server) Issues(nameWithOwner string) []Issue { return s.fake.Issues(nameWithOwner) }

// PullRequests returns the repository's pull requests, in number order.
func (s *Server) PullRequests(nameWithOwner string) []PullRequest {
	return s.fake.PullRequests(nameWithOwner)
}

// Close shuts the server down; NewServer with a test does it at its end.
func (s *Server) Close() { s.fake.Close() }
