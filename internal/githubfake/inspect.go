package githubfake

import "strings"

// Accessors return snapshots of the model: copies that later changes do not
// affect. They are how a test checks what a client (or an agent) did.

func (s *Server) findRepo(nameWithOwner string) *repo {
	owner, name, _ := strings.Cut(nameWithOwner, "/")
	return s.st.repo(owner, name)
}

// Issue returns a snapshot of issue number in repository nameWithOwner.
func (s *Server) Issue(nameWithOwner string, number int) (Issue, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil || r.issue(number) == nil {
		return Issue{}, false
	}
	return issueSnapshot(r.issue(number)), true
}

// Issues returns snapshots of every issue of repository nameWithOwner, in
// creation order.
func (s *Server) Issues(nameWithOwner string) []Issue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil {
		return nil
	}
	out := make([]Issue, len(r.issues))
	for i, is := range r.issues {
		out[i] = issueSnapshot(is)
	}
	return out
}

func issueSnapshot(i *issue) Issue {
	return Issue{
		ID: i.id, Number: i.number, Title: i.title, Body: i.body, Author: i.author, State: i.state,
		StateReason: i.stateReason, Labels: labelNames(i.labels), Comments: commentSnapshots(i.comments),
	}
}

func labelNames(ls []*label) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.name
	}
	return out
}

func commentSnapshots(cs []*comment) []Comment {
	out := make([]Comment, len(cs))
	for i, c := range cs {
		out[i] = Comment{ID: c.id, Author: c.author, Body: c.body}
	}
	return out
}

// PullRequest returns a snapshot of pull request number in repository
// nameWithOwner, including its commits, reviews, review threads and
// comments.
func (s *Server) PullRequest(nameWithOwner string, number int) (PullRequest, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil || r.pull(number) == nil {
		return PullRequest{}, false
	}
	return pullSnapshot(r.pull(number)), true
}

// PullRequests returns snapshots of every pull request of repository
// nameWithOwner, in creation order.
func (s *Server) PullRequests(nameWithOwner string) []PullRequest {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil {
		return nil
	}
	out := make([]PullRequest, len(r.pulls))
	for i, p := range r.pulls {
		out[i] = pullSnapshot(p)
	}
	return out
}

func pullSnapshot(p *pull) PullRequest {
	out := PullRequest{
		ID: p.id, Number: p.number, Title: p.title, Body: p.body, Author: p.author, Head: p.headRef, Base: p.baseRef,
		State: p.state, Draft: p.isDraft, Labels: labelNames(p.labels), Mergeable: p.mergeable,
		MergeStateStatus: p.mergeStateStatus, ReviewDecision: p.reviewDecision, Comments: commentSnapshots(p.comments),
	}
	for _, c := range p.commitList() {
		out.CommitOIDs = append(out.CommitOIDs, c.oid)
		out.Commits = append(out.Commits, c.message)
	}
	for _, f := range p.changedFiles() {
		out.Files = append(out.Files, ChangedFile{Path: f.path, Additions: f.additions, Deletions: f.deletions, ChangeType: f.changeType, Patch: f.patch})
	}
	for _, rv := range p.reviews {
		out.Reviews = append(out.Reviews, Review{ID: rv.id, Author: rv.author, Body: rv.body, State: rv.state, CommitOID: rv.commitOid})
	}
	for _, t := range p.threads {
		snap := ReviewThread{ID: t.id, Path: t.path, Side: t.diffSide, SubjectType: t.subjectType, Resolved: t.resolved, ResolvedBy: t.resolvedBy, Outdated: t.outdated}
		if t.originalLine != nil {
			snap.Line = *t.originalLine
		}
		if t.startLine != nil {
			snap.StartLine = *t.startLine
			snap.StartSide = t.startDiffSide
		}
		for _, c := range t.comments {
			snap.Comments = append(snap.Comments, Comment{ID: c.id, Author: c.author, Body: c.body})
		}
		out.ReviewThreads = append(out.ReviewThreads, snap)
	}
	return out
}

// BranchOID returns the commit oid branch points at in repository
// nameWithOwner.
func (s *Server) BranchOID(nameWithOwner, branch string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil || r.branch(branch) == nil {
		return "", false
	}
	return r.branch(branch).target.oid, true
}

// Branches returns the branches of repository nameWithOwner and the commit
// oid each points at.
func (s *Server) Branches(nameWithOwner string) map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil {
		return nil
	}
	out := map[string]string{}
	for _, rf := range r.refs {
		if rf.prefix == "refs/heads/" {
			out[rf.name] = rf.target.oid
		}
	}
	return out
}

// Labels returns the labels of repository nameWithOwner.
func (s *Server) Labels(nameWithOwner string) []Label {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.findRepo(nameWithOwner)
	if r == nil {
		return nil
	}
	out := make([]Label, len(r.labels))
	for i, l := range r.labels {
		out[i] = Label{ID: l.id, Name: l.name, Color: l.color, Description: l.description, IsDefault: l.isDefault}
	}
	return out
}
