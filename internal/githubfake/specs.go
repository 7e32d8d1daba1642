package githubfake

// The types in this file describe state: builders take them as input and
// accessors return them as snapshots. Fields documented as "set by the
// server" are ignored on input and filled in on output.

// RepoOptions configures a repository created with Server.AddRepoWith.
type RepoOptions struct {
	Private     bool
	Description string
	Stars       int
	Forks       int
	// DefaultBranch is the name of the default branch; "main" if empty.
	DefaultBranch string
	// OwnerType is "User" (the default) or "Organization"; it applies when
	// the owner account does not exist yet.
	OwnerType string
}

// Label is a repository label.
type Label struct {
	ID          string // set by the server
	Name        string
	Color       string // six hex digits without '#'; "ededed" if empty
	Description string
	IsDefault   bool
}

// Comment is an issue or pull request comment, or one comment of a review
// thread.
type Comment struct {
	ID     string // set by the server
	Author string // login; the viewer if empty
	Body   string
}

// Issue is a repository issue.
type Issue struct {
	ID     string // set by the server
	Number int    // set by the server; issues and pull requests share numbers
	Title  string
	Body   string
	Author string // login; the viewer if empty
	// State is "OPEN" (the default) or "CLOSED".
	State string
	// StateReason is COMPLETED, NOT_PLANNED, DUPLICATE or REOPENED; closed
	// issues default to COMPLETED.
	StateReason string
	// Labels names existing labels of the repository (created if missing).
	Labels   []string
	Comments []Comment
}

// File is one file written by a commit.
type File struct {
	Path    string
	Content string
	// Delete removes the file instead of writing it.
	Delete bool
}

// ChangedFile is a file in a pull request's diff, given explicitly (files
// written by the pull request's commits are added automatically).
type ChangedFile struct {
	Path       string
	Additions  int
	Deletions  int
	ChangeType string // ADDED, MODIFIED (default), DELETED, RENAMED, COPIED, CHANGED
	// Patch is the unified-diff hunk text served by the diff endpoint,
	// starting at "@@".
	Patch string
}

// PullRequest is a repository pull request.
type PullRequest struct {
	ID     string // set by the server
	Number int    // set by the server
	Title  string
	Body   string
	Author string // login; the viewer if empty
	// Head is the head branch; "pr-branch-N" if empty. When the branch does
	// not exist it is created from Base with one commit per entry of
	// Commits.
	Head string
	// Base is the base branch; the repository's default branch if empty.
	Base string
	// State is OPEN (the default), CLOSED or MERGED.
	State string
	Draft bool
	// Labels names labels of the repository (created if missing).
	Labels []string
	// Commits are the messages of the commits made on a new Head branch;
	// one commit, "Update <head>", if empty. In snapshots it lists the
	// messages of the pull request's commits, oldest first.
	Commits []string
	Files   []ChangedFile
	// Mergeable is MERGEABLE (the default), CONFLICTING or UNKNOWN.
	Mergeable string
	// MergeStateStatus is CLEAN (the default), BLOCKED, BEHIND, DIRTY,
	// DRAFT, HAS_HOOKS, UNKNOWN or UNSTABLE.
	MergeStateStatus string
	// ReviewDecision is APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED or
	// empty (null).
	ReviewDecision string

	// CommitOIDs lists the pull request's commits, oldest first. Set by the
	// server.
	CommitOIDs []string
	// Reviews, ReviewThreads and Comments are set by the server (in
	// snapshots; builders add them with AddReview, AddReviewThread and
	// AddComment).
	Reviews       []Review
	ReviewThreads []ReviewThread
	Comments      []Comment
}

// Review is a pull request review.
type Review struct {
	ID     string // set by the server
	Author string // login; the viewer if empty
	Body   string
	// State is COMMENTED (the default), APPROVED, CHANGES_REQUESTED,
	// DISMISSED or PENDING.
	State string
	// CommitOID is the reviewed commit; the head commit if empty.
	CommitOID string
}

// ReviewThread is a review thread on a pull request: comments on one line
// (or a range, or the whole file) of the diff.
type ReviewThread struct {
	ID   string // set by the server
	Path string
	// Line is the (last) line the thread is on; 0 means a file-level thread.
	Line int
	// StartLine is the first line of a multi-line thread, or 0.
	StartLine int
	// Side and StartSide are LEFT or RIGHT (the default).
	Side      string
	StartSide string
	// SubjectType is LINE (the default) or FILE.
	SubjectType string
	Resolved    bool
	// ResolvedBy is the login that resolved the thread; the viewer if empty
	// and Resolved is set.
	ResolvedBy string
	Outdated   bool
	// Comments are the thread's comments; a thread needs at least one.
	Comments []Comment
}

// CheckRun is a check run on a commit (for example one GitHub Actions job).
type CheckRun struct {
	Name string
	// Status is QUEUED, IN_PROGRESS or COMPLETED (the default).
	Status string
	// Conclusion is SUCCESS (the default for completed runs), FAILURE,
	// NEUTRAL, CANCELLED, SKIPPED, TIMED_OUT or ACTION_REQUIRED.
	Conclusion  string
	DetailsURL  string
	Workflow    string // the workflow name, for Actions check runs
	Annotations []Annotation
}

// Annotation is a check run annotation.
type Annotation struct {
	Path      string
	StartLine int
	EndLine   int
	Level     string // NOTICE, WARNING or FAILURE
	Message   string
	Title     string
}

// StatusContext is a commit status (the older statuses API).
type StatusContext struct {
	Context     string
	State       string // SUCCESS, FAILURE, ERROR, PENDING or EXPECTED
	TargetURL   string
	Description string
}

// Release is a repository release.
type Release struct {
	ID          string // set by the server
	DatabaseID  int64  // set by the server
	TagName     string
	Name        string
	Description string
	Draft       bool
	Prerelease  bool
	Latest      bool
	// Target is the branch name or commit oid the tag points at; the default
	// branch if empty.
	Target string
}

// Workflow is a GitHub Actions workflow (served over REST).
type Workflow struct {
	ID    int64 // set by the server
	Name  string
	Path  string // e.g. .github/workflows/ci.yml
	State string // active (the default), disabled_manually, ...
}

// WorkflowRun is a GitHub Actions workflow run (served over REST).
type WorkflowRun struct {
	ID int64 // set by the server
	// WorkflowID is the run's workflow (see RepoBuilder.AddWorkflow).
	WorkflowID int64
	HeadBranch string
	// HeadSHA is the commit; the tip of HeadBranch if empty.
	HeadSHA string
	Event   string // push (the default), pull_request, ...
	// Status is queued, in_progress or completed (the default).
	Status string
	// Conclusion is success (the default for completed runs), failure, ...
	Conclusion string
	Attempt    int // 1 if zero
	Jobs       []Job
	Artifacts  []Artifact
}

// Job is a job of a workflow run, with its log.
type Job struct {
	ID         int64 // set by the server
	Name       string
	Status     string // defaults to the run's status
	Conclusion string // defaults to the run's conclusion
	Log        string
}

// Artifact is an artifact uploaded by a workflow run.
type Artifact struct {
	ID          int64 // set by the server
	Name        string
	SizeInBytes int64
	Expired     bool
}

// IssueType is an organisation's issue type (served over REST).
type IssueType struct {
	ID          string // set by the server
	Name        string
	Color       string
	Description string
	Disabled    bool
}

// Project is a Projects (v2) board owned by a user or an organisation.
type Project struct {
	ID               string // set by the server
	Number           int    // set by the server
	Title            string
	ShortDescription string
	Public           bool
	Closed           bool
	Fields           []ProjectField
}

// ProjectField is a field of a project.
type ProjectField struct {
	ID   string // set by the server
	Name string
	// DataType is TEXT (the default), NUMBER, DATE, SINGLE_SELECT,
	// ITERATION, ASSIGNEES, LABELS, ...
	DataType string
	// Options are the choices of a SINGLE_SELECT field.
	Options []string
}
