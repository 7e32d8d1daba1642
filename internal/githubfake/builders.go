package githubfake

import (
	"strings"
	"time"
)

// Builders add state to a Server. They are meant for test setup: misuse
// (an unknown branch, a malformed name) fails the test that created the
// server with t.Fatalf (or panics for a server made without a test). Every
// builder method is safe for concurrent use.

// RepoBuilder adds state to one repository. Get one from Server.AddRepo,
// Server.AddRepoWith or Server.Repo.
type RepoBuilder struct {
	s *Server
	r *repo
}

// AddRepo creates the repository nameWithOwner ("owner/name") with a
// default branch "main" holding one commit, creating the owner as a user if
// needed. Adding an existing repository returns its builder.
func (s *Server) AddRepo(nameWithOwner string) *RepoBuilder {
	s.helper()
	return s.AddRepoWith(nameWithOwner, RepoOptions{})
}

// AddRepoWith is AddRepo with options.
func (s *Server) AddRepoWith(nameWithOwner string, opts RepoOptions) *RepoBuilder {
	s.helper()
	owner, name, ok := strings.Cut(nameWithOwner, "/")
	if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
		s.fatalf("githubtest: AddRepo(%q): want owner/name", nameWithOwner)
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.st.repo(owner, name); r != nil {
		return &RepoBuilder{s: s, r: r}
	}
	acct := s.st.findAccount(owner)
	if acct == nil {
		acct = s.st.newAccount(owner, cmpOr(opts.OwnerType, "User"))
	}
	return &RepoBuilder{s: s, r: s.st.newRepo(acct, name, opts)}
}

// Repo returns the builder of an existing repository, failing the test if
// there is none.
func (s *Server) Repo(nameWithOwner string) *RepoBuilder {
	s.helper()
	owner, name, _ := strings.Cut(nameWithOwner, "/")
	s.mu.RLock()
	r := s.st.repo(owner, name)
	s.mu.RUnlock()
	if r == nil {
		s.fatalf("githubtest: no repository %q", nameWithOwner)
		return nil
	}
	return &RepoBuilder{s: s, r: r}
}

// ID returns the repository's node ID.
func (b *RepoBuilder) ID() string { return b.r.id }

// NameWithOwner returns "owner/name".
func (b *RepoBuilder) NameWithOwner() string { return b.r.nameWithOwner() }

// AddLabel adds a label and returns its node ID.
func (b *RepoBuilder) AddLabel(l Label) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return b.s.st.newLabel(b.r, l).id
}

// AddBranch creates branch name at the tip of branch from and returns the
// commit oid it points at.
func (b *RepoBuilder) AddBranch(name, from string) string {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	src := b.r.branch(from)
	if src == nil {
		b.s.fatalf("githubtest: AddBranch(%q): no branch %q in %s", name, from, b.r.nameWithOwner())
		return ""
	}
	if b.r.branch(name) != nil {
		b.s.fatalf("githubtest: AddBranch(%q): branch exists in %s", name, b.r.nameWithOwner())
		return ""
	}
	b.s.st.newRef(b.r, "refs/heads/", name, src.target)
	return src.target.oid
}

// Commit adds a commit with the given message and files on top of branch,
// moves the branch to it and returns its oid. The author is the viewer.
// This is what an agent's `git push` looks like to GitHub.
func (b *RepoBuilder) Commit(branch, message string, files ...File) string {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	rf := b.r.branch(branch)
	if rf == nil {
		b.s.fatalf("githubtest: Commit: no branch %q in %s", branch, b.r.nameWithOwner())
		return ""
	}
	rf.target = b.s.st.newCommit(b.r, rf.target, message, b.s.st.viewer, toChanges(files))
	return rf.target.oid
}

func toChanges(files []File) []fileChange {
	out := make([]fileChange, len(files))
	for i, f := range files {
		out[i] = fileChange{path: f.Path, content: f.Content, deleted: f.Delete}
	}
	return out
}

// AddTag creates a lightweight tag at the tip of branch (or at a commit oid)
// and returns the commit oid.
func (b *RepoBuilder) AddTag(name, target string) string {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	c := b.resolveTarget(target)
	if c == nil {
		return ""
	}
	b.s.st.newRef(b.r, "refs/tags/", name, c)
	return c.oid
}

func (b *RepoBuilder) resolveTarget(target string) *commit {
	b.s.helper()
	if target == "" {
		target = b.r.defaultBranch
	}
	if rf := b.r.branch(target); rf != nil {
		return rf.target
	}
	if c := b.r.commits[target]; c != nil {
		return c
	}
	b.s.fatalf("githubtest: %s has no branch or commit %q", b.r.nameWithOwner(), target)
	return nil
}

// AddIssue adds an issue and returns its builder.
func (b *RepoBuilder) AddIssue(spec Issue) *IssueBuilder {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return &IssueBuilder{s: b.s, i: b.s.st.newIssue(b.r, spec)}
}

// AddPullRequest adds a pull request and returns its builder. If spec.Head
// does not exist it is created from the base branch with the commits listed
// in spec.Commits (one by default), so the pull request has commits and a
// diff like a real one.
func (b *RepoBuilder) AddPullRequest(spec PullRequest) *PullRequestBuilder {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	base := cmpOr(spec.Base, b.r.defaultBranch)
	baseRef := b.r.branch(base)
	if baseRef == nil {
		b.s.fatalf("githubtest: AddPullRequest: no base branch %q in %s", base, b.r.nameWithOwner())
		return nil
	}
	p := st.newPull(b.r, spec)
	if b.r.branch(p.headRef) == nil {
		head := st.newRef(b.r, "refs/heads/", p.headRef, baseRef.target)
		msgs := spec.Commits
		if len(msgs) == 0 {
			msgs = []string{"Update " + p.headRef}
		}
		for _, m := range msgs {
			head.target = st.newCommit(b.r, head.target, m, p.author, nil)
		}
	}
	p.lastHeadOid = p.headTip().oid
	return &PullRequestBuilder{s: b.s, p: p}
}

// PullRequest returns the builder of an existing pull request, failing the
// test if there is none.
func (b *RepoBuilder) PullRequest(number int) *PullRequestBuilder {
	b.s.helper()
	b.s.mu.RLock()
	p := b.r.pull(number)
	b.s.mu.RUnlock()
	if p == nil {
		b.s.fatalf("githubtest: %s has no pull request #%d", b.r.nameWithOwner(), number)
		return nil
	}
	return &PullRequestBuilder{s: b.s, p: p}
}

// Issue returns the builder of an existing issue, failing the test if there
// is none.
func (b *RepoBuilder) Issue(number int) *IssueBuilder {
	b.s.helper()
	b.s.mu.RLock()
	i := b.r.issue(number)
	b.s.mu.RUnlock()
	if i == nil {
		b.s.fatalf("githubtest: %s has no issue #%d", b.r.nameWithOwner(), number)
		return nil
	}
	return &IssueBuilder{s: b.s, i: i}
}

// AddRelease adds a release (and its tag, if missing) and returns the
// release's database ID.
func (b *RepoBuilder) AddRelease(spec Release) int64 {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	c := b.resolveTarget(spec.Target)
	if c == nil {
		return 0
	}
	if b.r.findRef("refs/tags/"+spec.TagName) == nil {
		st.newRef(b.r, "refs/tags/", spec.TagName, c)
	}
	id, db := st.nextID("RE")
	now := st.tick()
	rel := &release{id: id, dbID: db, tagName: spec.TagName, name: spec.Name, description: spec.Description,
		draft: spec.Draft, prerelease: spec.Prerelease, latest: spec.Latest, createdAt: now, tagCommit: c, repo: b.r}
	if !spec.Draft {
		rel.publishedAt = &now
	}
	b.r.releases = append(b.r.releases, rel)
	st.register(id, rel)
	return db
}

// AddWorkflow adds an Actions workflow and returns its ID.
func (b *RepoBuilder) AddWorkflow(spec Workflow) int64 {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	id, db := b.s.st.nextID("W")
	w := &workflow{id: db, nodeID: id, name: spec.Name, path: spec.Path, state: cmpOr(spec.State, "active"), createdAt: b.s.st.tick(), repo: b.r}
	b.r.workflows = append(b.r.workflows, w)
	return db
}

// AddWorkflowRun adds a run of an existing workflow, with its jobs (and
// their logs) and artifacts, and returns the run as stored: spec with the
// IDs of the run, its jobs and its artifacts filled in.
func (b *RepoBuilder) AddWorkflowRun(spec WorkflowRun) WorkflowRun {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	var wf *workflow
	for _, w := range b.r.workflows {
		if w.id == spec.WorkflowID {
			wf = w
		}
	}
	if wf == nil {
		b.s.fatalf("githubtest: AddWorkflowRun: %s has no workflow %d", b.r.nameWithOwner(), spec.WorkflowID)
		return spec
	}
	branch := cmpOr(spec.HeadBranch, b.r.defaultBranch)
	sha := spec.HeadSHA
	if sha == "" {
		if rf := b.r.branch(branch); rf != nil {
			sha = rf.target.oid
		}
	}
	status := cmpOr(spec.Status, "completed")
	conclusion := spec.Conclusion
	if conclusion == "" && status == "completed" {
		conclusion = "success"
	}
	nodeID, db := st.nextID("WFR")
	now := st.tick()
	run := &workflowRun{id: db, nodeID: nodeID, workflow: wf, headBranch: branch, headSha: sha, event: cmpOr(spec.Event, "push"),
		status: status, conclusion: conclusion, createdAt: now, updatedAt: now, startedAt: now, attempt: max(spec.Attempt, 1), repo: b.r}
	run.runNumber = len(b.r.runs) + 1
	spec.ID, spec.HeadBranch, spec.HeadSHA, spec.Status, spec.Conclusion, spec.Attempt = db, branch, sha, status, conclusion, run.attempt
	spec.Event = run.event
	spec.Jobs = append([]Job(nil), spec.Jobs...)
	spec.Artifacts = append([]Artifact(nil), spec.Artifacts...)
	for i, j := range spec.Jobs {
		jid, jdb := st.nextID("CR")
		jb := &job{id: jdb, nodeID: jid, name: j.Name, status: cmpOr(j.Status, status), conclusion: cmpOr(j.Conclusion, conclusion), startedAt: now, log: j.Log, run: run}
		if jb.status == "completed" {
			done := now.Add(time.Minute)
			jb.completedAt = &done
		}
		run.jobs = append(run.jobs, jb)
		st.jobs[jdb] = jb
		spec.Jobs[i].ID, spec.Jobs[i].Status, spec.Jobs[i].Conclusion = jdb, jb.status, jb.conclusion
	}
	for i, a := range spec.Artifacts {
		aid, adb := st.nextID("AR")
		spec.Artifacts[i].ID = adb
		run.artifacts = append(run.artifacts, &artifact{id: adb, nodeID: aid, name: a.Name, size: a.SizeInBytes, expired: a.Expired, createdAt: now, run: run})
	}
	b.r.runs = append(b.r.runs, run)
	return spec
}

// IssueBuilder adds state to one issue.
type IssueBuilder struct {
	s *Server
	i *issue
}

// Number returns the issue number.
func (b *IssueBuilder) Number() int { return b.i.number }

// ID returns the issue's node ID.
func (b *IssueBuilder) ID() string { return b.i.id }

// AddComment adds a comment and returns its node ID.
func (b *IssueBuilder) AddComment(c Comment) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	cm := b.s.st.newComment(b.i.url(), c)
	b.i.comments = append(b.i.comments, cm)
	return cm.id
}

// AddSubIssue makes issue number (same repository) a sub-issue of this one.
func (b *IssueBuilder) AddSubIssue(number int) *IssueBuilder {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	child := b.i.repo.issue(number)
	if child == nil {
		b.s.fatalf("githubtest: AddSubIssue: no issue #%d", number)
		return b
	}
	if child.parent != nil {
		b.s.fatalf("githubtest: AddSubIssue: issue #%d already has a parent", number)
		return b
	}
	child.parent = b.i
	b.i.subIssues = append(b.i.subIssues, child)
	return b
}

// AddBlockedBy records that this issue is blocked by issue number (same
// repository).
func (b *IssueBuilder) AddBlockedBy(number int) *IssueBuilder {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	blocker := b.i.repo.issue(number)
	if blocker == nil {
		b.s.fatalf("githubtest: AddBlockedBy: no issue #%d", number)
		return b
	}
	b.i.blockedBy = append(b.i.blockedBy, blocker)
	return b
}

// LinkPullRequest links pull request number (same repository) to this issue,
// as a closing reference or the Development sidebar does.
func (b *IssueBuilder) LinkPullRequest(number int) *IssueBuilder {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	p := b.i.repo.pull(number)
	if p == nil {
		b.s.fatalf("githubtest: LinkPullRequest: no pull request #%d", number)
		return b
	}
	b.i.closedBy = append(b.i.closedBy, p)
	return b
}

// PullRequestBuilder adds state to one pull request.
type PullRequestBuilder struct {
	s *Server
	p *pull
}

// Number returns the pull request number.
func (b *PullRequestBuilder) Number() int { return b.p.number }

// ID returns the pull request's node ID.
func (b *PullRequestBuilder) ID() string { return b.p.id }

// HeadBranch returns the name of the head branch.
func (b *PullRequestBuilder) HeadBranch() string { return b.p.headRef }

// HeadOID returns the current head commit oid.
func (b *PullRequestBuilder) HeadOID() string {
	b.s.mu.RLock()
	defer b.s.mu.RUnlock()
	if c := b.p.headTip(); c != nil {
		return c.oid
	}
	return b.p.lastHeadOid
}

// AddCommit pushes a commit to the head branch and returns its oid.
func (b *PullRequestBuilder) AddCommit(message string, files ...File) string {
	b.s.helper()
	return (&RepoBuilder{s: b.s, r: b.p.repo}).Commit(b.p.headRef, message, files...)
}

// AddComment adds a conversation comment and returns its node ID.
func (b *PullRequestBuilder) AddComment(c Comment) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	cm := b.s.st.newComment(b.p.url(), c)
	b.p.comments = append(b.p.comments, cm)
	return cm.id
}

// AddReview adds a submitted review (no threads) and returns its node ID.
func (b *PullRequestBuilder) AddReview(r Review) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return b.s.st.newReview(b.p, r).id
}

// AddReviewThread adds a review thread, inside a new COMMENTED review by the
// first comment's author, and returns the thread's node ID.
func (b *PullRequestBuilder) AddReviewThread(t ReviewThread) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	return b.s.st.newThread(b.p, nil, t).id
}

// AddCheckRun adds a check run to the current head commit and returns its
// node ID.
func (b *PullRequestBuilder) AddCheckRun(c CheckRun) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	head := b.p.headTip()
	id, db := st.nextID("CR")
	now := st.tick()
	cr := &checkRun{id: id, dbID: db, name: c.Name, status: cmpOr(c.Status, "COMPLETED"), conclusion: c.Conclusion,
		detailsURL: c.DetailsURL, workflowName: c.Workflow, startedAt: &now, repo: b.p.repo}
	if cr.status == "COMPLETED" {
		cr.conclusion = cmpOr(cr.conclusion, "SUCCESS")
		cr.completedAt = &now
	}
	for _, a := range c.Annotations {
		a := a
		cr.annotations = append(cr.annotations, &annotation{path: a.Path, startLine: a.StartLine, endLine: max(a.EndLine, a.StartLine), level: a.Level, message: a.Message, title: a.Title})
	}
	head.checkRuns = append(head.checkRuns, cr)
	st.register(id, cr)
	return id
}

// AddStatus adds a commit status to the current head commit.
func (b *PullRequestBuilder) AddStatus(s StatusContext) {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	id, _ := st.nextID("SC")
	sc := &statusContext{id: id, context: s.Context, state: cmpOr(s.State, "SUCCESS"), targetURL: s.TargetURL, description: s.Description, createdAt: st.tick()}
	head := b.p.headTip()
	head.statuses = append(head.statuses, sc)
	st.register(id, sc)
}

// OwnerBuilder adds state to a user or organisation account.
type OwnerBuilder struct {
	s *Server
	a *account
}

// AddOrganization creates an organisation account (or returns the existing
// one). Create it before AddRepo to own repositories as an organisation.
func (s *Server) AddOrganization(login string) *OwnerBuilder {
	return s.addAccount(login, "Organization")
}

// AddUser creates a user account (or returns the existing one).
func (s *Server) AddUser(login string) *OwnerBuilder {
	return s.addAccount(login, "User")
}

func (s *Server) addAccount(login, kind string) *OwnerBuilder {
	s.helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.st.findAccount(login)
	if a == nil {
		a = s.st.newAccount(login, kind)
	} else if a.kind != kind {
		s.fatalf("githubtest: account %q exists as a %s", login, a.kind)
	}
	return &OwnerBuilder{s: s, a: a}
}

// AddIssueType adds an issue type to an organisation and returns its node ID.
func (b *OwnerBuilder) AddIssueType(t IssueType) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	id, db := b.s.st.nextID("IT")
	b.a.issueTypes = append(b.a.issueTypes, &issueType{id: id, dbID: db, name: t.Name, color: cmpOr(t.Color, "gray"), description: t.Description, enabled: !t.Disabled})
	return id
}

// AddProject adds a Projects (v2) board, numbered from 1 per owner, and
// returns its builder.
func (b *OwnerBuilder) AddProject(p Project) *ProjectBuilder {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	st := b.s.st
	id, _ := st.nextID("PVT")
	pr := &project{id: id, number: len(b.a.projects) + 1, title: p.Title, shortDescription: p.ShortDescription, public: p.Public, closed: p.Closed, owner: b.a}
	// Every project has GitHub's built-in Title field first.
	fields := append([]ProjectField{{Name: "Title", DataType: "TITLE"}}, p.Fields...)
	for _, f := range fields {
		fid, _ := st.nextID("PVTF")
		pf := &projectField{id: fid, name: f.Name, dataType: cmpOr(f.DataType, "TEXT")}
		for _, o := range f.Options {
			oid, _ := st.nextID("PVTSSO")
			pf.options = append(pf.options, &projectOption{id: oid, name: o})
		}
		pr.fields = append(pr.fields, pf)
		st.register(fid, pf)
	}
	b.a.projects = append(b.a.projects, pr)
	st.register(id, pr)
	return &ProjectBuilder{s: b.s, p: pr}
}

// ProjectBuilder adds items to a project.
type ProjectBuilder struct {
	s *Server
	p *project
}

// Number returns the project number.
func (b *ProjectBuilder) Number() int { return b.p.number }

// AddIssue adds issue number of repository nameWithOwner as an item and
// returns the item's node ID.
func (b *ProjectBuilder) AddIssue(nameWithOwner string, number int) string {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	owner, name, _ := strings.Cut(nameWithOwner, "/")
	r := b.s.st.repo(owner, name)
	if r == nil || r.issue(number) == nil {
		b.s.fatalf("githubtest: ProjectBuilder.AddIssue: no issue %s#%d", nameWithOwner, number)
		return ""
	}
	return b.addItem("ISSUE", r.issue(number))
}

// AddPullRequest adds pull request number of repository nameWithOwner as an
// item and returns the item's node ID.
func (b *ProjectBuilder) AddPullRequest(nameWithOwner string, number int) string {
	b.s.helper()
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	owner, name, _ := strings.Cut(nameWithOwner, "/")
	r := b.s.st.repo(owner, name)
	if r == nil || r.pull(number) == nil {
		b.s.fatalf("githubtest: ProjectBuilder.AddPullRequest: no pull request %s#%d", nameWithOwner, number)
		return ""
	}
	return b.addItem("PULL_REQUEST", r.pull(number))
}

// AddDraft adds a draft issue item and returns the item's node ID.
func (b *ProjectBuilder) AddDraft(title, body string) string {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	id, _ := b.s.st.nextID("DI")
	d := &draftIssue{id: id, title: title, body: body}
	b.s.st.register(id, d)
	return b.addItem("DRAFT_ISSUE", d)
}

func (b *ProjectBuilder) addItem(typ string, content any) string {
	id, _ := b.s.st.nextID("PVTI")
	it := &projectItem{id: id, typ: typ, content: content}
	b.p.items = append(b.p.items, it)
	b.s.st.register(id, it)
	return id
}
