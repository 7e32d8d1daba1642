package github_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
)

// testToken is deliberately distinctive so leak checks can search for it.
const testToken = "ghp_SECRETtestTOKEN0123456789abcdef"

// bearer adds the token like a caller's transport would.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "bearer "+b.token)
	return b.next.RoundTrip(r)
}

// syncBuffer collects log output from concurrent requests.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type env struct {
	srv  *githubfake.Server
	exec checkpoint.Executor
	logs *syncBuffer
}

// newEnv starts a fake GitHub that requires testToken and an executor that
// sends it, logging at debug level into env.logs.
func newEnv(t testing.TB, opts execOptions) *env {
	t.Helper()
	s := githubfake.NewServer(t)
	s.RequireToken(testToken)
	logs := &syncBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	c := github.NewClient(github.Config{Token: testToken, GraphQLURL: s.GraphQLURL(), Transport: s.Client().Transport,
		MaxWait: opts.MaxWait, Logger: opts.Logger})
	return &env{srv: s, exec: github.NewExecutor(c, github.ExecutorOptions{MaxPages: opts.MaxPages, DownloadClient: opts.DownloadClient}), logs: logs}
}

// execOptions are what a test varies of the client and the executor.
type execOptions struct {
	MaxPages       int
	MaxWait        time.Duration
	DownloadClient *http.Client
	Logger         *slog.Logger
}

// seeded holds what seed created, for expectations.
type seeded struct {
	runID, jobID, failJobID, workflowID, releaseID int64
	prHead                                         string
}

// seed builds the repository acme/demo (owned by the organization acme) with
// one of everything the tasks read:
//
//	#1 issue "Crash on start" (bug), 2 comments, sub-issue #2, blocked by #2,
//	   linked to PR #3
//	#2 issue "Write a regression test", closed
//	#3 PR "Fix crash" (head fix-crash, 2 commits, 1 file), 3 review threads
//	   (2 unresolved, 1 resolved), a CHANGES_REQUESTED review, checks
//	   build (success), lint (failure, 1 annotation), ci/legacy (pending)
//	release v1.0.0, workflow CI with one run (2 jobs, 1 artifact),
//	organization project 1 and user project 1.
func seed(t testing.TB, s *githubfake.Server) seeded {
	t.Helper()
	org := s.AddOrganization("acme")
	org.AddIssueType(githubfake.IssueType{Name: "Bug", Color: "red"})
	org.AddIssueType(githubfake.IssueType{Name: "Feature", Color: "blue", Disabled: true})
	s.AddUser("alice")
	r := s.AddRepoWith("acme/demo", githubfake.RepoOptions{Stars: 5, Forks: 2, Description: "demo"})
	r.AddLabel(githubfake.Label{Name: "bug", Color: "d73a4a", Description: "Something isn't working", IsDefault: true})
	r.AddLabel(githubfake.Label{Name: "enhancement", Color: "a2eeef"})

	i1 := r.AddIssue(githubfake.Issue{Title: "Crash on start", Body: "It crashes.", Author: "alice", Labels: []string{"bug"},
		Comments: []githubfake.Comment{{Author: "bob", Body: "Confirmed."}, {Author: "alice", Body: "Thanks"}}})
	r.AddIssue(githubfake.Issue{Title: "Write a regression test", State: "CLOSED"})
	i1.AddSubIssue(2).AddBlockedBy(2)

	pr := r.AddPullRequest(githubfake.PullRequest{
		Title: "Fix crash", Body: "Fixes #1", Author: "alice", Head: "fix-crash", Labels: []string{"bug"},
		Commits: []string{"Fix crash", "Add test"}, ReviewDecision: "CHANGES_REQUESTED",
		Files: []githubfake.ChangedFile{{Path: "main.go", Additions: 10, Deletions: 2, Patch: "@@ -1,2 +1,10 @@\n-old\n+new\n"}},
	})
	i1.LinkPullRequest(pr.Number())
	pr.AddReview(githubfake.Review{Author: "bob", Body: "Needs work", State: "CHANGES_REQUESTED"})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "main.go", Line: 3, Comments: []githubfake.Comment{{Author: "bob", Body: "Handle the nil case."}}})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "main.go", Line: 7, StartLine: 5, Comments: []githubfake.Comment{{Author: "bob", Body: "Rename this."}, {Author: "alice", Body: "Will do."}}})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "main.go", Line: 9, Resolved: true, ResolvedBy: "bob", Comments: []githubfake.Comment{{Author: "bob", Body: "Typo."}}})
	pr.AddCheckRun(githubfake.CheckRun{Name: "build", Workflow: "CI", DetailsURL: "https://example.test/build"})
	pr.AddCheckRun(githubfake.CheckRun{Name: "lint", Workflow: "CI", Conclusion: "FAILURE",
		Annotations: []githubfake.Annotation{{Path: "main.go", StartLine: 4, EndLine: 4, Level: "FAILURE", Message: "unused variable"}}})
	pr.AddStatus(githubfake.StatusContext{Context: "ci/legacy", State: "PENDING", TargetURL: "https://example.test/legacy"})

	relID := r.AddRelease(githubfake.Release{TagName: "v1.0.0", Name: "First", Latest: true})
	r.AddRelease(githubfake.Release{TagName: "v1.1.0-rc1", Name: "RC", Prerelease: true})

	wf := r.AddWorkflow(githubfake.Workflow{Name: "CI", Path: ".github/workflows/ci.yml"})
	r.AddWorkflow(githubfake.Workflow{Name: "Release", Path: ".github/workflows/release.yml", State: "disabled_manually"})
	run := r.AddWorkflowRun(githubfake.WorkflowRun{WorkflowID: wf, HeadBranch: "fix-crash", Event: "pull_request", Conclusion: "failure",
		Jobs: []githubfake.Job{
			{Name: "build", Conclusion: "success", Log: "compiling\nwarning: deprecated API\nok\n"},
			{Name: "test", Conclusion: "failure", Log: "running\nError: nil pointer\nerror: exit 1\nWARN flaky\n"},
		},
		Artifacts: []githubfake.Artifact{{Name: "coverage", SizeInBytes: 1234}},
	})

	proj := org.AddProject(githubfake.Project{Title: "Roadmap", ShortDescription: "Next", Public: true,
		Fields: []githubfake.ProjectField{{Name: "Status", DataType: "SINGLE_SELECT", Options: []string{"Todo", "Done"}}, {Name: "Estimate", DataType: "NUMBER"}}})
	proj.AddIssue("acme/demo", 1)
	proj.AddPullRequest("acme/demo", 3)
	proj.AddDraft("Think about it", "")
	s.AddUser("alice").AddProject(githubfake.Project{Title: "Personal"})

	return seeded{runID: run.ID, workflowID: wf, releaseID: relID, prHead: "fix-crash", jobID: run.Jobs[0].ID, failJobID: run.Jobs[1].ID}
}

// sampleInputs gives one valid input per task against the seeded state.
func sampleInputs(sd seeded) map[string]map[string]any {
	repo := func(extra ...any) map[string]any {
		m := map[string]any{"owner": "acme", "name": "demo"}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return m
	}
	return map[string]map[string]any{
		"repo.view":                   repo(),
		"repo.labels.list":            repo(),
		"repo.issue_types.list":       repo(),
		"issue.view":                  repo("issueNumber", 1),
		"issue.list":                  repo(),
		"issue.comments.list":         repo("issueNumber", 1, "first", 10),
		"issue.relations.prs.list":    repo("issueNumber", 1),
		"issue.relations.view":        repo("issueNumber", 1),
		"pr.view":                     repo("prNumber", 3),
		"pr.list":                     repo(),
		"pr.commits.list":             repo("prNumber", 3),
		"pr.diff.files":               repo("prNumber", 3),
		"pr.diff.view":                repo("prNumber", 3),
		"pr.checks.list":              repo("prNumber", 3),
		"pr.merge.status":             repo("prNumber", 3),
		"pr.reviews.list":             repo("prNumber", 3),
		"pr.threads.list":             repo("prNumber", 3),
		"pr.review_threads.list":      repo("prNumber", 3, "filter", "unresolved"),
		"workflow.list":               repo(),
		"workflow.view":               repo("workflowId", "Release"),
		"workflow.runs.list":          repo(),
		"workflow.run.view":           repo("runId", sd.runID),
		"workflow.run.artifacts.list": repo("runId", sd.runID),
		"workflow.job.logs.view":      repo("jobId", sd.failJobID),
		"workflow.job.logs.raw":       repo("jobId", sd.jobID),
		"project_v2.org.view":         {"org": "acme", "projectNumber": 1},
		"project_v2.user.view":        {"user": "alice", "projectNumber": 1},
		"project_v2.fields.list":      {"owner": "acme", "projectNumber": 1},
		"project_v2.items.list":       {"owner": "acme", "projectNumber": 1},
		"release.list":                repo(),
		"release.view":                repo("tagName", "v1.0.0"),
	}
}
