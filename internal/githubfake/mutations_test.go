package githubfake_test

import (
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/shurcooL/githubv4"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func client(s *githubfake.Server) *githubv4.Client {
	return githubv4.NewEnterpriseClient(s.GraphQLURL(), s.Client())
}

func str(s string) *githubv4.String { v := githubv4.String(s); return &v }

// repoIDs reads the ids a fixture manager needs before mutating.
func repoIDs(t *testing.T, s *githubfake.Server) (repoID, mainRefID, mainOID string) {
	t.Helper()
	var q struct {
		Repository struct {
			ID  string
			Ref struct {
				ID     string
				Target struct{ Oid string }
			} `graphql:"ref(qualifiedName: \"refs/heads/main\")"`
		} `graphql:"repository(owner: \"acme\", name: \"demo\")"`
	}
	require.NoError(t, client(s).Query(context.Background(), &q, nil))
	return q.Repository.ID, q.Repository.Ref.ID, q.Repository.Ref.Target.Oid
}

func TestRefMutations(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	s.AddRepo("acme/demo")
	ctx := context.Background()
	c := client(s)
	repoID, mainRef, base := repoIDs(t, s)

	var create struct {
		CreateRef struct {
			Ref struct {
				ID   string
				Name string
			}
		} `graphql:"createRef(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &create, githubv4.CreateRefInput{RepositoryID: repoID, Name: "refs/heads/feature", Oid: githubv4.GitObjectID(base)}, nil))
	assert.Equal(t, "feature", create.CreateRef.Ref.Name)
	err := c.Mutate(ctx, &create, githubv4.CreateRefInput{RepositoryID: repoID, Name: "refs/heads/feature", Oid: githubv4.GitObjectID(base)}, nil)
	require.ErrorContains(t, err, `A ref named "refs/heads/feature" already exists`)

	// A commit on feature moves it; main can fast-forward to it.
	var commit struct {
		CreateCommitOnBranch struct {
			Commit struct {
				Oid             string
				MessageHeadline string
			}
			Ref struct{ Name string }
		} `graphql:"createCommitOnBranch(input: $input)"`
	}
	featureID := githubv4.ID(create.CreateRef.Ref.ID)
	in := githubv4.CreateCommitOnBranchInput{
		Branch:          githubv4.CommittableBranch{ID: &featureID},
		ExpectedHeadOid: githubv4.GitObjectID(base),
		Message:         githubv4.CommitMessage{Headline: "Add file", Body: str("details")},
		FileChanges: &githubv4.FileChanges{Additions: &[]githubv4.FileAddition{{
			Path: "hello.txt", Contents: githubv4.Base64String(base64.StdEncoding.EncodeToString([]byte("hi\n"))),
		}}},
	}
	require.NoError(t, c.Mutate(ctx, &commit, in, nil))
	next := commit.CreateCommitOnBranch.Commit.Oid
	assert.Equal(t, "Add file", commit.CreateCommitOnBranch.Commit.MessageHeadline)
	oid, _ := s.BranchOID("acme/demo", "feature")
	assert.Equal(t, next, oid)
	require.ErrorContains(t, c.Mutate(ctx, &commit, in, nil), "Expected branch to point to")

	var update struct {
		UpdateRef struct {
			Ref struct{ Target struct{ Oid string } }
		} `graphql:"updateRef(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &update, githubv4.UpdateRefInput{RefID: mainRef, Oid: githubv4.GitObjectID(next)}, nil))
	assert.Equal(t, next, update.UpdateRef.Ref.Target.Oid)
	// Going back is not a fast-forward: refused without force.
	err = c.Mutate(ctx, &update, githubv4.UpdateRefInput{RefID: mainRef, Oid: githubv4.GitObjectID(base)}, nil)
	require.ErrorContains(t, err, "Update is not a fast forward")
	force := githubv4.Boolean(true)
	require.NoError(t, c.Mutate(ctx, &update, githubv4.UpdateRefInput{RefID: mainRef, Oid: githubv4.GitObjectID(base), Force: &force}, nil))
	oid, _ = s.BranchOID("acme/demo", "main")
	assert.Equal(t, base, oid)

	var del struct {
		DeleteRef struct{ ClientMutationID *string } `graphql:"deleteRef(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &del, githubv4.DeleteRefInput{RefID: featureID}, nil))
	_, ok := s.BranchOID("acme/demo", "feature")
	assert.False(t, ok)
	assert.Equal(t, map[string]string{"main": base}, s.Branches("acme/demo"))
}

func TestPullRequestMutations(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/demo")
	r.AddBranch("empty", "main")
	r.AddBranch("feature", "main")
	r.Commit("feature", "Feature work", githubfake.File{Path: "f.go", Content: "package f\n"})
	ctx := context.Background()
	c := client(s)
	repoID, _, _ := repoIDs(t, s)

	var create struct {
		CreatePullRequest struct {
			PullRequest struct {
				ID      string
				Number  int
				Commits struct{ TotalCount int }
				Files   struct {
					Nodes []struct {
						Path      string
						Additions int
					}
				} `graphql:"files(first: 10)"`
			}
		} `graphql:"createPullRequest(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &create, githubv4.CreatePullRequestInput{RepositoryID: repoID, BaseRefName: "main", HeadRefName: "feature", Title: "Feature"}, nil))
	pr := create.CreatePullRequest.PullRequest
	assert.Equal(t, 1, pr.Number)
	assert.Equal(t, 1, pr.Commits.TotalCount)
	require.Len(t, pr.Files.Nodes, 1)
	assert.Equal(t, "f.go", pr.Files.Nodes[0].Path)
	require.ErrorContains(t, c.Mutate(ctx, &create, githubv4.CreatePullRequestInput{RepositoryID: repoID, BaseRefName: "main", HeadRefName: "feature", Title: "Again"}, nil),
		"A pull request already exists for acme:feature.")
	require.ErrorContains(t, c.Mutate(ctx, &create, githubv4.CreatePullRequestInput{RepositoryID: repoID, BaseRefName: "main", HeadRefName: "empty", Title: "Nothing"}, nil),
		"No commits between main and empty")

	var review struct {
		AddPullRequestReview struct {
			PullRequestReview struct {
				ID       string
				State    string
				Comments struct{ TotalCount int }
			}
		} `graphql:"addPullRequestReview(input: $input)"`
	}
	event := githubv4.PullRequestReviewEventRequestChanges
	startLine, three := githubv4.Int(2), githubv4.Int(3)
	require.NoError(t, c.Mutate(ctx, &review, githubv4.AddPullRequestReviewInput{
		PullRequestID: pr.ID, Event: &event, Body: str("Please change"),
		Threads: &[]*githubv4.DraftPullRequestReviewThread{{Path: str("f.go"), Line: &three, StartLine: &startLine, Body: "here"}},
	}, nil))
	assert.Equal(t, "CHANGES_REQUESTED", review.AddPullRequestReview.PullRequestReview.State)
	assert.Equal(t, 1, review.AddPullRequestReview.PullRequestReview.Comments.TotalCount)

	var thread struct {
		AddPullRequestReviewThread struct {
			Thread struct {
				ID         string
				Line       *int
				IsResolved bool
			}
		} `graphql:"addPullRequestReviewThread(input: $input)"`
	}
	prID := githubv4.ID(pr.ID)
	line := githubv4.Int(1)
	require.NoError(t, c.Mutate(ctx, &thread, githubv4.AddPullRequestReviewThreadInput{PullRequestID: &prID, Path: str("f.go"), Line: &line, Body: "nit"}, nil))
	th := thread.AddPullRequestReviewThread.Thread
	require.NotNil(t, th.Line)
	assert.Equal(t, 1, *th.Line)

	var resolve struct {
		ResolveReviewThread struct {
			Thread struct {
				IsResolved bool
				ResolvedBy struct{ Login string }
			}
		} `graphql:"resolveReviewThread(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &resolve, githubv4.ResolveReviewThreadInput{ThreadID: th.ID}, nil))
	assert.True(t, resolve.ResolveReviewThread.Thread.IsResolved)
	assert.Equal(t, "octocat", resolve.ResolveReviewThread.Thread.ResolvedBy.Login)
	var unresolve struct {
		UnresolveReviewThread struct {
			Thread struct{ IsResolved bool }
		} `graphql:"unresolveReviewThread(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &unresolve, githubv4.UnresolveReviewThreadInput{ThreadID: th.ID}, nil))
	assert.False(t, unresolve.UnresolveReviewThread.Thread.IsResolved)

	var closePR struct {
		ClosePullRequest struct {
			PullRequest struct{ State string }
		} `graphql:"closePullRequest(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &closePR, githubv4.ClosePullRequestInput{PullRequestID: pr.ID}, nil))
	assert.Equal(t, "CLOSED", closePR.ClosePullRequest.PullRequest.State)

	snap, ok := s.PullRequest("acme/demo", 1)
	require.True(t, ok)
	assert.Equal(t, "CLOSED", snap.State)
	assert.Equal(t, "CHANGES_REQUESTED", snap.ReviewDecision)
	require.Len(t, snap.ReviewThreads, 2)
	assert.Equal(t, 3, snap.ReviewThreads[0].Line)
	assert.Equal(t, 2, snap.ReviewThreads[0].StartLine)
	assert.Equal(t, []string{"Feature work"}, snap.Commits)
	require.Len(t, snap.Reviews, 2)
}

func TestIssueAndLabelMutations(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	s.AddRepo("acme/demo")
	ctx := context.Background()
	c := client(s)
	repoID, _, _ := repoIDs(t, s)

	var label struct {
		CreateLabel struct {
			Label struct{ ID, Name, Color string }
		} `graphql:"createLabel(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &label, githubv4.CreateLabelInput{RepositoryID: repoID, Name: "bench-fixture", Color: "ededed"}, nil))
	bench := label.CreateLabel.Label.ID
	require.ErrorContains(t, c.Mutate(ctx, &label, githubv4.CreateLabelInput{RepositoryID: repoID, Name: "Bench-Fixture", Color: "000000"}, nil), "Name has already been taken")
	require.NoError(t, c.Mutate(ctx, &label, githubv4.CreateLabelInput{RepositoryID: repoID, Name: "triage", Color: "ffffff"}, nil))
	triage := label.CreateLabel.Label.ID

	var create struct {
		CreateIssue struct {
			Issue struct {
				ID     string
				Number int
				Title  string
			}
		} `graphql:"createIssue(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &create, githubv4.CreateIssueInput{RepositoryID: repoID, Title: "eval fixture", Body: str("created by fixture"), LabelIDs: &[]githubv4.ID{bench}}, nil))
	issue := create.CreateIssue.Issue
	assert.Equal(t, 1, issue.Number)

	var add struct {
		AddLabelsToLabelable struct{ ClientMutationID *string } `graphql:"addLabelsToLabelable(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &add, githubv4.AddLabelsToLabelableInput{LabelableID: issue.ID, LabelIDs: []githubv4.ID{triage, bench}}, nil))
	got, _ := s.Issue("acme/demo", 1)
	assert.Equal(t, []string{"bench-fixture", "triage"}, got.Labels)
	var remove struct {
		RemoveLabelsFromLabelable struct{ ClientMutationID *string } `graphql:"removeLabelsFromLabelable(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &remove, githubv4.RemoveLabelsFromLabelableInput{LabelableID: issue.ID, LabelIDs: []githubv4.ID{bench}}, nil))
	got, _ = s.Issue("acme/demo", 1)
	assert.Equal(t, []string{"triage"}, got.Labels)

	var comment struct {
		AddComment struct {
			CommentEdge struct {
				Node struct {
					Body   string
					Author struct{ Login string }
				}
			}
		} `graphql:"addComment(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &comment, githubv4.AddCommentInput{SubjectID: issue.ID, Body: "hello"}, nil))
	assert.Equal(t, "octocat", comment.AddComment.CommentEdge.Node.Author.Login)

	var closeIssue struct {
		CloseIssue struct {
			Issue struct{ State, StateReason string }
		} `graphql:"closeIssue(input: $input)"`
	}
	reason := githubv4.IssueClosedStateReasonNotPlanned
	require.NoError(t, c.Mutate(ctx, &closeIssue, githubv4.CloseIssueInput{IssueID: issue.ID, StateReason: &reason}, nil))
	assert.Equal(t, "CLOSED", closeIssue.CloseIssue.Issue.State)
	assert.Equal(t, "NOT_PLANNED", closeIssue.CloseIssue.Issue.StateReason)
	var reopen struct {
		ReopenIssue struct {
			Issue struct{ State string }
		} `graphql:"reopenIssue(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &reopen, githubv4.ReopenIssueInput{IssueID: issue.ID}, nil))
	assert.Equal(t, "OPEN", reopen.ReopenIssue.Issue.State)
	var update struct {
		UpdateIssue struct {
			Issue struct{ Title string }
		} `graphql:"updateIssue(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &update, githubv4.UpdateIssueInput{ID: issue.ID, Title: str("renamed")}, nil))
	assert.Equal(t, "renamed", update.UpdateIssue.Issue.Title)

	var delLabel struct {
		DeleteLabel struct{ ClientMutationID *string } `graphql:"deleteLabel(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &delLabel, githubv4.DeleteLabelInput{ID: triage}, nil))
	got, _ = s.Issue("acme/demo", 1)
	assert.Empty(t, got.Labels)
	assert.Len(t, s.Labels("acme/demo"), 1)

	var delIssue struct {
		DeleteIssue struct {
			Repository struct{ NameWithOwner string }
		} `graphql:"deleteIssue(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &delIssue, githubv4.DeleteIssueInput{IssueID: issue.ID}, nil))
	assert.Equal(t, "acme/demo", delIssue.DeleteIssue.Repository.NameWithOwner)
	_, ok := s.Issue("acme/demo", 1)
	assert.False(t, ok)
	err := c.Mutate(ctx, &closeIssue, githubv4.CloseIssueInput{IssueID: issue.ID}, nil)
	require.ErrorContains(t, err, "Could not resolve to a node with the global id of '"+issue.ID+"'")
	assert.Equal(t, 3, s.RequestCount("mutation createLabel"))
	mutations := 0
	for _, r := range s.Requests() {
		if r.Kind == "graphql" && strings.HasPrefix(r.Operation, "mutation ") {
			mutations++
		}
	}
	assert.Equal(t, 13, mutations)
}

type tokenTransport struct {
	token string
	next  http.RoundTripper
}

func (tt tokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "bearer "+tt.token)
	return tt.next.RoundTrip(r)
}

// TestSecondIdentity seeds review threads as a reviewer (a second token)
// and resolves one as the author, as the mixed-threads fixture needs.
func TestSecondIdentity(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	pr := s.AddRepo("acme/demo").AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h"})
	s.RequireToken("author-token")
	s.AddToken("reviewer-token", "review-bot")
	as := func(token string) *githubv4.Client {
		hc := s.Client()
		hc.Transport = tokenTransport{token: token, next: hc.Transport}
		return githubv4.NewEnterpriseClient(s.GraphQLURL(), hc)
	}
	ctx := context.Background()
	var who struct{ Viewer struct{ Login string } }
	require.NoError(t, as("reviewer-token").Query(ctx, &who, nil))
	assert.Equal(t, "review-bot", who.Viewer.Login)
	require.NoError(t, as("author-token").Query(ctx, &who, nil))
	assert.Equal(t, "octocat", who.Viewer.Login)
	require.Error(t, as("stranger").Query(ctx, &who, nil))

	var add struct {
		AddPullRequestReviewThread struct {
			Thread struct{ ID string }
		} `graphql:"addPullRequestReviewThread(input: $input)"`
	}
	prID := githubv4.ID(pr.ID())
	line := githubv4.Int(2)
	require.NoError(t, as("reviewer-token").Mutate(ctx, &add, githubv4.AddPullRequestReviewThreadInput{PullRequestID: &prID, Path: str("a.go"), Line: &line, Body: "fix"}, nil))
	var resolve struct {
		ResolveReviewThread struct {
			Thread struct{ IsResolved bool }
		} `graphql:"resolveReviewThread(input: $input)"`
	}
	require.NoError(t, as("author-token").Mutate(ctx, &resolve, githubv4.ResolveReviewThreadInput{ThreadID: add.AddPullRequestReviewThread.Thread.ID}, nil))
	snap, _ := s.PullRequest("acme/demo", 1)
	require.Len(t, snap.ReviewThreads, 1)
	assert.Equal(t, "review-bot", snap.ReviewThreads[0].Comments[0].Author)
	assert.Equal(t, "octocat", snap.ReviewThreads[0].ResolvedBy)
	assert.Equal(t, "review-bot", snap.Reviews[0].Author)
}

func TestMergeReopenUpdateDelete(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/demo")
	issue := r.AddIssue(githubfake.Issue{Title: "i"})
	commentID := issue.AddComment(githubfake.Comment{Body: "drop me"})
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h", Commits: []string{"one", "two"}})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "a", Line: 1, Comments: []githubfake.Comment{{Body: "x"}}})
	ctx := context.Background()
	c := client(s)

	var update struct {
		UpdatePullRequest struct {
			PullRequest struct{ Title, State string }
			Actor       struct{ Login string }
		} `graphql:"updatePullRequest(input: $input)"`
	}
	closed := githubv4.PullRequestUpdateStateClosed
	require.NoError(t, c.Mutate(ctx, &update, githubv4.UpdatePullRequestInput{PullRequestID: pr.ID(), Title: str("renamed"), State: &closed}, nil))
	assert.Equal(t, "renamed", update.UpdatePullRequest.PullRequest.Title)
	assert.Equal(t, "CLOSED", update.UpdatePullRequest.PullRequest.State)
	assert.Equal(t, "octocat", update.UpdatePullRequest.Actor.Login)

	var reopen struct {
		ReopenPullRequest struct {
			PullRequest struct{ State string }
		} `graphql:"reopenPullRequest(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &reopen, githubv4.ReopenPullRequestInput{PullRequestID: pr.ID()}, nil))
	assert.Equal(t, "OPEN", reopen.ReopenPullRequest.PullRequest.State)

	var merge struct {
		MergePullRequest struct {
			PullRequest struct {
				State   string
				Merged  bool
				Commits struct{ TotalCount int }
			}
		} `graphql:"mergePullRequest(input: $input)"`
	}
	stale := githubv4.GitObjectID("0000000000000000000000000000000000000000")
	require.ErrorContains(t, c.Mutate(ctx, &merge, githubv4.MergePullRequestInput{PullRequestID: pr.ID(), ExpectedHeadOid: &stale}, nil), "Head branch was modified")
	squash := githubv4.PullRequestMergeMethodSquash
	require.NoError(t, c.Mutate(ctx, &merge, githubv4.MergePullRequestInput{PullRequestID: pr.ID(), MergeMethod: &squash}, nil))
	assert.Equal(t, "MERGED", merge.MergePullRequest.PullRequest.State)
	assert.True(t, merge.MergePullRequest.PullRequest.Merged)
	assert.Equal(t, 2, merge.MergePullRequest.PullRequest.Commits.TotalCount, "a merged pull request keeps its commits")
	require.ErrorContains(t, c.Mutate(ctx, &reopen, githubv4.ReopenPullRequestInput{PullRequestID: pr.ID()}, nil), "is merged")
	var q struct {
		Repository struct {
			Ref struct {
				Target struct {
					Commit struct{ MessageHeadline string } `graphql:"... on Commit"`
				}
			} `graphql:"ref(qualifiedName: \"main\")"`
		} `graphql:"repository(owner: \"acme\", name: \"demo\")"`
	}
	require.NoError(t, c.Query(ctx, &q, nil))
	assert.Equal(t, "renamed (#2)", q.Repository.Ref.Target.Commit.MessageHeadline)

	var delComment struct {
		DeleteIssueComment struct{ ClientMutationID *string } `graphql:"deleteIssueComment(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &delComment, githubv4.DeleteIssueCommentInput{ID: commentID}, nil))
	got, _ := s.Issue("acme/demo", 1)
	assert.Empty(t, got.Comments)

	snap, _ := s.PullRequest("acme/demo", 2)
	require.Len(t, snap.ReviewThreads, 1)
	var delReview struct {
		DeletePullRequestReviewComment struct {
			PullRequestReview struct{ ID string }
		} `graphql:"deletePullRequestReviewComment(input: $input)"`
	}
	require.NoError(t, c.Mutate(ctx, &delReview, githubv4.DeletePullRequestReviewCommentInput{ID: snap.ReviewThreads[0].Comments[0].ID}, nil))
	snap, _ = s.PullRequest("acme/demo", 2)
	assert.Empty(t, snap.ReviewThreads, "a thread without comments is gone")
}
