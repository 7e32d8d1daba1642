package githubfake

import (
	"fmt"
)

func (p *pull) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return p.id, nil
	case "databaseId":
		return p.dbID, nil
	case "number":
		return p.number, nil
	case "title":
		return p.title, nil
	case "body":
		return p.body, nil
	case "state":
		return p.state, nil
	case "closed":
		return p.state != "OPEN", nil
	case "merged":
		return p.state == "MERGED", nil
	case "isDraft":
		return p.isDraft, nil
	case "url":
		return p.url(), nil
	case "createdAt":
		return p.createdAt, nil
	case "updatedAt":
		return p.updatedAt, nil
	case "closedAt":
		return p.closedAt, nil
	case "mergedAt":
		return p.mergedAt, nil
	case "author":
		return ec.st.findAccount(p.author), nil
	case "labels":
		return paginate("labels", listOf(sortLabels(p.labels, args)), args)
	case "comments":
		return paginate("comments", listOf(orderComments(p.comments, args)), args)
	case "headRefName":
		return p.headRef, nil
	case "baseRefName":
		return p.baseRef, nil
	case "headRefOid":
		if c := p.headTip(); c != nil {
			return c.oid, nil
		}
		return p.lastHeadOid, nil
	case "baseRefOid":
		if c := p.baseTip(); c != nil {
			return c.oid, nil
		}
		return "", nil
	case "headRef":
		return p.repo.branch(p.headRef), nil
	case "baseRef":
		return p.repo.branch(p.baseRef), nil
	case "commits":
		commits := p.commitList()
		items := make([]any, len(commits))
		for i, c := range commits {
			items[i] = &pullCommit{pull: p, commit: c}
		}
		return paginate("commits", items, args)
	case "reviews":
		var reviews []*review
		states, _ := args["states"].([]any)
		author, _ := strArg(args, "author")
		for _, r := range p.reviews {
			if (len(states) == 0 || contains(states, r.state)) && (author == "" || author == r.author) {
				reviews = append(reviews, r)
			}
		}
		return paginate("reviews", listOf(reviews), args)
	case "reviewThreads":
		return paginate("reviewThreads", listOf(p.threads), args)
	case "files":
		return paginate("files", listOf(p.changedFiles()), args)
	case "additions", "deletions", "changedFiles":
		files := p.changedFiles()
		n := 0
		for _, f := range files {
			switch field {
			case "additions":
				n += f.additions
			case "deletions":
				n += f.deletions
			}
		}
		if field == "changedFiles" {
			n = len(files)
		}
		return n, nil
	case "mergeable":
		return p.mergeable, nil
	case "mergeStateStatus":
		return p.mergeStateStatus, nil
	case "reviewDecision":
		return nullable(p.reviewDecision), nil
	case "repository":
		return p.repo, nil
	case "projectV2":
		n, _ := intArg(args, "number")
		return projectContaining(ec.st, n, p)
	}
	return nil, unserved("PullRequest", field)
}

func contains(xs []any, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// pullCommit is a PullRequestCommit: a commit as part of a pull request.
type pullCommit struct {
	pull   *pull
	commit *commit
}

func (pc *pullCommit) gqlType() string { return "PullRequestCommit" }

func (pc *pullCommit) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return "PURC_" + pc.commit.oid[:12], nil
	case "commit":
		return pc.commit, nil
	case "url":
		return pc.pull.url() + "/commits/" + pc.commit.oid, nil
	}
	return nil, unserved("PullRequestCommit", field)
}

func (r *review) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return r.id, nil
	case "databaseId":
		return r.dbID, nil
	case "author":
		return ec.st.findAccount(r.author), nil
	case "body":
		return r.body, nil
	case "state":
		return r.state, nil
	case "submittedAt":
		return r.submittedAt, nil
	case "createdAt":
		return r.createdAt, nil
	case "url":
		return r.url(), nil
	case "commit":
		if c := r.pull.repo.commits[r.commitOid]; c != nil {
			return c, nil
		}
		return nil, nil
	case "comments":
		return paginate("comments", listOf(r.comments), args)
	}
	return nil, unserved("PullRequestReview", field)
}

func (t *thread) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return t.id, nil
	case "path":
		return t.path, nil
	case "line":
		return intPtrValue(t.line), nil
	case "startLine":
		return intPtrValue(t.startLine), nil
	case "originalLine":
		return intPtrValue(t.originalLine), nil
	case "diffSide":
		return t.diffSide, nil
	case "startDiffSide":
		if t.startLine == nil {
			return nil, nil
		}
		return nullable(t.startDiffSide), nil
	case "subjectType":
		return t.subjectType, nil
	case "isResolved":
		return t.resolved, nil
	case "isOutdated":
		return t.outdated, nil
	case "isCollapsed":
		return t.resolved, nil
	case "viewerCanReply":
		return true, nil
	case "viewerCanResolve":
		return !t.resolved, nil
	case "viewerCanUnresolve":
		return t.resolved, nil
	case "resolvedBy":
		if !t.resolved {
			return nil, nil
		}
		return ec.st.findAccount(t.resolvedBy), nil
	case "comments":
		comments := t.comments
		if skip, ok := intArg(args, "skip"); ok && skip > 0 {
			comments = comments[min(skip, len(comments)):]
		}
		return paginate("comments", listOf(comments), args)
	case "pullRequest":
		return t.pull, nil
	}
	return nil, unserved("PullRequestReviewThread", field)
}

func (c *reviewComment) resolve(ec *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return c.id, nil
	case "databaseId":
		return c.dbID, nil
	case "body":
		return c.body, nil
	case "createdAt":
		return c.createdAt, nil
	case "url":
		return c.url(), nil
	case "author":
		return ec.st.findAccount(c.author), nil
	case "path":
		return c.path, nil
	case "line":
		return intPtrValue(c.line), nil
	case "pullRequestReview":
		return c.review, nil
	}
	return nil, unserved("PullRequestReviewComment", field)
}

func (f *changedFile) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "path":
		return f.path, nil
	case "additions":
		return f.additions, nil
	case "deletions":
		return f.deletions, nil
	case "changeType":
		if f.changeType == "" {
			return "MODIFIED", nil
		}
		return f.changeType, nil
	}
	return nil, unserved("PullRequestChangedFile", field)
}

// rollup is a commit's StatusCheckRollup: its check runs and commit
// statuses, with the combined state GitHub derives from them.
type rollup struct{ c *commit }

func (r rollup) resolve(_ *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return "SCR_" + r.c.oid[:12], nil
	case "state":
		return r.state(), nil
	case "contexts":
		items := listOf(r.c.checkRuns)
		items = append(items, listOf(r.c.statuses)...)
		return paginate("contexts", items, args)
	}
	return nil, unserved("StatusCheckRollup", field)
}

// state combines the contexts: any failure fails, anything unfinished is
// pending, otherwise success.
func (r rollup) state() string {
	pending := false
	for _, cr := range r.c.checkRuns {
		switch {
		case cr.status != "COMPLETED":
			pending = true
		case cr.conclusion == "FAILURE" || cr.conclusion == "TIMED_OUT" || cr.conclusion == "CANCELLED" || cr.conclusion == "ACTION_REQUIRED" || cr.conclusion == "STARTUP_FAILURE":
			return "FAILURE"
		}
	}
	for _, s := range r.c.statuses {
		switch s.state {
		case "FAILURE", "ERROR":
			return s.state
		case "PENDING", "EXPECTED":
			pending = true
		}
	}
	if pending {
		return "PENDING"
	}
	return "SUCCESS"
}

func (c *checkRun) resolve(_ *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return c.id, nil
	case "databaseId":
		return c.dbID, nil
	case "name":
		return c.name, nil
	case "status":
		return c.status, nil
	case "conclusion":
		return nullable(c.conclusion), nil
	case "detailsUrl":
		return nullable(c.detailsURL), nil
	case "url":
		return fmt.Sprintf("%s/runs/%d", c.repo.url(), c.dbID), nil
	case "startedAt":
		return c.startedAt, nil
	case "completedAt":
		return c.completedAt, nil
	case "checkSuite":
		return checkSuite{run: c}, nil
	case "annotations":
		return paginate("annotations", listOf(c.annotations), args)
	}
	return nil, unserved("CheckRun", field)
}

// checkSuite exposes the workflow a check run belongs to; that is all the
// fake models of check suites.
type checkSuite struct{ run *checkRun }

func (s checkSuite) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return fmt.Sprintf("CS_%d", s.run.dbID), nil
	case "workflowRun":
		if s.run.workflowName == "" {
			return nil, nil
		}
		return checkWorkflowRun(s), nil
	}
	return nil, unserved("CheckSuite", field)
}

type checkWorkflowRun struct{ run *checkRun }

func (w checkWorkflowRun) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return fmt.Sprintf("WFR_%d", w.run.dbID), nil
	case "databaseId":
		return w.run.dbID, nil
	case "url":
		return fmt.Sprintf("%s/actions/runs/%d", w.run.repo.url(), w.run.dbID), nil
	case "workflow":
		return checkWorkflow{name: w.run.workflowName, dbID: w.run.dbID}, nil
	}
	return nil, unserved("WorkflowRun", field)
}

type checkWorkflow struct {
	name string
	dbID int64
}

func (w checkWorkflow) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return fmt.Sprintf("W_%d", w.dbID), nil
	case "databaseId":
		return w.dbID, nil
	case "name":
		return w.name, nil
	}
	return nil, unserved("Workflow", field)
}

func (a *annotation) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "path":
		return a.path, nil
	case "location":
		return annotationSpan{a: a}, nil
	case "annotationLevel":
		return nullable(a.level), nil
	case "message":
		return a.message, nil
	case "title":
		return nullable(a.title), nil
	}
	return nil, unserved("CheckAnnotation", field)
}

type annotationSpan struct{ a *annotation }

func (s annotationSpan) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "start":
		return annotationPos{line: s.a.startLine}, nil
	case "end":
		return annotationPos{line: s.a.endLine}, nil
	}
	return nil, unserved("CheckAnnotationSpan", field)
}

type annotationPos struct{ line int }

func (p annotationPos) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "line":
		return p.line, nil
	case "column":
		return nil, nil
	}
	return nil, unserved("CheckAnnotationPosition", field)
}

func (s *statusContext) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return s.id, nil
	case "context":
		return s.context, nil
	case "state":
		return s.state, nil
	case "targetUrl":
		return nullable(s.targetURL), nil
	case "description":
		return nullable(s.description), nil
	case "createdAt":
		return s.createdAt, nil
	}
	return nil, unserved("StatusContext", field)
}
