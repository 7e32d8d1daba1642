// Package github is a checkpoint.Executor for GitHub: it runs the read-only
// capability tasks of the ghx registry (repo.view, pr.view,
// pr.threads.list, workflow.run.view, ...) plus pr.commits.list and
// pr.review_threads.list, which the reference scenarios use, and returns
// their data as plain JSON values shaped as each capability card's output
// schema says. Tasks lists them with their inputs and output shapes.
//
// Queries go through github.com/shurcooL/githubv4, and every document is
// tested against GitHub's published schema. The few tasks GraphQL cannot
// answer use GitHub's REST API over the same http.Client: Actions
// workflows, runs, jobs, logs and artifacts, pull request diffs, issue
// dependencies and organisation issue types (the last two are missing from
// the published GraphQL schema). Authentication is the caller's: put the
// token in the client's Transport. The token never appears in errors or
// logs, and log downloads follow GitHub's redirect to blob storage without
// it.
//
// # Inputs
//
// Each task accepts the card's input names and their snake_case spellings,
// "repo" (or "repo_name", "repository") for "name", "owner/name" in "name"
// when "owner" is absent, and numbers as integers, whole floats or decimal
// strings ("42", as fixture binding produces). Unknown keys are rejected,
// as the cards' additionalProperties: false does.
//
// # Where this differs from ghx
//
//   - List tasks without "first" return every item (up to Options.MaxPages
//     pages of 100) instead of 30; issue.comments.list does not require
//     "first".
//   - issue.list and pr.list honour "state" (open, closed, merged, all;
//     all by default), which ghx ignores.
//   - issue.relations.prs.list reads closedByPullRequestsReferences (closing
//     keywords and manual links, open or closed) rather than scanning the
//     timeline for CONNECTED_EVENT.
//   - pr.checks.list reads the head commit's status check rollup and
//     computes the buckets, so summary counts and the state filter work
//     (the card's CLI route always reports zeros), and fills annotations.
//   - project_v2.fields.list and project_v2.items.list ask repositoryOwner
//     once instead of trying the organization and then the user.
//   - workflow.view also accepts a workflow name.
//   - An unknown task is an UnknownTaskError with the nearest names.
//   - pr.commits.list ({items, pageInfo, totalCount}) and
//     pr.review_threads.list (filter: all, resolved or unresolved) are new.
package github
