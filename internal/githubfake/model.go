package githubfake

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// htmlBase is the host of the html URLs the fake reports (url fields), as
// GitHub reports them; they are never fetched.
const htmlBase = "https://github.com"

// state is the in-memory model. Every access holds Server.mu.
type state struct {
	seq      int
	clock    time.Time
	viewer   string
	apiURL   string
	accounts map[string]*account // by lower-cased login
	repos    map[string]*repo    // by lower-cased owner/name
	nodes    map[string]any      // by node ID, for node(id:) and mutations
	jobs     map[int64]*job      // by database ID, for the REST log endpoint
}

func newState() *state {
	return &state{
		clock:    time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		viewer:   "octocat",
		accounts: map[string]*account{},
		repos:    map[string]*repo{},
		nodes:    map[string]any{},
		jobs:     map[int64]*job{},
	}
}

// nextID returns a fresh node ID with GitHub's type prefix and a database ID
// from the same sequence, so both are unique across the model.
func (st *state) nextID(prefix string) (string, int64) {
	st.seq++
	return prefix + "_" + strconv.Itoa(st.seq), int64(st.seq)
}

// tick returns a deterministic timestamp that increases by one minute per
// call, so ordering by creation time is stable in tests.
func (st *state) tick() time.Time {
	st.clock = st.clock.Add(time.Minute)
	return st.clock
}

func (st *state) register(id string, obj any) { st.nodes[id] = obj }

// findAccount looks an account up without creating it; resolvers run
// under the read lock and must not change the model.
func (st *state) findAccount(login string) *account {
	if login == "" {
		return nil
	}
	return st.accounts[strings.ToLower(login)]
}

// ensureAccount returns the account for login, creating a User (or a Bot for
// logins ending in [bot]) on first use. Callers hold the write lock.
func (st *state) ensureAccount(login string) *account {
	if login == "" {
		return nil
	}
	a := st.accounts[strings.ToLower(login)]
	if a == nil {
		kind := "User"
		if strings.HasSuffix(login, "[bot]") {
			kind = "Bot"
		}
		a = st.newAccount(login, kind)
	}
	return a
}

func (st *state) newAccount(login, kind string) *account {
	prefix := map[string]string{"User": "U", "Organization": "O", "Bot": "BOT"}[kind]
	id, db := st.nextID(prefix)
	a := &account{id: id, dbID: db, login: login, name: login, kind: kind}
	st.accounts[strings.ToLower(login)] = a
	st.register(id, a)
	return a
}

func (st *state) repo(owner, name string) *repo {
	return st.repos[strings.ToLower(owner+"/"+name)]
}

type account struct {
	id         string
	dbID       int64
	login      string
	name       string
	kind       string // User, Organization or Bot
	projects   []*project
	issueTypes []*issueType
}

func (a *account) gqlType() string { return a.kind }
func (a *account) url() string     { return htmlBase + "/" + a.login }

type repo struct {
	id            string
	dbID          int64
	owner         *account
	name          string
	description   string
	private       bool
	stars, forks  int
	createdAt     time.Time
	defaultBranch string
	labels        []*label
	issues        []*issue
	pulls         []*pull
	lastNumber    int
	refs          []*ref
	commits       map[string]*commit
	releases      []*release
	workflows     []*workflow
	runs          []*workflowRun
}

func (r *repo) gqlType() string         { return "Repository" }
func (r *repo) nameWithOwner() string   { return r.owner.login + "/" + r.name }
func (r *repo) url() string             { return htmlBase + "/" + r.nameWithOwner() }
func (r *repo) nextNumber() int         { r.lastNumber++; return r.lastNumber }
func (r *repo) branch(name string) *ref { return r.findRef("refs/heads/" + name) }

func (r *repo) findRef(qualified string) *ref {
	for _, rf := range r.refs {
		if rf.qualifiedName() == qualified {
			return rf
		}
	}
	return nil
}

func (r *repo) label(name string) *label {
	for _, l := range r.labels {
		if strings.EqualFold(l.name, name) {
			return l
		}
	}
	return nil
}

func (r *repo) issue(number int) *issue {
	for _, i := range r.issues {
		if i.number == number {
			return i
		}
	}
	return nil
}

func (r *repo) pull(number int) *pull {
	for _, p := range r.pulls {
		if p.number == number {
			return p
		}
	}
	return nil
}

type ref struct {
	id     string
	name   string // short name, e.g. main
	prefix string // refs/heads/ or refs/tags/
	target *commit
	repo   *repo
}

func (r *ref) gqlType() string       { return "Ref" }
func (r *ref) qualifiedName() string { return r.prefix + r.name }

type fileChange struct {
	path    string
	content string
	deleted bool
}

type commit struct {
	id          string
	oid         string
	message     string
	authoredAt  time.Time
	authorName  string
	authorEmail string
	authorLogin string
	parents     []*commit
	repo        *repo
	changes     []fileChange
	checkRuns   []*checkRun
	statuses    []*statusContext
}

func (c *commit) gqlType() string { return "Commit" }
func (c *commit) url() string     { return c.repo.url() + "/commit/" + c.oid }

// newCommit creates a commit on top of parent (nil for a root commit).
func (st *state) newCommit(r *repo, parent *commit, message, author string, changes []fileChange) *commit {
	id, _ := st.nextID("C")
	sum := sha1.Sum([]byte(fmt.Sprintf("%s\x00%d\x00%s", r.nameWithOwner(), st.seq, message)))
	c := &commit{
		id: id, oid: hex.EncodeToString(sum[:]), message: message, authoredAt: st.tick(),
		authorName: author, authorEmail: author + "@users.noreply.github.com", authorLogin: author,
		repo: r, changes: changes,
	}
	if parent != nil {
		c.parents = []*commit{parent}
	}
	r.commits[c.oid] = c
	st.register(id, c)
	return c
}

// ancestors returns the oids reachable from c, c included.
func ancestors(c *commit) map[string]bool {
	seen := map[string]bool{}
	stack := []*commit{c}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || seen[n.oid] {
			continue
		}
		seen[n.oid] = true
		stack = append(stack, n.parents...)
	}
	return seen
}

type label struct {
	id          string
	name        string
	color       string
	description string
	isDefault   bool
	createdAt   time.Time
	repo        *repo
}

func (l *label) gqlType() string { return "Label" }

type comment struct {
	id        string
	dbID      int64
	body      string
	author    string
	createdAt time.Time
	url       string
}

func (c *comment) gqlType() string { return "IssueComment" }

type issue struct {
	id          string
	dbID        int64
	number      int
	title       string
	body        string
	state       string // OPEN or CLOSED
	stateReason string
	author      string
	labels      []*label
	comments    []*comment
	createdAt   time.Time
	updatedAt   time.Time
	closedAt    *time.Time
	parent      *issue
	subIssues   []*issue
	blockedBy   []*issue
	closedBy    []*pull
	repo        *repo
}

func (i *issue) gqlType() string { return "Issue" }
func (i *issue) url() string     { return fmt.Sprintf("%s/issues/%d", i.repo.url(), i.number) }

type changedFile struct {
	path       string
	additions  int
	deletions  int
	changeType string
	patch      string
}

type pull struct {
	id               string
	dbID             int64
	number           int
	title            string
	body             string
	state            string // OPEN, CLOSED or MERGED
	isDraft          bool
	author           string
	labels           []*label
	comments         []*comment
	headRef, baseRef string
	lastHeadOid      string    // head tip when the head branch no longer exists
	mergedList       []*commit // the commits at merge time, once merged
	createdAt        time.Time
	updatedAt        time.Time
	closedAt         *time.Time
	mergedAt         *time.Time
	reviews          []*review
	threads          []*thread
	files            []*changedFile
	mergeable        string
	mergeStateStatus string
	reviewDecision   string
	repo             *repo
}

func (p *pull) gqlType() string { return "PullRequest" }
func (p *pull) url() string     { return fmt.Sprintf("%s/pull/%d", p.repo.url(), p.number) }

func (p *pull) headTip() *commit {
	if rf := p.repo.branch(p.headRef); rf != nil {
		return rf.target
	}
	return p.repo.commits[p.lastHeadOid]
}

func (p *pull) baseTip() *commit {
	if rf := p.repo.branch(p.baseRef); rf != nil {
		return rf.target
	}
	return nil
}

// commitList is what GitHub shows as the pull request's commits: the head
// branch's first-parent history back to the first commit the base branch
// already contains, oldest first.
func (p *pull) commitList() []*commit {
	if p.mergedList != nil {
		return p.mergedList
	}
	base := map[string]bool{}
	if b := p.baseTip(); b != nil {
		base = ancestors(b)
	}
	var out []*commit
	for c := p.headTip(); c != nil && !base[c.oid]; {
		out = append(out, c)
		if len(c.parents) == 0 {
			break
		}
		c = c.parents[0]
	}
	slices.Reverse(out)
	return out
}

// changedFiles merges the files given when the pull request was built with
// the files its commits touched, in first-seen order.
func (p *pull) changedFiles() []*changedFile {
	// Copies: this runs under the read lock and must not touch the model.
	out := make([]*changedFile, 0, len(p.files))
	index := map[string]*changedFile{}
	for _, f := range p.files {
		c := *f
		out = append(out, &c)
		index[c.path] = &c
	}
	for _, c := range p.commitList() {
		for _, ch := range c.changes {
			f := index[ch.path]
			if f == nil {
				f = &changedFile{path: ch.path, changeType: "MODIFIED"}
				index[ch.path] = f
				out = append(out, f)
			}
			if ch.deleted {
				f.changeType = "DELETED"
				continue
			}
			lines := strings.Split(strings.TrimSuffix(ch.content, "\n"), "\n")
			f.additions += len(lines)
			if f.patch == "" {
				f.patch = fmt.Sprintf("@@ -0,0 +1,%d @@\n+%s\n", len(lines), strings.Join(lines, "\n+"))
			}
		}
	}
	return out
}

// diff renders the unified diff GitHub serves for application/vnd.github.diff.
func (p *pull) diff() string {
	var b strings.Builder
	for _, f := range p.changedFiles() {
		fmt.Fprintf(&b, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", f.path, f.path, f.path, f.path)
		b.WriteString(f.patch)
		if f.patch != "" && !strings.HasSuffix(f.patch, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

type review struct {
	id          string
	dbID        int64
	author      string
	body        string
	state       string
	submittedAt *time.Time
	createdAt   time.Time
	commitOid   string
	pull        *pull
	comments    []*reviewComment
}

func (r *review) gqlType() string { return "PullRequestReview" }
func (r *review) url() string     { return fmt.Sprintf("%s#pullrequestreview-%d", r.pull.url(), r.dbID) }

type thread struct {
	id            string
	path          string
	line          *int
	startLine     *int
	originalLine  *int
	diffSide      string
	startDiffSide string
	subjectType   string
	resolved      bool
	resolvedBy    string
	outdated      bool
	comments      []*reviewComment
	pull          *pull
}

func (t *thread) gqlType() string { return "PullRequestReviewThread" }

type reviewComment struct {
	id        string
	dbID      int64
	body      string
	author    string
	createdAt time.Time
	path      string
	line      *int
	review    *review
	pull      *pull
}

func (c *reviewComment) gqlType() string { return "PullRequestReviewComment" }
func (c *reviewComment) url() string {
	return fmt.Sprintf("%s#discussion_r%d", c.pull.url(), c.dbID)
}

type checkRun struct {
	id           string
	dbID         int64
	name         string
	status       string
	conclusion   string
	detailsURL   string
	startedAt    *time.Time
	completedAt  *time.Time
	workflowName string
	annotations  []*annotation
	repo         *repo
}

func (c *checkRun) gqlType() string { return "CheckRun" }

type annotation struct {
	path               string
	startLine, endLine int
	level              string
	message            string
	title              string
}

type statusContext struct {
	id          string
	context     string
	state       string
	targetURL   string
	description string
	createdAt   time.Time
}

func (s *statusContext) gqlType() string { return "StatusContext" }

type release struct {
	id          string
	dbID        int64
	tagName     string
	name        string
	description string
	draft       bool
	prerelease  bool
	latest      bool
	createdAt   time.Time
	publishedAt *time.Time
	tagCommit   *commit
	repo        *repo
}

func (r *release) gqlType() string { return "Release" }
func (r *release) url() string     { return r.repo.url() + "/releases/tag/" + r.tagName }

type workflow struct {
	id        int64
	nodeID    string
	name      string
	path      string
	state     string
	createdAt time.Time
	repo      *repo
}

type workflowRun struct {
	id         int64
	nodeID     string
	workflow   *workflow
	headBranch string
	headSha    string
	event      string
	status     string
	conclusion string
	createdAt  time.Time
	updatedAt  time.Time
	startedAt  time.Time
	attempt    int
	runNumber  int
	jobs       []*job
	artifacts  []*artifact
	repo       *repo
}

func (w *workflowRun) url() string { return fmt.Sprintf("%s/actions/runs/%d", w.repo.url(), w.id) }

type job struct {
	id          int64
	nodeID      string
	name        string
	status      string
	conclusion  string
	startedAt   time.Time
	completedAt *time.Time
	log         string
	run         *workflowRun
}

type artifact struct {
	id        int64
	nodeID    string
	name      string
	size      int64
	expired   bool
	createdAt time.Time
	run       *workflowRun
}

type issueType struct {
	id          string
	dbID        int64
	name        string
	color       string
	description string
	enabled     bool
}

type project struct {
	id               string
	number           int
	title            string
	shortDescription string
	public           bool
	closed           bool
	owner            *account
	fields           []*projectField
	items            []*projectItem
}

func (p *project) gqlType() string { return "ProjectV2" }
func (p *project) url() string {
	kind := "users"
	if p.owner.kind == "Organization" {
		kind = "orgs"
	}
	return fmt.Sprintf("%s/%s/%s/projects/%d", htmlBase, kind, p.owner.login, p.number)
}

type projectField struct {
	id       string
	name     string
	dataType string
	options  []*projectOption
}

func (f *projectField) gqlType() string {
	switch f.dataType {
	case "SINGLE_SELECT":
		return "ProjectV2SingleSelectField"
	case "ITERATION":
		return "ProjectV2IterationField"
	}
	return "ProjectV2Field"
}

type projectOption struct {
	id, name, color string
}

type projectItem struct {
	id       string
	typ      string // ISSUE, PULL_REQUEST, DRAFT_ISSUE
	content  any    // *issue, *pull or *draftIssue
	archived bool
}

func (i *projectItem) gqlType() string { return "ProjectV2Item" }

type draftIssue struct {
	id, title, body string
}

func (d *draftIssue) gqlType() string { return "DraftIssue" }
