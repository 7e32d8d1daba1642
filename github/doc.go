// Package github is agenteval's GitHub client, in one place: the
// connection (endpoints, token, retries), the checkpoint executor that runs
// capability tasks after a session, and the fixture manager that seeds,
// checks, resets and cleans up the fixtures scenarios run against. The
// in-process fake GitHub for tests is githubfake.
//
// # The client
//
// [NewClient] makes one [Client] from a [Config]: the GraphQL endpoint
// ([DefaultGraphQLURL], or https://HOST/api/graphql for GitHub Enterprise
// Server), the REST root derived from it, the token (sent as a bearer
// token, never written into an error or a log) and the retry policy. Every
// request goes through agenteval's one retry transport: network errors,
// 5xx, and rate limits (403 or 429 with Retry-After or x-ratelimit-reset,
// a secondary limit's message, a GraphQL RATE_LIMITED error) are retried
// after the server's own wait or a backoff, up to MaxWait; a rate limit
// resetting later than that fails at once with an [*Error] of kind [ErrRateLimited].
//
// # The checkpoint executor
//
// [NewExecutor] returns a checkpoint.Executor running the read-only capability tasks of the ghx
// registry (repo.view, pr.view, pr.threads.list, workflow.run.view, ...)
// plus pr.commits.list and pr.review_threads.list, which the reference
// scenarios use, and returning their data as plain JSON values shaped as
// each capability card's output schema says. [Tasks] lists them with their
// inputs and output shapes.
//
// Queries go through github.com/shurcooL/githubv4, and every document is
// tested against GitHub's published schema. The few tasks GraphQL cannot
// answer use GitHub's REST API: Actions workflows, runs, jobs, logs and
// artifacts, pull request diffs, issue dependencies and organisation issue
// types (the last two are missing from the published GraphQL schema). Log
// downloads follow GitHub's redirect to blob storage without the token.
//
// Each task accepts the card's input names and their snake_case spellings,
// "repo" (or "repo_name", "repository") for "name", "owner/name" in "name"
// when "owner" is absent, and numbers as integers, whole floats or decimal
// strings ("42", as fixture binding produces). Unknown keys are rejected,
// as the cards' additionalProperties: false does.
//
// Where the executor differs from ghx:
//
//   - List tasks without "first" return every item (up to
//     ExecutorOptions.MaxPages pages of 100) instead of 30;
//     issue.comments.list does not require "first".
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
//   - An unknown task is an [Error] of kind [ErrUnknownTask] with the nearest names.
//   - pr.commits.list ({items, pageInfo, totalCount}) and
//     pr.review_threads.list (filter: all, resolved or unresolved) are new.
//
// # The fixture manager
//
// [NewManager] returns the GitHub implementation of fixture.Manager, on the
// GraphQL API alone. Seeding creates, from a fixture.SeedFile, labels,
// issues (with labels, comments and state) and pull requests (a branch
// agenteval/<seed_id>/<name> from the base, commits made with
// createCommitOnBranch, the pull request, labels, COMMENT reviews, review
// threads and their resolution, comments). Every issue and pull request
// carries the seed label agenteval-seed:<seed_id> and a hidden marker in its
// body, which make seeding idempotent and let Cleanup touch only what
// seeding made. Status reports drift per resource; Reset puts back what it
// can, each fixture on its own: a pull request's head branch (force-moved
// back to its seeded commit, or re-created, and read back), the open state
// of a closed pull request and the seeded state of an issue, removed
// labels, and with reset_threads the seeded resolution of review threads;
// a merged or deleted pull request, a deleted issue or thread remain drift,
// and what an agent added (comments, reviews, labels, other branches) is
// left alone. Cleanup closes what seeding made and touches nothing without
// the seed label. SeedFresh makes a fixture anew for one run (named
// <fixture>.<run>, carrying the seed label) and Remove closes exactly
// those. ManagerConfig.DryRun reports without changing anything.
package github
