package githubfake

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
)

// mutationRoot resolves the fields of Mutation. The executor holds the write
// lock while it runs, so mutations may change the model.
type mutationRoot struct{ s *Server }

func (m mutationRoot) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	in, _ := args["input"].(map[string]any)
	if in == nil {
		in = map[string]any{}
	}
	fn, ok := m.s.mutations[field]
	if !ok {
		return nil, unserved("Mutation", field)
	}
	out, err := fn(ec.st, in)
	if err != nil {
		return nil, err
	}
	if id, ok := in["clientMutationId"].(string); ok {
		out["clientMutationId"] = id
	}
	return out, nil
}

type mutationFunc func(st *state, in map[string]any) (payload, error)

// mutationTable returns the supported mutations by field name; the schema
// generator's served list names the same fields.
func mutationTable() map[string]mutationFunc {
	return map[string]mutationFunc{
		"createRef":                       createRef,
		"updateRef":                       updateRef,
		"deleteRef":                       deleteRef,
		"createCommitOnBranch":            createCommitOnBranch,
		"createPullRequest":               createPullRequest,
		"closePullRequest":                closePullRequest,
		"reopenPullRequest":               reopenPullRequest,
		"updatePullRequest":               updatePullRequest,
		"mergePullRequest":                mergePullRequest,
		"deleteIssueComment":              deleteIssueComment,
		"deletePullRequestReviewComment":  deletePullRequestReviewComment,
		"addPullRequestReview":            addPullRequestReview,
		"addPullRequestReviewThread":      addPullRequestReviewThread,
		"addPullRequestReviewThreadReply": addPullRequestReviewThreadReply,
		"resolveReviewThread":             func(st *state, in map[string]any) (payload, error) { return setThreadResolved(st, in, true) },
		"unresolveReviewThread":           func(st *state, in map[string]any) (payload, error) { return setThreadResolved(st, in, false) },
		"createIssue":                     createIssue,
		"closeIssue":                      closeIssue,
		"reopenIssue":                     reopenIssue,
		"updateIssue":                     updateIssue,
		"deleteIssue":                     deleteIssue,
		"addComment":                      addComment,
		"createLabel":                     createLabel,
		"deleteLabel":                     deleteLabel,
		"addLabelsToLabelable":            func(st *state, in map[string]any) (payload, error) { return changeLabels(st, in, true) },
		"removeLabelsFromLabelable":       func(st *state, in map[string]any) (payload, error) { return changeLabels(st, in, false) },
	}
}

func str(in map[string]any, key string) string {
	s, _ := in[key].(string)
	return s
}

// lookup resolves a node ID to a model object of type T, with GitHub's
// NOT_FOUND error otherwise.
func lookup[T any](st *state, id string) (T, error) {
	obj, ok := st.nodes[id].(T)
	if !ok {
		var zero T
		return zero, errNotFound("Could not resolve to a node with the global id of '%s'", id)
	}
	return obj, nil
}

func createRef(st *state, in map[string]any) (payload, error) {
	r, err := lookup[*repo](st, str(in, "repositoryId"))
	if err != nil {
		return nil, err
	}
	name := str(in, "name")
	prefix, short := splitRefName(name)
	if prefix == "" {
		return nil, errUnprocessable("Reference name %q must start with refs/heads/ or refs/tags/", name)
	}
	if r.findRef(name) != nil {
		return nil, errUnprocessable("A ref named %q already exists in the repository.", name)
	}
	c := r.commits[str(in, "oid")]
	if c == nil {
		return nil, errNotFound("Could not resolve to a Commit with the oid of '%s'.", str(in, "oid"))
	}
	id, _ := st.nextID("REF")
	rf := &ref{id: id, name: short, prefix: prefix, target: c, repo: r}
	r.refs = append(r.refs, rf)
	st.register(id, rf)
	return payload{"ref": rf}, nil
}

func splitRefName(name string) (prefix, short string) {
	for _, p := range []string{"refs/heads/", "refs/tags/"} {
		if s, ok := strings.CutPrefix(name, p); ok && s != "" {
			return p, s
		}
	}
	return "", name
}

func updateRef(st *state, in map[string]any) (payload, error) {
	rf, err := lookup[*ref](st, str(in, "refId"))
	if err != nil {
		return nil, err
	}
	c := rf.repo.commits[str(in, "oid")]
	if c == nil {
		return nil, errNotFound("Could not resolve to a Commit with the oid of '%s'.", str(in, "oid"))
	}
	force, _ := in["force"].(bool)
	if !force && !ancestors(c)[rf.target.oid] {
		return nil, errUnprocessable("Update is not a fast forward")
	}
	rf.target = c
	return payload{"ref": rf}, nil
}

func deleteRef(st *state, in map[string]any) (payload, error) {
	rf, err := lookup[*ref](st, str(in, "refId"))
	if err != nil {
		return nil, err
	}
	r := rf.repo
	if rf.prefix == "refs/heads/" {
		// Pull requests keep showing their last head commit after the
		// branch is gone, as on GitHub.
		for _, p := range r.pulls {
			if p.headRef == rf.name {
				p.lastHeadOid = rf.target.oid
			}
		}
	}
	r.refs = slices.DeleteFunc(r.refs, func(x *ref) bool { return x == rf })
	delete(st.nodes, rf.id)
	return payload{}, nil
}

func createCommitOnBranch(st *state, in map[string]any) (payload, error) {
	branch, _ := in["branch"].(map[string]any)
	var rf *ref
	if id := str(branch, "id"); id != "" {
		var err error
		if rf, err = lookup[*ref](st, id); err != nil {
			return nil, err
		}
	} else {
		owner, name, _ := strings.Cut(str(branch, "repositoryNameWithOwner"), "/")
		r := st.repo(owner, name)
		if r == nil {
			return nil, errNotFound("Could not resolve to a Repository with the name '%s'.", str(branch, "repositoryNameWithOwner"))
		}
		bn := strings.TrimPrefix(str(branch, "branchName"), "refs/heads/")
		if rf = r.branch(bn); rf == nil {
			return nil, errNotFound("Could not resolve to a Ref with the name 'refs/heads/%s'.", bn)
		}
	}
	if want := str(in, "expectedHeadOid"); want != rf.target.oid {
		return nil, errUnprocessable("Expected branch to point to %q but it did not. Pull and try again.", want)
	}
	msg, _ := in["message"].(map[string]any)
	message := str(msg, "headline")
	if body := str(msg, "body"); body != "" {
		message += "\n\n" + body
	}
	var changes []fileChange
	files, _ := in["fileChanges"].(map[string]any)
	adds, _ := files["additions"].([]any)
	for _, a := range adds {
		add, _ := a.(map[string]any)
		content, err := base64.StdEncoding.DecodeString(str(add, "contents"))
		if err != nil {
			return nil, errUnprocessable("contents of %s is not valid base64", str(add, "path"))
		}
		changes = append(changes, fileChange{path: str(add, "path"), content: string(content)})
	}
	dels, _ := files["deletions"].([]any)
	for _, d := range dels {
		del, _ := d.(map[string]any)
		changes = append(changes, fileChange{path: str(del, "path"), deleted: true})
	}
	c := st.newCommit(rf.repo, rf.target, message, st.viewer, changes)
	rf.target = c
	return payload{"commit": c, "ref": rf}, nil
}

func createPullRequest(st *state, in map[string]any) (payload, error) {
	r, err := lookup[*repo](st, str(in, "repositoryId"))
	if err != nil {
		return nil, err
	}
	head, base := str(in, "headRefName"), str(in, "baseRefName")
	if r.branch(base) == nil {
		return nil, errUnprocessable("Base ref must be a branch: %s", base)
	}
	if r.branch(head) == nil {
		return nil, errUnprocessable("Head sha can't be blank, Base sha can't be blank, No commits between %s and %s, Head ref must be a branch", base, head)
	}
	for _, p := range r.pulls {
		if p.state == "OPEN" && p.headRef == head && p.baseRef == base {
			return nil, errUnprocessable("A pull request already exists for %s:%s.", r.owner.login, head)
		}
	}
	draft, _ := in["draft"].(bool)
	p := st.newPull(r, PullRequest{Title: str(in, "title"), Body: str(in, "body"), Head: head, Base: base, Draft: draft, Author: st.viewer})
	if len(p.commitList()) == 0 {
		st.removePull(p)
		return nil, errUnprocessable("No commits between %s and %s", base, head)
	}
	return payload{"pullRequest": p}, nil
}

func closePullRequest(st *state, in map[string]any) (payload, error) {
	p, err := lookup[*pull](st, str(in, "pullRequestId"))
	if err != nil {
		return nil, err
	}
	if p.state == "OPEN" {
		now := st.tick()
		p.state, p.closedAt, p.updatedAt = "CLOSED", &now, now
	}
	return payload{"pullRequest": p}, nil
}

func reopenPullRequest(st *state, in map[string]any) (payload, error) {
	p, err := lookup[*pull](st, str(in, "pullRequestId"))
	if err != nil {
		return nil, err
	}
	switch {
	case p.state == "MERGED":
		return nil, errUnprocessable("Pull request #%d is merged and cannot be reopened.", p.number)
	case p.repo.branch(p.headRef) == nil:
		return nil, errUnprocessable("Could not open the pull request: the head branch %s no longer exists.", p.headRef)
	case p.state == "CLOSED":
		p.state, p.closedAt, p.updatedAt = "OPEN", nil, st.tick()
	}
	return payload{"pullRequest": p}, nil
}

func updatePullRequest(st *state, in map[string]any) (payload, error) {
	p, err := lookup[*pull](st, str(in, "pullRequestId"))
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"assigneeIds", "milestoneId", "projectIds"} {
		if v, ok := in[k]; ok && !isNil(v) {
			return nil, &fieldError{typ: "UNSUPPORTED", msg: "githubtest does not model updatePullRequest(input: {" + k + "})"}
		}
	}
	if base, ok := in["baseRefName"].(string); ok {
		if p.repo.branch(base) == nil {
			return nil, errUnprocessable("Base ref must be a branch: %s", base)
		}
		p.baseRef = base
	}
	if v, ok := in["title"].(string); ok {
		p.title = v
	}
	if v, ok := in["body"].(string); ok {
		p.body = v
	}
	if _, ok := in["labelIds"]; ok {
		labels, err := labelsByID(st, in["labelIds"])
		if err != nil {
			return nil, err
		}
		p.labels = labels
	}
	now := st.tick()
	switch in["state"] {
	case "CLOSED":
		if p.state == "OPEN" {
			p.state, p.closedAt = "CLOSED", &now
		}
	case "OPEN":
		if p.state == "CLOSED" {
			p.state, p.closedAt = "OPEN", nil
		}
	}
	p.updatedAt = now
	return payload{"pullRequest": p, "actor": st.findAccount(st.viewer)}, nil
}

// mergePullRequest merges with a merge commit (MERGE), one squashed commit
// (SQUASH) or copies of the commits (REBASE) on the base branch. The pull
// request keeps listing the commits it had.
func mergePullRequest(st *state, in map[string]any) (payload, error) {
	p, err := lookup[*pull](st, str(in, "pullRequestId"))
	if err != nil {
		return nil, err
	}
	base, head := p.repo.branch(p.baseRef), p.headTip()
	switch {
	case p.state != "OPEN":
		return nil, errUnprocessable("Pull request #%d is not open.", p.number)
	case p.isDraft:
		return nil, errUnprocessable("Pull request #%d is still a draft.", p.number)
	case p.mergeable == "CONFLICTING":
		return nil, errUnprocessable("Pull request #%d is not mergeable.", p.number)
	case base == nil || head == nil:
		return nil, errUnprocessable("Pull request #%d has no base or head branch.", p.number)
	}
	if want := str(in, "expectedHeadOid"); want != "" && want != head.oid {
		return nil, errUnprocessable("Head branch was modified. Review and try the merge again.")
	}
	commits := p.commitList()
	var changes []fileChange
	for _, c := range commits {
		changes = append(changes, c.changes...)
	}
	headline := cmpOr(str(in, "commitHeadline"), fmt.Sprintf("Merge pull request #%d from %s/%s", p.number, p.repo.owner.login, p.headRef))
	if body := str(in, "commitBody"); body != "" {
		headline += "\n\n" + body
	}
	switch in["mergeMethod"] {
	case "SQUASH":
		base.target = st.newCommit(p.repo, base.target, cmpOr(str(in, "commitHeadline"), fmt.Sprintf("%s (#%d)", p.title, p.number)), st.viewer, changes)
	case "REBASE":
		for _, c := range commits {
			base.target = st.newCommit(p.repo, base.target, c.message, c.authorLogin, c.changes)
		}
	default:
		merge := st.newCommit(p.repo, base.target, headline, st.viewer, nil)
		merge.parents = append(merge.parents, head)
		base.target = merge
	}
	now := st.tick()
	p.mergedList = commits
	p.state, p.mergedAt, p.closedAt, p.updatedAt = "MERGED", &now, &now, now
	return payload{"pullRequest": p, "actor": st.findAccount(st.viewer)}, nil
}

func deleteIssueComment(st *state, in map[string]any) (payload, error) {
	c, err := lookup[*comment](st, str(in, "id"))
	if err != nil {
		return nil, err
	}
	drop := func(x *comment) bool { return x == c }
	for _, r := range st.repos {
		for _, i := range r.issues {
			i.comments = slices.DeleteFunc(i.comments, drop)
		}
		for _, p := range r.pulls {
			p.comments = slices.DeleteFunc(p.comments, drop)
		}
	}
	delete(st.nodes, c.id)
	return payload{}, nil
}

// deletePullRequestReviewComment removes a review comment; a thread left
// without comments disappears, as on GitHub.
func deletePullRequestReviewComment(st *state, in map[string]any) (payload, error) {
	c, err := lookup[*reviewComment](st, str(in, "id"))
	if err != nil {
		return nil, err
	}
	drop := func(x *reviewComment) bool { return x == c }
	c.review.comments = slices.DeleteFunc(c.review.comments, drop)
	p := c.pull
	p.threads = slices.DeleteFunc(p.threads, func(t *thread) bool {
		t.comments = slices.DeleteFunc(t.comments, drop)
		if len(t.comments) == 0 {
			delete(st.nodes, t.id)
			return true
		}
		return false
	})
	delete(st.nodes, c.id)
	return payload{"pullRequestReview": c.review}, nil
}

func addPullRequestReview(st *state, in map[string]any) (payload, error) {
	p, err := lookup[*pull](st, str(in, "pullRequestId"))
	if err != nil {
		return nil, err
	}
	state := map[string]string{"APPROVE": "APPROVED", "COMMENT": "COMMENTED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "DISMISS": "DISMISSED"}[str(in, "event")]
	if state == "" {
		state = "PENDING"
	}
	if (state == "COMMENTED" || state == "CHANGES_REQUESTED") && str(in, "body") == "" && in["threads"] == nil && in["comments"] == nil {
		return nil, errUnprocessable("Review body can't be blank when the event is %s", str(in, "event"))
	}
	rv := st.newReview(p, Review{Author: st.viewer, Body: str(in, "body"), State: state, CommitOID: str(in, "commitOID")})
	threads, _ := in["threads"].([]any)
	for _, t := range threads {
		d, _ := t.(map[string]any)
		line, _ := toInt(d["line"])
		spec := ReviewThread{Path: str(d, "path"), Line: line, Side: str(d, "side"), StartSide: str(d, "startSide"),
			Comments: []Comment{{Author: st.viewer, Body: str(d, "body")}}}
		if sl, ok := toInt(d["startLine"]); ok {
			spec.StartLine = sl
		}
		st.newThread(p, rv, spec)
	}
	comments, _ := in["comments"].([]any)
	for _, c := range comments {
		d, _ := c.(map[string]any)
		pos, _ := toInt(d["position"])
		st.newThread(p, rv, ReviewThread{Path: str(d, "path"), Line: pos, Comments: []Comment{{Author: st.viewer, Body: str(d, "body")}}})
	}
	switch state {
	case "APPROVED", "CHANGES_REQUESTED":
		p.reviewDecision = state
	}
	return payload{"pullRequestReview": rv}, nil
}

func addPullRequestReviewThread(st *state, in map[string]any) (payload, error) {
	var p *pull
	var rv *review
	if id := str(in, "pullRequestReviewId"); id != "" {
		var err error
		if rv, err = lookup[*review](st, id); err != nil {
			return nil, err
		}
		p = rv.pull
	} else {
		var err error
		if p, err = lookup[*pull](st, str(in, "pullRequestId")); err != nil {
			return nil, err
		}
		// A thread outside a review is a single comment: GitHub wraps it in
		// a submitted COMMENTED review of its own.
		rv = st.newReview(p, Review{Author: st.viewer, State: "COMMENTED"})
	}
	line, _ := toInt(in["line"])
	spec := ReviewThread{Path: str(in, "path"), Line: line, Side: str(in, "side"), StartSide: str(in, "startSide"),
		SubjectType: str(in, "subjectType"), Comments: []Comment{{Author: st.viewer, Body: str(in, "body")}}}
	if sl, ok := toInt(in["startLine"]); ok {
		spec.StartLine = sl
	}
	return payload{"thread": st.newThread(p, rv, spec)}, nil
}

// addPullRequestReviewThreadReply adds the viewer's reply to a review
// thread, in the pending review given or, as GitHub does without one, in a
// submitted COMMENTED review of its own. An empty body is refused as
// GitHub refuses it.
func addPullRequestReviewThreadReply(st *state, in map[string]any) (payload, error) {
	t, err := lookup[*thread](st, str(in, "pullRequestReviewThreadId"))
	if err != nil {
		return nil, err
	}
	body := str(in, "body")
	if strings.TrimSpace(body) == "" {
		return nil, errUnprocessable("Body can't be blank")
	}
	var rv *review
	if id := str(in, "pullRequestReviewId"); id != "" {
		if rv, err = lookup[*review](st, id); err != nil {
			return nil, err
		}
		if rv.pull != t.pull {
			return nil, errUnprocessable("The review %s does not belong to the thread's pull request", id)
		}
	} else {
		rv = st.newReview(t.pull, Review{Author: st.viewer, State: "COMMENTED"})
	}
	return payload{"comment": st.addThreadComment(t, rv, "", body)}, nil
}

func setThreadResolved(st *state, in map[string]any, resolved bool) (payload, error) {
	t, err := lookup[*thread](st, str(in, "threadId"))
	if err != nil {
		return nil, err
	}
	t.resolved = resolved
	t.resolvedBy = ""
	if resolved {
		t.resolvedBy = st.viewer
	}
	return payload{"thread": t}, nil
}

func createIssue(st *state, in map[string]any) (payload, error) {
	r, err := lookup[*repo](st, str(in, "repositoryId"))
	if err != nil {
		return nil, err
	}
	labels, err := labelsByID(st, in["labelIds"])
	if err != nil {
		return nil, err
	}
	i := st.newIssue(r, Issue{Title: str(in, "title"), Body: str(in, "body"), Author: st.viewer})
	i.labels = labels
	if pid := str(in, "parentIssueId"); pid != "" {
		parent, err := lookup[*issue](st, pid)
		if err != nil {
			return nil, err
		}
		i.parent = parent
		parent.subIssues = append(parent.subIssues, i)
	}
	return payload{"issue": i}, nil
}

func labelsByID(st *state, ids any) ([]*label, error) {
	list, _ := ids.([]any)
	var out []*label
	for _, id := range list {
		s, _ := id.(string)
		l, err := lookup[*label](st, s)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

func closeIssue(st *state, in map[string]any) (payload, error) {
	i, err := lookup[*issue](st, str(in, "issueId"))
	if err != nil {
		return nil, err
	}
	reason := str(in, "stateReason")
	if reason == "" {
		reason = "COMPLETED"
	}
	now := st.tick()
	i.state, i.stateReason, i.closedAt, i.updatedAt = "CLOSED", reason, &now, now
	return payload{"issue": i}, nil
}

func reopenIssue(st *state, in map[string]any) (payload, error) {
	i, err := lookup[*issue](st, str(in, "issueId"))
	if err != nil {
		return nil, err
	}
	i.state, i.stateReason, i.closedAt, i.updatedAt = "OPEN", "REOPENED", nil, st.tick()
	return payload{"issue": i}, nil
}

func updateIssue(st *state, in map[string]any) (payload, error) {
	i, err := lookup[*issue](st, str(in, "id"))
	if err != nil {
		return nil, err
	}
	if v, ok := in["title"].(string); ok {
		i.title = v
	}
	if v, ok := in["body"].(string); ok {
		i.body = v
	}
	if _, ok := in["labelIds"]; ok {
		labels, err := labelsByID(st, in["labelIds"])
		if err != nil {
			return nil, err
		}
		i.labels = labels
	}
	now := st.tick()
	switch in["state"] {
	case "CLOSED":
		if i.state != "CLOSED" {
			i.state, i.stateReason, i.closedAt = "CLOSED", "COMPLETED", &now
		}
	case "OPEN":
		if i.state != "OPEN" {
			i.state, i.stateReason, i.closedAt = "OPEN", "REOPENED", nil
		}
	}
	i.updatedAt = now
	return payload{"issue": i}, nil
}

func deleteIssue(st *state, in map[string]any) (payload, error) {
	i, err := lookup[*issue](st, str(in, "issueId"))
	if err != nil {
		return nil, err
	}
	r := i.repo
	r.issues = slices.DeleteFunc(r.issues, func(x *issue) bool { return x == i })
	if i.parent != nil {
		i.parent.subIssues = slices.DeleteFunc(i.parent.subIssues, func(x *issue) bool { return x == i })
	}
	delete(st.nodes, i.id)
	return payload{"repository": r}, nil
}

func addComment(st *state, in map[string]any) (payload, error) {
	id := str(in, "subjectId")
	var c *comment
	switch subject := st.nodes[id].(type) {
	case *issue:
		c = st.newComment(subject.url(), Comment{Author: st.viewer, Body: str(in, "body")})
		subject.comments = append(subject.comments, c)
		subject.updatedAt = c.createdAt
		return payload{"commentEdge": &edge{cursor: encodeCursor(len(subject.comments) - 1), node: c}, "subject": subject}, nil
	case *pull:
		c = st.newComment(subject.url(), Comment{Author: st.viewer, Body: str(in, "body")})
		subject.comments = append(subject.comments, c)
		subject.updatedAt = c.createdAt
		return payload{"commentEdge": &edge{cursor: encodeCursor(len(subject.comments) - 1), node: c}, "subject": subject}, nil
	}
	return nil, errNotFound("Could not resolve to a node with the global id of '%s'", id)
}

func createLabel(st *state, in map[string]any) (payload, error) {
	r, err := lookup[*repo](st, str(in, "repositoryId"))
	if err != nil {
		return nil, err
	}
	if r.label(str(in, "name")) != nil {
		return nil, errUnprocessable("Name has already been taken")
	}
	l := st.newLabel(r, Label{Name: str(in, "name"), Color: str(in, "color"), Description: str(in, "description")})
	return payload{"label": l}, nil
}

func deleteLabel(st *state, in map[string]any) (payload, error) {
	l, err := lookup[*label](st, str(in, "id"))
	if err != nil {
		return nil, err
	}
	r := l.repo
	r.labels = slices.DeleteFunc(r.labels, func(x *label) bool { return x == l })
	drop := func(x *label) bool { return x == l }
	for _, i := range r.issues {
		i.labels = slices.DeleteFunc(i.labels, drop)
	}
	for _, p := range r.pulls {
		p.labels = slices.DeleteFunc(p.labels, drop)
	}
	delete(st.nodes, l.id)
	return payload{}, nil
}

func changeLabels(st *state, in map[string]any, add bool) (payload, error) {
	id := str(in, "labelableId")
	var target *[]*label
	var subject any
	switch s := st.nodes[id].(type) {
	case *issue:
		target, subject = &s.labels, s
	case *pull:
		target, subject = &s.labels, s
	default:
		return nil, errNotFound("Could not resolve to a node with the global id of '%s'", id)
	}
	labels, err := labelsByID(st, in["labelIds"])
	if err != nil {
		return nil, err
	}
	for _, l := range labels {
		has := slices.Contains(*target, l)
		switch {
		case add && !has:
			*target = append(*target, l)
		case !add && has:
			*target = slices.DeleteFunc(*target, func(x *label) bool { return x == l })
		}
	}
	return payload{"labelable": subject}, nil
}
