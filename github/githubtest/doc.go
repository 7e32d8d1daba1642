// Package githubtest is an in-process fake of GitHub's API for tests, in the
// spirit of net/http/httptest.
//
// A Server answers POST /graphql like api.github.com does, over an in-memory
// model of repositories, issues, pull requests (commits, reviews, review
// threads, changed files, checks), branches, labels, releases and Projects
// v2, plus the few REST paths that GraphQL lacks (Actions workflows, runs,
// jobs, logs and artifacts, pull request diffs, issue dependencies and
// organisation issue types).
//
// Every incoming GraphQL document is parsed and validated against GitHub's
// published schema (pruned to the part the fake serves, see schema.graphql and
// internal/schemagen) before it is executed, and the response holds exactly
// the fields the query selected. So a query that passes against the fake is a
// valid query for GitHub, and clients such as github.com/shurcooL/githubv4,
// which refuse unexpected fields, decode the answers as they would GitHub's.
//
// State is added with builders (Server.AddRepo returns a *RepoBuilder with
// AddIssue, AddPullRequest, AddReviewThread and friends), inspected with
// accessors (Server.PullRequest, Server.Issue, Server.BranchOID, ...) and
// changed by the same mutations a client would send (createRef, updateRef,
// createCommitOnBranch, addPullRequestReview, resolveReviewThread,
// createIssue, addComment, createLabel, ...). A request log counts requests
// per operation, RequireToken makes the server answer 401 without the
// expected token, and SimulateRateLimit answers the next requests with
// GitHub's rate-limit responses. A Server is safe for concurrent use.
//
// The package depends only on the standard library and gqlparser, so it can
// be used from any test suite.
package githubtest
