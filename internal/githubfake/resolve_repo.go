package githubfake

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

func (a *account) resolve(_ *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return a.id, nil
	case "databaseId":
		return a.dbID, nil
	case "login":
		return a.login, nil
	case "name":
		return nullable(a.name), nil
	case "url":
		return a.url(), nil
	case "projectV2":
		n, _ := intArg(args, "number")
		for _, p := range a.projects {
			if p.number == n {
				return p, nil
			}
		}
		return nil, errNotFound("Could not resolve to a ProjectV2 with the number %d.", n)
	}
	return nil, unserved(a.kind, field)
}

func (r *repo) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return r.id, nil
	case "databaseId":
		return r.dbID, nil
	case "name":
		return r.name, nil
	case "nameWithOwner":
		return r.nameWithOwner(), nil
	case "owner":
		return r.owner, nil
	case "description":
		return nullable(r.description), nil
	case "isPrivate":
		return r.private, nil
	case "stargazerCount":
		return r.stars, nil
	case "forkCount":
		return r.forks, nil
	case "url":
		return r.url(), nil
	case "createdAt":
		return r.createdAt, nil
	case "defaultBranchRef":
		return r.branch(r.defaultBranch), nil
	case "labels":
		labels := slices.Clone(r.labels)
		if q, ok := strArg(args, "query"); ok && q != "" {
			labels = slices.DeleteFunc(labels, func(l *label) bool {
				return !strings.Contains(strings.ToLower(l.name), strings.ToLower(q))
			})
		}
		return paginate("labels", listOf(sortLabels(labels, args)), args)
	case "label":
		name, _ := strArg(args, "name")
		return r.label(name), nil
	case "issues":
		keep, err := issueFilter(args)
		if err != nil {
			return nil, err
		}
		issues := slices.DeleteFunc(slices.Clone(r.issues), func(i *issue) bool {
			return !matchesStates(args, i.state) || !hasLabels(args, i.labels) || !keep(i)
		})
		orderByCreated(issues, args, func(i *issue) issueOrderKey { return issueOrderKey{i.createdAt, i.updatedAt, len(i.comments)} })
		return paginate("issues", listOf(issues), args)
	case "issue":
		n, _ := intArg(args, "number")
		if i := r.issue(n); i != nil {
			return i, nil
		}
		return nil, errNotFound("Could not resolve to an Issue with the number of %d.", n)
	case "pullRequests":
		head, _ := strArg(args, "headRefName")
		base, _ := strArg(args, "baseRefName")
		pulls := slices.DeleteFunc(slices.Clone(r.pulls), func(p *pull) bool {
			return !matchesStates(args, p.state) || !hasLabels(args, p.labels) ||
				head != "" && p.headRef != head || base != "" && p.baseRef != base
		})
		orderByCreated(pulls, args, func(p *pull) issueOrderKey { return issueOrderKey{p.createdAt, p.updatedAt, len(p.comments)} })
		return paginate("pullRequests", listOf(pulls), args)
	case "issueOrPullRequest":
		n, _ := intArg(args, "number")
		if i := r.issue(n); i != nil {
			return i, nil
		}
		if p := r.pull(n); p != nil {
			return p, nil
		}
		return nil, errNotFound("Could not resolve to an issue or pull request with the number of %d.", n)
	case "hasIssuesEnabled":
		return true, nil
	case "pullRequest":
		n, _ := intArg(args, "number")
		if p := r.pull(n); p != nil {
			return p, nil
		}
		return nil, errNotFound("Could not resolve to a PullRequest with the number of %d.", n)
	case "ref":
		q, _ := strArg(args, "qualifiedName")
		if rf := r.findRef(q); rf != nil {
			return rf, nil
		}
		if rf := r.branch(q); rf != nil {
			return rf, nil
		}
		return r.findRef("refs/tags/" + q), nil
	case "refs":
		prefix, _ := strArg(args, "refPrefix")
		q, _ := strArg(args, "query")
		var refs []*ref
		for _, rf := range r.refs {
			if rf.prefix == prefix && strings.Contains(rf.name, q) {
				refs = append(refs, rf)
			}
		}
		slices.SortStableFunc(refs, func(a, b *ref) int { return cmp.Compare(a.name, b.name) })
		desc := args["direction"] == "DESC"
		if order, ok := args["orderBy"].(map[string]any); ok {
			if order["field"] == "TAG_COMMIT_DATE" {
				slices.SortStableFunc(refs, func(a, b *ref) int { return a.target.authoredAt.Compare(b.target.authoredAt) })
			}
			desc = order["direction"] == "DESC"
		}
		if desc {
			slices.Reverse(refs)
		}
		return paginate("refs", listOf(refs), args)
	case "releases":
		rels := slices.Clone(r.releases)
		if order, ok := args["orderBy"].(map[string]any); ok {
			byName := order["field"] == "NAME"
			slices.SortStableFunc(rels, func(a, b *release) int {
				if byName {
					return cmp.Compare(a.name, b.name)
				}
				return a.createdAt.Compare(b.createdAt)
			})
			if order["direction"] == "DESC" {
				slices.Reverse(rels)
			}
		}
		return paginate("releases", listOf(rels), args)
	case "release":
		tag, _ := strArg(args, "tagName")
		for _, rel := range r.releases {
			if rel.tagName == tag {
				return rel, nil
			}
		}
		return nil, nil
	}
	return nil, unserved("Repository", field)
}

// sortLabels applies a LabelOrder argument (CREATED_AT or NAME).
func sortLabels(labels []*label, args map[string]any) []*label {
	order, ok := args["orderBy"].(map[string]any)
	if !ok {
		return labels
	}
	labels = slices.Clone(labels)
	byName := order["field"] == "NAME"
	slices.SortStableFunc(labels, func(a, b *label) int {
		if byName {
			return cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
		}
		return a.createdAt.Compare(b.createdAt)
	})
	if order["direction"] == "DESC" {
		slices.Reverse(labels)
	}
	return labels
}

// issueFilter applies Repository.issues(filterBy:). The fake models no
// assignees, milestones, mentions or subscriptions, so filtering on them is
// refused rather than silently ignored.
func issueFilter(args map[string]any) (func(*issue) bool, error) {
	f, ok := args["filterBy"].(map[string]any)
	if !ok {
		return func(*issue) bool { return true }, nil
	}
	for _, k := range []string{"assignee", "mentioned", "milestone", "milestoneNumber"} {
		if v, ok := f[k].(string); ok && v != "" {
			return nil, &fieldError{typ: "UNSUPPORTED", msg: "githubtest does not model issues(filterBy: {" + k + "})"}
		}
	}
	if v, _ := f["viewerSubscribed"].(bool); v {
		return nil, &fieldError{typ: "UNSUPPORTED", msg: "githubtest does not model issues(filterBy: {viewerSubscribed})"}
	}
	createdBy, _ := f["createdBy"].(string)
	var since time.Time
	if s, ok := f["since"].(string); ok && s != "" {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return nil, &fieldError{typ: "INVALID_ARGUMENT", msg: "filterBy.since is not an ISO-8601 date-time: " + s}
		}
		since = t
	}
	return func(i *issue) bool {
		return matchesStates(f, i.state) && hasLabels(f, i.labels) &&
			(createdBy == "" || strings.EqualFold(createdBy, i.author)) && !i.updatedAt.Before(since)
	}, nil
}

// matchesStates applies a connection's states filter (IssueState or
// PullRequestState values).
func matchesStates(args map[string]any, state string) bool {
	states, ok := args["states"].([]any)
	if !ok || len(states) == 0 {
		return true
	}
	for _, s := range states {
		if s == state {
			return true
		}
	}
	return false
}

// hasLabels applies a connection's labels filter: any of the names matches.
func hasLabels(args map[string]any, labels []*label) bool {
	names, ok := args["labels"].([]any)
	if !ok || len(names) == 0 {
		return true
	}
	for _, n := range names {
		for _, l := range labels {
			if s, _ := n.(string); strings.EqualFold(l.name, s) {
				return true
			}
		}
	}
	return false
}

type issueOrderKey struct {
	created, updated time.Time
	comments         int
}

// orderByCreated applies an IssueOrder argument (CREATED_AT, UPDATED_AT or
// COMMENTS, ASC or DESC); without one, items stay in creation order.
func orderByCreated[T any](items []T, args map[string]any, key func(T) issueOrderKey) {
	order, ok := args["orderBy"].(map[string]any)
	if !ok {
		return
	}
	slices.SortStableFunc(items, func(a, b T) int {
		ka, kb := key(a), key(b)
		switch order["field"] {
		case "UPDATED_AT":
			return ka.updated.Compare(kb.updated)
		case "COMMENTS":
			return cmp.Compare(ka.comments, kb.comments)
		}
		return ka.created.Compare(kb.created)
	})
	if order["direction"] == "DESC" {
		slices.Reverse(items)
	}
}

func (r *ref) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return r.id, nil
	case "name":
		return r.name, nil
	case "prefix":
		return r.prefix, nil
	case "target":
		return r.target, nil
	}
	return nil, unserved("Ref", field)
}

func (c *commit) resolve(ec *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return c.id, nil
	case "oid":
		return c.oid, nil
	case "abbreviatedOid":
		return c.oid[:7], nil
	case "message":
		return c.message, nil
	case "messageHeadline":
		headline, _, _ := strings.Cut(c.message, "\n")
		return headline, nil
	case "committedDate", "authoredDate":
		return c.authoredAt, nil
	case "author":
		return gitActor{c: c, st: ec.st}, nil
	case "url":
		return c.url(), nil
	case "statusCheckRollup":
		if len(c.checkRuns) == 0 && len(c.statuses) == 0 {
			return nil, nil
		}
		return rollup{c: c}, nil
	}
	return nil, unserved("Commit", field)
}

// gitActor is a commit's author as Git records it.
type gitActor struct {
	c  *commit
	st *state
}

func (g gitActor) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "name":
		return nullable(g.c.authorName), nil
	case "email":
		return nullable(g.c.authorEmail), nil
	case "date":
		return g.c.authoredAt, nil
	case "user":
		if a := g.st.accounts[strings.ToLower(g.c.authorLogin)]; a != nil && a.kind == "User" {
			return a, nil
		}
		return nil, nil
	}
	return nil, unserved("GitActor", field)
}

func (l *label) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return l.id, nil
	case "name":
		return l.name, nil
	case "description":
		return nullable(l.description), nil
	case "color":
		return l.color, nil
	case "isDefault":
		return l.isDefault, nil
	case "createdAt":
		return l.createdAt, nil
	case "url":
		return l.repo.url() + "/labels/" + strings.ReplaceAll(l.name, " ", "%20"), nil
	}
	return nil, unserved("Label", field)
}
