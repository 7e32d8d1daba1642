package githubfake

import (
	"fmt"
	"slices"
	"strings"
)

// This file holds the model constructors shared by builders and mutations.
// Callers hold the write lock.

func (st *state) newRepo(owner *account, name string, opts RepoOptions) *repo {
	id, db := st.nextID("R")
	r := &repo{
		id: id, dbID: db, owner: owner, name: name, description: opts.Description,
		private: opts.Private, stars: opts.Stars, forks: opts.Forks, createdAt: st.tick(),
		defaultBranch: cmpOr(opts.DefaultBranch, "main"), commits: map[string]*commit{},
	}
	st.repos[strings.ToLower(r.nameWithOwner())] = r
	st.register(id, r)
	root := st.newCommit(r, nil, "Initial commit", owner.login, []fileChange{{path: "README.md", content: "# " + name + "\n"}})
	st.newRef(r, "refs/heads/", r.defaultBranch, root)
	return r
}

func (st *state) newRef(r *repo, prefix, name string, target *commit) *ref {
	id, _ := st.nextID("REF")
	rf := &ref{id: id, name: name, prefix: prefix, target: target, repo: r}
	r.refs = append(r.refs, rf)
	st.register(id, rf)
	return rf
}

func (st *state) newLabel(r *repo, l Label) *label {
	id, _ := st.nextID("LA")
	lb := &label{id: id, name: l.Name, color: cmpOr(strings.TrimPrefix(l.Color, "#"), "ededed"), description: l.Description, isDefault: l.IsDefault, createdAt: st.tick(), repo: r}
	r.labels = append(r.labels, lb)
	st.register(id, lb)
	return lb
}

// labelsByName finds labels by name, creating missing ones.
func (st *state) labelsByName(r *repo, names []string) []*label {
	var out []*label
	for _, n := range names {
		l := r.label(n)
		if l == nil {
			l = st.newLabel(r, Label{Name: n})
		}
		out = append(out, l)
	}
	return out
}

func (st *state) newComment(parentURL string, c Comment) *comment {
	id, db := st.nextID("IC")
	author := cmpOr(c.Author, st.viewer)
	st.ensureAccount(author)
	cm := &comment{id: id, dbID: db, body: c.Body, author: author, createdAt: st.tick(), url: commentURL(parentURL, db)}
	st.register(id, cm)
	return cm
}

func (st *state) newIssue(r *repo, spec Issue) *issue {
	id, db := st.nextID("I")
	author := cmpOr(spec.Author, st.viewer)
	st.ensureAccount(author)
	now := st.tick()
	i := &issue{
		id: id, dbID: db, number: r.nextNumber(), title: spec.Title, body: spec.Body, state: "OPEN",
		author: author, createdAt: now, updatedAt: now, repo: r,
	}
	i.labels = st.labelsByName(r, spec.Labels)
	if spec.State == "CLOSED" {
		i.state, i.stateReason, i.closedAt = "CLOSED", cmpOr(spec.StateReason, "COMPLETED"), &now
	} else if spec.StateReason != "" {
		i.stateReason = spec.StateReason
	}
	for _, c := range spec.Comments {
		i.comments = append(i.comments, st.newComment(i.url(), c))
	}
	r.issues = append(r.issues, i)
	st.register(id, i)
	return i
}

func (st *state) newPull(r *repo, spec PullRequest) *pull {
	id, db := st.nextID("PR")
	author := cmpOr(spec.Author, st.viewer)
	st.ensureAccount(author)
	now := st.tick()
	p := &pull{
		id: id, dbID: db, number: r.nextNumber(), title: spec.Title, body: spec.Body, state: "OPEN",
		isDraft: spec.Draft, author: author, headRef: spec.Head, baseRef: cmpOr(spec.Base, r.defaultBranch),
		createdAt: now, updatedAt: now, repo: r,
		mergeable: cmpOr(spec.Mergeable, "MERGEABLE"), mergeStateStatus: cmpOr(spec.MergeStateStatus, "CLEAN"),
		reviewDecision: spec.ReviewDecision,
	}
	if p.headRef == "" {
		p.headRef = fmt.Sprintf("pr-branch-%d", p.number)
	}
	if spec.Draft && spec.MergeStateStatus == "" {
		p.mergeStateStatus = "DRAFT"
	}
	switch spec.State {
	case "CLOSED":
		p.state, p.closedAt = "CLOSED", &now
	case "MERGED":
		p.state, p.closedAt, p.mergedAt = "MERGED", &now, &now
	}
	p.labels = st.labelsByName(r, spec.Labels)
	for _, f := range spec.Files {
		p.files = append(p.files, &changedFile{path: f.Path, additions: f.Additions, deletions: f.Deletions, changeType: f.ChangeType, patch: f.Patch})
	}
	if tip := p.headTip(); tip != nil {
		p.lastHeadOid = tip.oid
	}
	r.pulls = append(r.pulls, p)
	st.register(id, p)
	return p
}

func (st *state) removePull(p *pull) {
	r := p.repo
	r.pulls = slices.DeleteFunc(r.pulls, func(x *pull) bool { return x == p })
	if r.lastNumber == p.number {
		r.lastNumber--
	}
	delete(st.nodes, p.id)
}

func (st *state) newReview(p *pull, spec Review) *review {
	id, db := st.nextID("PRR")
	author := cmpOr(spec.Author, st.viewer)
	st.ensureAccount(author)
	now := st.tick()
	rv := &review{id: id, dbID: db, author: author, body: spec.Body, state: cmpOr(spec.State, "COMMENTED"), createdAt: now, pull: p, commitOid: spec.CommitOID}
	if rv.commitOid == "" {
		if tip := p.headTip(); tip != nil {
			rv.commitOid = tip.oid
		}
	}
	if rv.state != "PENDING" {
		rv.submittedAt = &now
	}
	p.reviews = append(p.reviews, rv)
	p.updatedAt = now
	st.register(id, rv)
	return rv
}

// newThread adds a review thread to p. Its comments belong to rv, or to a
// new COMMENTED review by the first comment's author when rv is nil.
func (st *state) newThread(p *pull, rv *review, spec ReviewThread) *thread {
	if len(spec.Comments) == 0 {
		spec.Comments = []Comment{{Body: ""}}
	}
	if rv == nil {
		rv = st.newReview(p, Review{Author: spec.Comments[0].Author, State: "COMMENTED"})
	}
	id, _ := st.nextID("PRRT")
	t := &thread{
		id: id, path: spec.Path, diffSide: cmpOr(spec.Side, "RIGHT"), startDiffSide: cmpOr(spec.StartSide, "RIGHT"),
		subjectType: cmpOr(spec.SubjectType, "LINE"), resolved: spec.Resolved, outdated: spec.Outdated, pull: p,
	}
	if spec.Line > 0 {
		line := spec.Line
		t.line, t.originalLine = &line, &line
	} else if spec.SubjectType == "" {
		t.subjectType = "FILE"
	}
	if spec.StartLine > 0 {
		sl := spec.StartLine
		t.startLine = &sl
	}
	if spec.Outdated {
		t.line = nil
	}
	if spec.Resolved {
		t.resolvedBy = cmpOr(spec.ResolvedBy, st.viewer)
		st.ensureAccount(t.resolvedBy)
	}
	for _, c := range spec.Comments {
		st.addThreadComment(t, rv, c.Author, c.Body)
	}
	p.threads = append(p.threads, t)
	st.register(id, t)
	return t
}

// addThreadComment adds a comment by author (the viewer when empty) to
// thread t, as part of review rv.
func (st *state) addThreadComment(t *thread, rv *review, author, body string) *reviewComment {
	cid, db := st.nextID("PRRC")
	author = cmpOr(author, st.viewer)
	st.ensureAccount(author)
	rc := &reviewComment{id: cid, dbID: db, body: body, author: author, createdAt: st.tick(), path: t.path, line: t.line, review: rv, pull: t.pull}
	rv.comments = append(rv.comments, rc)
	t.comments = append(t.comments, rc)
	st.register(cid, rc)
	return rc
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
