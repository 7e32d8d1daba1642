package github_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referenceScenarioDir holds the two ghx reference scenarios.
func referenceScenarioDir() string {
	if p := os.Getenv("AGENTEVAL_GHX_SCENARIOS"); p != "" {
		return p
	}
	return filepath.Join("..", "testdata", "shared", "peer", "ghx-scenarios")
}

type refCheckpoint struct {
	ID        string         `json:"id"`
	Task      string         `json:"task"`
	Input     map[string]any `json:"input"`
	Condition struct {
		Type  string  `json:"type"`
		Value float64 `json:"value"`
	} `json:"condition"`
}

// loadCheckpoints reads a scenario's checkpoints and binds its placeholders
// the way the fixture binder does: owner "acme", repo_name "demo",
// pr_number "7" (bound values are strings).
func loadCheckpoints(t *testing.T, file string) []refCheckpoint {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(referenceScenarioDir(), file))
	require.NoError(t, err)
	var sc struct {
		Assertions struct {
			Checkpoints []refCheckpoint `json:"checkpoints"`
		} `json:"assertions"`
	}
	require.NoError(t, json.Unmarshal(b, &sc))
	bind := strings.NewReplacer("{{owner}}", "acme", "{{repo_name}}", "demo", "{{pr_number}}", "7")
	for _, cp := range sc.Assertions.Checkpoints {
		for k, v := range cp.Input {
			if s, ok := v.(string); ok {
				cp.Input[k] = bind.Replace(s)
			}
		}
	}
	require.NotEmpty(t, sc.Assertions.Checkpoints)
	return sc.Assertions.Checkpoints
}

// passes applies a checkpoint condition to a list task's items, which is
// how the scorer must read {items, pageInfo} results for count and
// emptiness conditions to mean anything (ghx.md §9.2).
func passes(t *testing.T, cp refCheckpoint, data any) bool {
	t.Helper()
	list := items(t, norm(t, data))
	switch cp.Condition.Type {
	case "count_gte":
		return float64(len(list)) >= cp.Condition.Value
	case "non_empty":
		return len(list) > 0
	}
	t.Fatalf("condition %s not covered by this test", cp.Condition.Type)
	return false
}

// agentClient is what an agent's own GitHub calls look like: githubv4
// mutations against the fake.
func agentClient(s *githubfake.Server) *githubv4.Client {
	hc := s.Client()
	hc.Transport = bearer{token: testToken, next: hc.Transport}
	return githubv4.NewEnterpriseClient(s.GraphQLURL(), hc)
}

// mixedThreadsPR builds acme/demo with PR #7 carrying 7 review threads, 4 of
// them resolved (the legacy "mixed threads" fixture).
func mixedThreadsPR(t *testing.T, s *githubfake.Server) *githubfake.PullRequestBuilder {
	r := s.AddRepo("acme/demo")
	for i := 1; i <= 6; i++ {
		r.AddIssue(githubfake.Issue{Title: fmt.Sprintf("issue %d", i)})
	}
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "Add parser", Head: "bench-fixture/pr-mixed-threads-7", Author: "fixture-bot"})
	require.Equal(t, 7, pr.Number())
	for i := 0; i < 7; i++ {
		pr.AddReviewThread(githubfake.ReviewThread{Path: "parser.go", Line: 10 + i, Resolved: i < 4,
			Comments: []githubfake.Comment{{Author: "reviewer", Body: fmt.Sprintf("comment %d", i)}}})
	}
	return pr
}

func TestReferenceScenarioMixedThreads(t *testing.T) {
	t.Parallel()
	cps := loadCheckpoints(t, "pr-fix-mixed-threads-wf-001.json")
	tests := []struct {
		name  string
		agent func(t *testing.T, s *githubfake.Server, pr *githubfake.PullRequestBuilder)
		want  map[string]bool
	}{
		{"agent pushed a fix and left threads open", func(t *testing.T, s *githubfake.Server, pr *githubfake.PullRequestBuilder) {
			var m struct {
				CreateCommitOnBranch struct {
					Commit struct{ Oid string }
				} `graphql:"createCommitOnBranch(input: $input)"`
			}
			branch := githubv4.String(pr.HeadBranch())
			nwo := githubv4.String("acme/demo")
			err := agentClient(s).Mutate(context.Background(), &m, githubv4.CreateCommitOnBranchInput{
				Branch:          githubv4.CommittableBranch{RepositoryNameWithOwner: &nwo, BranchName: &branch},
				ExpectedHeadOid: githubv4.GitObjectID(pr.HeadOID()),
				Message:         githubv4.CommitMessage{Headline: "Address review comments"},
				FileChanges: &githubv4.FileChanges{Additions: &[]githubv4.FileAddition{{
					Path: "parser.go", Contents: githubv4.Base64String(base64.StdEncoding.EncodeToString([]byte("package parser\n"))),
				}}},
			}, nil)
			require.NoError(t, err)
			require.Len(t, m.CreateCommitOnBranch.Commit.Oid, 40)
		}, map[string]bool{"new-commit-pushed": true, "threads-not-resolved": true}},
		{"agent did nothing but resolve every thread", func(t *testing.T, s *githubfake.Server, pr *githubfake.PullRequestBuilder) {
			snap, ok := s.PullRequest("acme/demo", 7)
			require.True(t, ok)
			for _, th := range snap.ReviewThreads {
				if th.Resolved {
					continue
				}
				var m struct {
					ResolveReviewThread struct {
						Thread struct{ IsResolved bool }
					} `graphql:"resolveReviewThread(input: $input)"`
				}
				require.NoError(t, agentClient(s).Mutate(context.Background(), &m, githubv4.ResolveReviewThreadInput{ThreadID: th.ID}, nil))
				require.True(t, m.ResolveReviewThread.Thread.IsResolved)
			}
		}, map[string]bool{"new-commit-pushed": false, "threads-not-resolved": false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, execOptions{})
			pr := mixedThreadsPR(t, e.srv)
			tc.agent(t, e.srv, pr)
			for _, cp := range cps {
				data, err := e.exec.Execute(context.Background(), cp.Task, cp.Input)
				require.NoError(t, err, cp.ID)
				assert.Equal(t, tc.want[cp.ID], passes(t, cp, data), cp.ID)
			}
		})
	}
}

func TestReferenceScenarioReviewComment(t *testing.T) {
	t.Parallel()
	cps := loadCheckpoints(t, "pr-review-comment-001.json")
	for _, did := range []bool{true, false} {
		t.Run(fmt.Sprintf("agent reviewed=%v", did), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, execOptions{})
			r := e.srv.AddRepo("acme/demo")
			for i := 1; i <= 6; i++ {
				r.AddIssue(githubfake.Issue{Title: fmt.Sprintf("issue %d", i)})
			}
			pr := r.AddPullRequest(githubfake.PullRequest{Title: "Add feature", Head: "feature",
				Files: []githubfake.ChangedFile{{Path: "feature.go", Additions: 3, Patch: "@@ -0,0 +1,3 @@\n+a\n+b\n+c\n"}}})
			if did {
				var m struct {
					AddPullRequestReview struct {
						PullRequestReview struct{ State string }
					} `graphql:"addPullRequestReview(input: $input)"`
				}
				event := githubv4.PullRequestReviewEventComment
				body := githubv4.String("Looks fine; consider naming the constant.")
				require.NoError(t, agentClient(e.srv).Mutate(context.Background(), &m, githubv4.AddPullRequestReviewInput{
					PullRequestID: pr.ID(), Event: &event, Body: &body,
				}, nil))
				require.Equal(t, "COMMENTED", m.AddPullRequestReview.PullRequestReview.State)
			}
			for _, cp := range cps {
				data, err := e.exec.Execute(context.Background(), cp.Task, cp.Input)
				require.NoError(t, err, cp.ID)
				assert.Equal(t, did, passes(t, cp, data), cp.ID)
			}
		})
	}
}
