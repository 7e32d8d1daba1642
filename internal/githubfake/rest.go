package githubfake

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// routeREST registers the REST endpoints the fake serves: the ones GraphQL
// has no equivalent for.
func (s *Server) routeREST(mux *http.ServeMux) {
	for pattern, h := range map[string]func(*state, *http.Request) (int, any){
		"GET /repos/{owner}/{repo}/pulls/{number}":                          restPull,
		"GET /repos/{owner}/{repo}/actions/workflows":                       restWorkflows,
		"GET /repos/{owner}/{repo}/actions/workflows/{workflow}":            restWorkflow,
		"GET /repos/{owner}/{repo}/actions/runs":                            restRuns,
		"GET /repos/{owner}/{repo}/actions/runs/{run}":                      restRun,
		"GET /repos/{owner}/{repo}/actions/runs/{run}/jobs":                 restRunJobs,
		"GET /repos/{owner}/{repo}/actions/runs/{run}/artifacts":            restRunArtifacts,
		"GET /repos/{owner}/{repo}/actions/jobs/{job}":                      restJob,
		"GET /repos/{owner}/{repo}/issues/{number}/dependencies/blocked_by": restBlockedBy,
		"GET /orgs/{org}/issue-types":                                       restIssueTypes,
	} {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			setOperation(r, pattern)
			s.mu.RLock()
			status, body := h(s.st, r)
			s.mu.RUnlock()
			s.writeREST(w, r, status, body)
		})
	}
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls/{number}/comments", func(w http.ResponseWriter, r *http.Request) {
		setOperation(r, "GET /repos/{owner}/{repo}/pulls/{number}/comments")
		s.mu.RLock()
		status, body := restReviewComments(s.st, r)
		s.mu.RUnlock()
		s.writeREST(w, r, status, body)
	})
	// A reply to a review comment, by either of GitHub's two routes: the
	// replies route, or creating a comment with in_reply_to.
	for _, pattern := range []string{"POST /repos/{owner}/{repo}/pulls/{number}/comments", "POST /repos/{owner}/{repo}/pulls/{number}/comments/{comment}/replies"} {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			setOperation(r, pattern)
			s.mu.Lock()
			status, body := restReplyToReviewComment(s.st, r)
			s.mu.Unlock()
			s.writeREST(w, r, status, body)
		})
	}
	mux.HandleFunc("GET /repos/{owner}/{repo}/actions/jobs/{job}/logs", s.serveJobLogsRedirect)
	mux.HandleFunc("GET /_blobs/jobs/{job}/logs", s.serveJobLogs)
}

// rawBody is a handler result served as-is with a content type.
type rawBody struct {
	contentType string
	text        string
}

type restError string

func (s *Server) writeREST(w http.ResponseWriter, r *http.Request, status int, body any) {
	switch b := body.(type) {
	case restError:
		writeRESTError(w, status, string(b))
	case rawBody:
		w.Header().Set("Content-Type", b.contentType)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(b.text))
	case page:
		if b.next > 0 {
			u := *r.URL
			q := u.Query()
			q.Set("page", strconv.Itoa(b.next))
			u.RawQuery = q.Encode()
			w.Header().Set("Link", fmt.Sprintf("<%s%s>; rel=\"next\"", s.URL, u.RequestURI()))
		}
		writeJSON(w, status, b.body)
	default:
		writeJSON(w, status, body)
	}
}

const errNotFoundREST = restError("Not Found")

func restRepo(st *state, r *http.Request) *repo {
	return st.repo(r.PathValue("owner"), r.PathValue("repo"))
}

// page is a paginated REST result; next is the next page number or 0.
type page struct {
	body any
	next int
}

// paginateREST applies per_page (default 30, at most 100) and page.
func paginateREST[T any](r *http.Request, items []T) ([]T, int) {
	per, err := strconv.Atoi(r.URL.Query().Get("per_page"))
	if err != nil || per <= 0 {
		per = 30
	}
	per = min(per, 100)
	pg, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || pg <= 0 {
		pg = 1
	}
	start := min((pg-1)*per, len(items))
	end := min(start+per, len(items))
	next := 0
	if end < len(items) {
		next = pg + 1
	}
	return items[start:end], next
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func tsPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return ts(*t)
}

func restPull(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	n, _ := strconv.Atoi(r.PathValue("number"))
	if rp == nil || rp.pull(n) == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	p := rp.pull(n)
	accept := r.Header.Get("Accept")
	if strings.Contains(accept, "application/vnd.github.diff") || strings.Contains(accept, "application/vnd.github.v3.diff") {
		return http.StatusOK, rawBody{contentType: "text/plain; charset=utf-8", text: p.diff()}
	}
	headSHA, baseSHA := p.lastHeadOid, ""
	if c := p.headTip(); c != nil {
		headSHA = c.oid
	}
	if c := p.baseTip(); c != nil {
		baseSHA = c.oid
	}
	state := "open"
	if p.state != "OPEN" {
		state = "closed"
	}
	return http.StatusOK, map[string]any{
		"id": p.dbID, "node_id": p.id, "number": p.number, "state": state, "title": p.title, "body": p.body,
		"draft": p.isDraft, "merged": p.state == "MERGED", "html_url": p.url(), "diff_url": p.url() + ".diff",
		"url":        fmt.Sprintf("%s/repos/%s/pulls/%d", st.apiURL, rp.nameWithOwner(), p.number),
		"head":       map[string]any{"ref": p.headRef, "sha": headSHA},
		"base":       map[string]any{"ref": p.baseRef, "sha": baseSHA},
		"user":       map[string]any{"login": p.author},
		"created_at": ts(p.createdAt), "updated_at": ts(p.updatedAt),
	}
}

func workflowJSON(st *state, w *workflow) map[string]any {
	return map[string]any{
		"id": w.id, "node_id": w.nodeID, "name": w.name, "path": w.path, "state": w.state,
		"created_at": ts(w.createdAt), "updated_at": ts(w.createdAt),
		"url":       fmt.Sprintf("%s/repos/%s/actions/workflows/%d", st.apiURL, w.repo.nameWithOwner(), w.id),
		"html_url":  fmt.Sprintf("%s/blob/%s/%s", w.repo.url(), w.repo.defaultBranch, w.path),
		"badge_url": fmt.Sprintf("%s/workflows/%s/badge.svg", w.repo.url(), w.name),
	}
}

func restWorkflows(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	if rp == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	items, next := paginateREST(r, rp.workflows)
	out := make([]any, len(items))
	for i, w := range items {
		out[i] = workflowJSON(st, w)
	}
	return http.StatusOK, page{body: map[string]any{"total_count": len(rp.workflows), "workflows": out}, next: next}
}

// restWorkflow accepts a workflow ID or its file name, as GitHub does.
func restWorkflow(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	if rp == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	key := r.PathValue("workflow")
	for _, w := range rp.workflows {
		if strconv.FormatInt(w.id, 10) == key || w.path == key || strings.HasSuffix(w.path, "/"+key) {
			return http.StatusOK, workflowJSON(st, w)
		}
	}
	return http.StatusNotFound, errNotFoundREST
}

func runJSON(st *state, run *workflowRun) map[string]any {
	api := fmt.Sprintf("%s/repos/%s/actions/runs/%d", st.apiURL, run.repo.nameWithOwner(), run.id)
	var conclusion any
	if run.conclusion != "" {
		conclusion = run.conclusion
	}
	return map[string]any{
		"id": run.id, "node_id": run.nodeID, "name": run.workflow.name, "display_title": run.workflow.name,
		"head_branch": run.headBranch, "head_sha": run.headSha, "path": run.workflow.path,
		"run_number": run.runNumber, "event": run.event, "status": run.status, "conclusion": conclusion,
		"workflow_id": run.workflow.id, "run_attempt": run.attempt,
		"created_at": ts(run.createdAt), "updated_at": ts(run.updatedAt), "run_started_at": ts(run.startedAt),
		"url": api, "html_url": run.url(), "jobs_url": api + "/jobs", "logs_url": api + "/logs", "artifacts_url": api + "/artifacts",
	}
}

// isConclusion reports whether a value of GitHub's status filter matches a
// run's conclusion rather than its status.
func isConclusion(s string) bool {
	switch s {
	case "action_required", "cancelled", "failure", "neutral", "skipped", "stale", "success", "timed_out":
		return true
	}
	return false
}

func restRuns(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	if rp == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	q := r.URL.Query()
	var runs []*workflowRun
	// Newest first, as GitHub lists runs.
	for i := len(rp.runs) - 1; i >= 0; i-- {
		run := rp.runs[i]
		if b := q.Get("branch"); b != "" && run.headBranch != b {
			continue
		}
		if e := q.Get("event"); e != "" && run.event != e {
			continue
		}
		if s := q.Get("status"); s != "" && run.status != s && !(isConclusion(s) && run.conclusion == s) {
			continue
		}
		runs = append(runs, run)
	}
	items, next := paginateREST(r, runs)
	out := make([]any, len(items))
	for i, run := range items {
		out[i] = runJSON(st, run)
	}
	return http.StatusOK, page{body: map[string]any{"total_count": len(runs), "workflow_runs": out}, next: next}
}

func findRun(st *state, r *http.Request) *workflowRun {
	rp := restRepo(st, r)
	if rp == nil {
		return nil
	}
	id, _ := strconv.ParseInt(r.PathValue("run"), 10, 64)
	for _, run := range rp.runs {
		if run.id == id {
			return run
		}
	}
	return nil
}

func restRun(st *state, r *http.Request) (int, any) {
	run := findRun(st, r)
	if run == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	return http.StatusOK, runJSON(st, run)
}

func jobJSON(st *state, j *job) map[string]any {
	var conclusion any
	if j.conclusion != "" {
		conclusion = j.conclusion
	}
	return map[string]any{
		"id": j.id, "node_id": j.nodeID, "run_id": j.run.id, "run_attempt": j.run.attempt, "name": j.name,
		"head_sha": j.run.headSha, "head_branch": j.run.headBranch, "status": j.status, "conclusion": conclusion,
		"started_at": ts(j.startedAt), "completed_at": tsPtr(j.completedAt), "steps": []any{},
		"url":      fmt.Sprintf("%s/repos/%s/actions/jobs/%d", st.apiURL, j.run.repo.nameWithOwner(), j.id),
		"html_url": fmt.Sprintf("%s/job/%d", j.run.url(), j.id),
		"run_url":  fmt.Sprintf("%s/repos/%s/actions/runs/%d", st.apiURL, j.run.repo.nameWithOwner(), j.run.id),
	}
}

func restRunJobs(st *state, r *http.Request) (int, any) {
	run := findRun(st, r)
	if run == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	items, next := paginateREST(r, run.jobs)
	out := make([]any, len(items))
	for i, j := range items {
		out[i] = jobJSON(st, j)
	}
	return http.StatusOK, page{body: map[string]any{"total_count": len(run.jobs), "jobs": out}, next: next}
}

func restRunArtifacts(st *state, r *http.Request) (int, any) {
	run := findRun(st, r)
	if run == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	items, next := paginateREST(r, run.artifacts)
	out := make([]any, len(items))
	for i, a := range items {
		api := fmt.Sprintf("%s/repos/%s/actions/artifacts/%d", st.apiURL, run.repo.nameWithOwner(), a.id)
		out[i] = map[string]any{
			"id": a.id, "node_id": a.nodeID, "name": a.name, "size_in_bytes": a.size, "expired": a.expired,
			"url": api, "archive_download_url": api + "/zip",
			"created_at": ts(a.createdAt), "updated_at": ts(a.createdAt), "expires_at": ts(a.createdAt.Add(90 * 24 * time.Hour)),
			"workflow_run": map[string]any{"id": run.id, "head_branch": run.headBranch, "head_sha": run.headSha},
		}
	}
	return http.StatusOK, page{body: map[string]any{"total_count": len(run.artifacts), "artifacts": out}, next: next}
}

func findJob(st *state, r *http.Request) *job {
	rp := restRepo(st, r)
	id, _ := strconv.ParseInt(r.PathValue("job"), 10, 64)
	j := st.jobs[id]
	if j == nil || rp == nil || j.run.repo != rp {
		return nil
	}
	return j
}

func restJob(st *state, r *http.Request) (int, any) {
	j := findJob(st, r)
	if j == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	return http.StatusOK, jobJSON(st, j)
}

// serveJobLogsRedirect answers like GitHub: 302 to a short-lived download
// URL (here on the fake itself).
func (s *Server) serveJobLogsRedirect(w http.ResponseWriter, r *http.Request) {
	setOperation(r, "GET /repos/{owner}/{repo}/actions/jobs/{job}/logs")
	s.mu.RLock()
	j := findJob(s.st, r)
	s.mu.RUnlock()
	if j == nil {
		writeRESTError(w, http.StatusNotFound, "Not Found")
		return
	}
	w.Header().Set("Location", fmt.Sprintf("%s/_blobs/jobs/%d/logs", s.URL, j.id))
	w.WriteHeader(http.StatusFound)
}

func (s *Server) serveJobLogs(w http.ResponseWriter, r *http.Request) {
	setOperation(r, "GET /_blobs/jobs/{job}/logs")
	id, _ := strconv.ParseInt(r.PathValue("job"), 10, 64)
	s.mu.RLock()
	j := s.st.jobs[id]
	var log string
	if j != nil {
		log = j.log
	}
	s.mu.RUnlock()
	if j == nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(log))
}

func restBlockedBy(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	n, _ := strconv.Atoi(r.PathValue("number"))
	if rp == nil || rp.issue(n) == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	items, next := paginateREST(r, rp.issue(n).blockedBy)
	out := make([]any, len(items))
	for i, b := range items {
		out[i] = map[string]any{
			"id": b.dbID, "node_id": b.id, "number": b.number, "title": b.title, "state": strings.ToLower(b.state),
			"html_url": b.url(), "url": fmt.Sprintf("%s/repos/%s/issues/%d", st.apiURL, b.repo.nameWithOwner(), b.number),
		}
	}
	return http.StatusOK, page{body: out, next: next}
}

func restIssueTypes(st *state, r *http.Request) (int, any) {
	a := st.findAccount(r.PathValue("org"))
	if a == nil || a.kind != "Organization" {
		return http.StatusNotFound, errNotFoundREST
	}
	out := make([]any, len(a.issueTypes))
	for i, t := range a.issueTypes {
		out[i] = map[string]any{
			"id": t.dbID, "node_id": t.id, "name": t.name, "description": nullable(t.description),
			"color": t.color, "is_enabled": t.enabled,
		}
	}
	return http.StatusOK, out
}

// reviewCommentJSON is a pull request review comment in REST's shape; a
// comment after a thread's first is a reply to the first.
func reviewCommentJSON(st *state, rp *repo, t *thread, c *reviewComment) map[string]any {
	m := map[string]any{
		"id": c.dbID, "node_id": c.id, "pull_request_review_id": c.review.dbID, "body": c.body, "path": c.path,
		"user":       map[string]any{"login": c.author},
		"html_url":   c.url(),
		"url":        fmt.Sprintf("%s/repos/%s/pulls/comments/%d", st.apiURL, rp.nameWithOwner(), c.dbID),
		"created_at": ts(c.createdAt), "updated_at": ts(c.createdAt),
		"line": nil,
	}
	if c.line != nil {
		m["line"] = *c.line
	}
	if t.comments[0] != c {
		m["in_reply_to_id"] = t.comments[0].dbID
	}
	return m
}

// restReviewComments lists a pull request's review comments, oldest first.
func restReviewComments(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	n, _ := strconv.Atoi(r.PathValue("number"))
	if rp == nil || rp.pull(n) == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	var all []map[string]any
	for _, t := range rp.pull(n).threads {
		for _, c := range t.comments {
			all = append(all, reviewCommentJSON(st, rp, t, c))
		}
	}
	slices.SortFunc(all, func(a, b map[string]any) int { return cmp.Compare(a["id"].(int64), b["id"].(int64)) })
	items, next := paginateREST(r, all)
	if items == nil {
		items = []map[string]any{}
	}
	return http.StatusOK, page{body: items, next: next}
}

// restReplyToReviewComment adds the viewer's reply to the thread of a
// review comment (the {comment} of the replies route, else the body's
// in_reply_to). Only replies are made: a new thread needs GraphQL's
// addPullRequestReviewThread here.
func restReplyToReviewComment(st *state, r *http.Request) (int, any) {
	rp := restRepo(st, r)
	n, _ := strconv.Atoi(r.PathValue("number"))
	if rp == nil || rp.pull(n) == nil {
		return http.StatusNotFound, errNotFoundREST
	}
	var in struct {
		Body      string `json:"body"`
		InReplyTo int64  `json:"in_reply_to"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
		return http.StatusBadRequest, restError("Problems parsing JSON")
	}
	if strings.TrimSpace(in.Body) == "" {
		return http.StatusUnprocessableEntity, restError("Validation Failed: body can't be blank")
	}
	id := in.InReplyTo
	if c := r.PathValue("comment"); c != "" {
		id, _ = strconv.ParseInt(c, 10, 64)
	} else if id == 0 {
		return http.StatusUnprocessableEntity, restError("this fake makes replies only: in_reply_to is required")
	}
	for _, t := range rp.pull(n).threads {
		for _, c := range t.comments {
			if c.dbID != id {
				continue
			}
			reply := st.addThreadComment(t, st.newReview(t.pull, Review{Author: st.viewer, State: "COMMENTED"}), "", in.Body)
			return http.StatusCreated, reviewCommentJSON(st, rp, t, reply)
		}
	}
	return http.StatusNotFound, errNotFoundREST
}
