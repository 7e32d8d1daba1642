package checkpoint_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/scenario"
)

// The reference scenarios (testdata/shared/peer/ghx-scenarios) are
// scored end to end: loaded, bound to a manifest for acme/demo,
// run through the GitHub executor against the fake GitHub. In the reference
// every one of their checkpoints fails whatever the agent does (tasks that do
// not exist, inputs of the wrong shape, counts on {items, pageInfo}); here
// they tell a finished task from an unfinished one.

const e2eToken = "ghp_e2eTOKENforCHECKPOINTtests"

// fakeGitHub starts a fake GitHub holding acme/demo and an executor for it.
func fakeGitHub(t testing.TB) (*githubfake.Server, *githubfake.RepoBuilder, checkpoint.Executor) {
	t.Helper()
	srv := githubfake.NewServer(t)
	srv.RequireToken(e2eToken)
	repo := srv.AddRepoWith("acme/demo", githubfake.RepoOptions{OwnerType: "Organization"})
	client := github.NewClient(github.Config{Token: e2eToken, GraphQLURL: srv.GraphQLURL(), Transport: srv.Client().Transport, MaxWait: -1})
	exec := github.NewExecutor(client, github.ExecutorOptions{})
	return srv, repo, exec
}

// manifest records the seeded pull requests as a seeder would.
func manifest(mixedThreads, withChanges int) *scenario.Manifest {
	return &scenario.Manifest{
		SeedID: "seed-e2e", CreatedAt: "2026-11-22T00:00:00Z", Repo: "acme/demo",
		Fixtures: map[string]scenario.FixtureResource{
			"pr_with_mixed_threads": {Type: "pr", Number: float64(mixedThreads), Repo: "acme/demo", Branch: "bench-fixture/pr-mixed-threads"},
			"pr_with_changes":       {Type: "pr", Number: float64(withChanges), Repo: "acme/demo", Branch: "bench-fixture/pr-changes"},
		},
	}
}

// loadBound loads a reference scenario and binds it to m.
func loadBound(t testing.TB, name string, m *scenario.Manifest) *scenario.Scenario {
	t.Helper()
	path := filepath.Join("..", "testdata", "shared", "peer", "ghx-scenarios", name)
	f, err := agenteval.New().Loader(scenario.Options{}).LoadFile(path)
	require.NoError(t, err)
	s, err := fixture.Bind(f.Scenario, m, nil)
	require.NoError(t, err)
	return s
}

// seedPRs adds the two fixture pull requests: #1 with one commit and seven
// review threads, four of them resolved (the mixed-threads recipe); #2 with
// changes and no reviews.
func seedPRs(repo *githubfake.RepoBuilder) (mixed, changes *githubfake.PullRequestBuilder) {
	mixed = repo.AddPullRequest(githubfake.PullRequest{Title: "Refactor the parser", Head: "bench-fixture/pr-mixed-threads",
		Commits: []string{"Refactor the parser"}})
	for i, resolved := range []bool{true, false, true, false, true, false, true} {
		mixed.AddReviewThread(githubfake.ReviewThread{Path: "parser.go", Line: 10 + i, Resolved: resolved,
			Comments: []githubfake.Comment{{Author: "reviewer", Body: "Please rename this variable."}}})
	}
	changes = repo.AddPullRequest(githubfake.PullRequest{Title: "Add a cache", Head: "bench-fixture/pr-changes",
		Commits: []string{"Add a cache"}, Files: []githubfake.ChangedFile{{Path: "cache.go", Additions: 40}}})
	return mixed, changes
}

func TestReferenceScenariosAgainstFakeGitHub(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("the agent did the work", func(t *testing.T) {
		t.Parallel()
		srv, repo, exec := fakeGitHub(t)
		mixed, changes := seedPRs(repo)
		m := manifest(mixed.Number(), changes.Number())
		// The agent pushes a fix to the mixed-threads PR, leaves the
		// threads alone, and comments on the other PR's changes.
		mixed.AddCommit("Rename the variable as asked", githubfake.File{Path: "parser.go", Content: "package parser\n"})
		changes.AddReview(githubfake.Review{Author: "agent", Body: "The cache never evicts; consider an LRU.", State: "COMMENTED"})

		for _, name := range []string{"pr-fix-mixed-threads-wf-001.json", "pr-review-comment-001.json"} {
			s := loadBound(t, name, m)
			rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
			for _, r := range rep.Results {
				require.NoError(t, r.Err, "%s/%s", s.ID, r.ID)
				assert.True(t, r.Passed, "%s/%s: expected %s, %s", s.ID, r.ID, r.Expected, r.Message)
			}
			assert.True(t, rep.Passed, s.ID)
			assert.Equal(t, len(s.Checkpoints), rep.PassedCount)
		}
		assert.Positive(t, srv.RequestCount(""))
	})

	t.Run("no fix commit", func(t *testing.T) {
		t.Parallel()
		_, repo, exec := fakeGitHub(t)
		mixed, changes := seedPRs(repo)
		s := loadBound(t, "pr-fix-mixed-threads-wf-001.json", manifest(mixed.Number(), changes.Number()))
		rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
		assert.False(t, rep.Passed)
		require.Len(t, rep.Results, 2)
		commit, threads := rep.Results[0], rep.Results[1]
		assert.Equal(t, "new-commit-pushed", commit.ID)
		require.NoError(t, commit.Err)
		assert.False(t, commit.Passed)
		assert.Equal(t, "count >= 2", commit.Expected)
		assert.Contains(t, commit.Message, "count is 1, want >= 2 (result.items: [{")
		assert.Equal(t, 1.0, lenItems(t, commit.Actual), "actual is the task's data")
		assert.True(t, threads.Passed, threads.Message)
	})

	t.Run("threads resolved by the agent", func(t *testing.T) {
		t.Parallel()
		_, repo, exec := fakeGitHub(t)
		mixed := repo.AddPullRequest(githubfake.PullRequest{Head: "bench-fixture/pr-mixed-threads", Commits: []string{"Refactor"}})
		for i := range 3 {
			mixed.AddReviewThread(githubfake.ReviewThread{Path: "parser.go", Line: i + 1, Resolved: true,
				Comments: []githubfake.Comment{{Author: "reviewer", Body: "nit"}}})
		}
		mixed.AddCommit("Fix", githubfake.File{Path: "parser.go", Content: "x"})
		s := loadBound(t, "pr-fix-mixed-threads-wf-001.json", manifest(mixed.Number(), mixed.Number()))
		rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
		assert.False(t, rep.Passed)
		assert.True(t, rep.Results[0].Passed, rep.Results[0].Message)
		threads := rep.Results[1]
		assert.Equal(t, "threads-not-resolved", threads.ID)
		assert.False(t, threads.Passed)
		assert.Equal(t, "non-empty result", threads.Expected)
		// In the reference non_empty passes here: {items: [], ...} is not null.
		assert.Equal(t, "result.items has no items", threads.Message)
	})

	t.Run("no review comment", func(t *testing.T) {
		t.Parallel()
		_, repo, exec := fakeGitHub(t)
		mixed, changes := seedPRs(repo)
		s := loadBound(t, "pr-review-comment-001.json", manifest(mixed.Number(), changes.Number()))
		rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
		assert.False(t, rep.Passed)
		require.Len(t, rep.Results, 1)
		r := rep.Results[0]
		assert.Equal(t, "review-comment-exists", r.ID)
		require.NoError(t, r.Err)
		assert.False(t, r.Passed)
		assert.Equal(t, "result.items has no items", r.Message)
	})

	t.Run("missing pull request is a task error", func(t *testing.T) {
		t.Parallel()
		_, _, exec := fakeGitHub(t)
		s := loadBound(t, "pr-review-comment-001.json", manifest(99, 99))
		rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
		r := rep.Results[0]
		var ce *checkpoint.Error
		require.ErrorAs(t, r.Err, &ce)
		assert.Nil(t, ce.Panic)
		require.ErrorIs(t, r.Err, github.ErrNotFound)
		assert.False(t, rep.Passed)
		assert.NotContains(t, r.Error, e2eToken)
	})
}

// lenItems returns the length of data.items as a float64.
func lenItems(t testing.TB, data any) float64 {
	t.Helper()
	m, ok := data.(map[string]any)
	require.True(t, ok, "data is %T", data)
	items, ok := m["items"].([]any)
	require.True(t, ok, "items is %T", m["items"])
	return float64(len(items))
}

// ghxHead is ghx's eval scenarios as its repository holds them today (see
// testdata/corpus/PROVENANCE.md); their checkpoints use field_gte.
const ghxHead = "../testdata/corpus/ghx-f128993/packages/eval/scenarios"

// loadHead loads a ghx HEAD scenario, which must load without a finding,
// and binds it to m and a run id, as a runner does.
func loadHead(t testing.TB, name string, m *scenario.Manifest) *scenario.Scenario {
	t.Helper()
	f, err := agenteval.New().Loader(scenario.Options{}).LoadFile(filepath.Join(ghxHead, name))
	require.NoError(t, err)
	require.Empty(t, f.Diagnostics)
	require.True(t, f.Scenario.Fixture.SeedPerIteration)
	s, err := fixture.Bind(f.Scenario, m, map[string]any{fixture.VarRunID: "run_1763769600000"})
	require.NoError(t, err)
	return s
}

func TestGhxHeadFieldGTEAgainstFakeGitHub(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	res := func(typ string, n int, meta map[string]any) scenario.FixtureResource {
		return scenario.FixtureResource{Type: typ, Number: float64(n), Repo: "acme/demo", Metadata: meta}
	}
	cases := []struct {
		file string
		// seed creates the fixture in the state the agent left it
		// (done) or as seeded (!done) and returns the manifest entries.
		seed func(repo *githubfake.RepoBuilder, done bool) map[string]scenario.FixtureResource
		// failing are the checkpoints that fail when the agent did nothing, with their message.
		failing map[string]string
	}{
		{
			file: "issue-triage-and-assign-wf-001.json",
			seed: func(repo *githubfake.RepoBuilder, done bool) map[string]scenario.FixtureResource {
				spec := githubfake.Issue{Title: "Latency under load", Labels: []string{"@ghx-dev/eval"}}
				if done {
					spec.Labels = append(spec.Labels, "performance")
					spec.Comments = []githubfake.Comment{{Body: "Priority: high. Next: profile the pool."}}
				}
				it := repo.AddIssue(spec)
				return map[string]scenario.FixtureResource{"issue_for_triage": res("issue", it.Number(), nil)}
			},
			failing: map[string]string{
				"labels-applied":        "labels.length is 1, want >= 2",
				"triage-comment-exists": "items.length is 0, want >= 1",
			},
		},
		{
			file: "issue-to-pr-lifecycle-wf-001.json",
			seed: func(repo *githubfake.RepoBuilder, done bool) map[string]scenario.FixtureResource {
				it := repo.AddIssue(githubfake.Issue{Title: "Pool monitoring"})
				if done {
					pr := repo.AddPullRequest(githubfake.PullRequest{Title: "Monitor the pool", Head: "eval-fix", Commits: []string{"Add config"}})
					it.LinkPullRequest(pr.Number())
				}
				return map[string]scenario.FixtureResource{"issue_with_branch": res("issue", it.Number(),
					map[string]any{"headBranch": "eval-fix", "baseBranch": "main"})}
			},
			failing: map[string]string{"pr-created-for-issue": "items.length is 0, want >= 1"},
		},
		{
			file: "pr-review-comment-001.json",
			seed: func(repo *githubfake.RepoBuilder, done bool) map[string]scenario.FixtureResource {
				pr := repo.AddPullRequest(githubfake.PullRequest{Title: "Helpers", Commits: []string{"Add helpers"}})
				if done {
					pr.AddReview(githubfake.Review{Body: "Please fix the typo.", State: "CHANGES_REQUESTED"})
					pr.AddReviewThread(githubfake.ReviewThread{Path: "src/utils/helpers.ts", Line: 2,
						Comments: []githubfake.Comment{{Body: "improt is a typo"}}})
				}
				return map[string]scenario.FixtureResource{"pr_with_changes": res("pr", pr.Number(), nil)}
			},
			failing: map[string]string{
				"review-state-is-request-changes": "items.0.state is missing",
				"inline-comments-exist":           "items.length is 0, want >= 1",
			},
		},
	}
	for _, tc := range cases {
		for _, done := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/done=%v", tc.file, done), func(t *testing.T) {
				t.Parallel()
				_, repo, exec := fakeGitHub(t)
				m := &scenario.Manifest{SeedID: "e2e", CreatedAt: "2026-11-22T00:00:00Z", Repo: "acme/demo", Fixtures: tc.seed(repo, done)}
				s := loadHead(t, tc.file, m)
				rep := checkpoint.Checker{Executor: exec}.Score(ctx, s.Checkpoints)
				assert.Equal(t, done, rep.Passed)
				var sawGTE bool
				for _, r := range rep.Results {
					require.NoError(t, r.Err, r.ID)
					want, fails := tc.failing[r.ID]
					if done || !fails {
						assert.True(t, r.Passed, "%s: expected %s, %s", r.ID, r.Expected, r.Message)
						continue
					}
					assert.False(t, r.Passed, r.ID)
					assert.Contains(t, r.Message, want, r.ID)
					if strings.Contains(r.Expected, ">=") {
						sawGTE = true
					}
				}
				if !done {
					assert.True(t, sawGTE, "a field_gte checkpoint decided the failure")
				}
			})
		}
	}
}
