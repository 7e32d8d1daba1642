package github

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Log limits follow the ghx handlers: 50,000 characters of log, at most 10
// error lines in a summary.
const (
	maxLogChars      = 50_000
	maxTopErrorLines = 10
	// maxLogBytes bounds the download; a character is at most 4 bytes.
	maxLogBytes = 4 * maxLogChars
)

var (
	errorLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\berror\b`) })
	warningLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bwarn(ing)?\b`) })
)

func workflowTasks() []taskDef {
	runID := param{name: "runId", kind: kindInt, required: true, aliases: []string{"run_id", "id"}, desc: "workflow run ID"}
	jobID := param{name: "jobId", kind: kindInt, required: true, aliases: []string{"job_id", "id"}, desc: "workflow job ID"}
	return []taskDef{
		{
			name: "workflow.list", desc: "List repository workflows.",
			params: []param{pOwner(), pName(), pFirst()},
			output: "{items[{id, name, path, state}], pageInfo{hasNextPage, endCursor:null}}",
			run:    workflowList,
		},
		{
			name: "workflow.view", desc: "View one workflow by ID, file name or name.",
			params: []param{pOwner(), pName(), {name: "workflowId", kind: kindStringOrInt, required: true, aliases: []string{"workflow", "id"}, desc: "workflow ID, file name (ci.yml) or name"}},
			output: "{id, name, path, state, url}",
			run:    workflowView,
		},
		{
			name: "workflow.runs.list", desc: "List workflow runs, newest first.",
			params: []param{pOwner(), pName(), pFirst(),
				{name: "branch", kind: kindString, desc: "only runs on this branch"},
				{name: "event", kind: kindString, desc: "only runs triggered by this event"},
				{name: "status", kind: kindString, desc: "only runs with this status or conclusion"}},
			output: "{items[{id, workflowName, status, conclusion, headBranch, url}], pageInfo{hasNextPage, endCursor:null}}",
			run:    workflowRunsList,
		},
		{
			name: "workflow.run.view", desc: "View a workflow run with its jobs.",
			params: []param{pOwner(), pName(), runID},
			output: "{id, workflowName, status, conclusion, headBranch, headSha, event, createdAt, updatedAt, startedAt, url, attempt, jobs[{id, name, status, conclusion, startedAt, completedAt, url}]}",
			run:    workflowRunView,
		},
		{
			name: "workflow.run.artifacts.list", desc: "List artifacts of a workflow run.",
			params: []param{pOwner(), pName(), runID},
			output: "{items[{id, name, sizeInBytes, archiveDownloadUrl}], pageInfo{hasNextPage, endCursor:null}}",
			run:    workflowRunArtifacts,
		},
		{
			name: "workflow.job.logs.view", desc: "Fetch a job's log and summarise its error and warning lines.",
			params: []param{pOwner(), pName(), jobID},
			output: "{jobId, truncated, summary{errorCount, warningCount, topErrorLines[]}}",
			run:    workflowJobLogsView,
		},
		{
			name: "workflow.job.logs.raw", desc: "Fetch a job's raw log (at most 50,000 characters).",
			params: []param{pOwner(), pName(), jobID},
			output: "{jobId, log, truncated}",
			run:    workflowJobLogsRaw,
		},
	}
}

type restWorkflow struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Path    string `json:"path"`
	State   string `json:"state"`
	HTMLURL string `json:"html_url"`
}

// restPages fetches up to want items (0: all, up to the page cap) from a
// paginated REST list; decode extracts one page's items and the total.
func restPages[T any](ctx context.Context, c *call, path string, q url.Values, want int,
	decode func(ctx context.Context, path string, q url.Values) ([]T, bool, error),
) ([]T, bool, error) {
	var items []T
	for pg := 1; pg <= c.e.maxPages; pg++ {
		per := pageSize
		if want > 0 {
			per = min(pageSize, want-len(items))
		}
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		qq.Set("per_page", strconv.Itoa(per))
		qq.Set("page", strconv.Itoa(pg))
		page, more, err := decode(ctx, path, qq)
		if err != nil {
			return nil, false, err
		}
		items = append(items, page...)
		if want > 0 && len(items) >= want {
			return items[:want], more || len(items) > want, nil
		}
		if !more {
			return items, false, nil
		}
		// The requested page size changes with want, so a later page would
		// not line up with earlier ones; only full pages continue.
		if per != pageSize {
			return items, true, nil
		}
	}
	return items, true, nil
}

func workflowList(ctx context.Context, c *call, in args) (any, error) {
	first, _ := in.optInt("first")
	what := "repository " + repoName(in)
	wfs, more, err := restPages(ctx, c, repoPath(in)+"/actions/workflows", nil, first,
		func(ctx context.Context, path string, q url.Values) ([]restWorkflow, bool, error) {
			var page struct {
				Workflows []restWorkflow `json:"workflows"`
			}
			more, err := c.getJSON(ctx, path, q, what, &page)
			return page.Workflows, more, err
		})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(wfs))
	for i, w := range wfs {
		items[i] = map[string]any{"id": w.ID, "name": w.Name, "path": w.Path, "state": w.State}
	}
	return map[string]any{"items": items, "pageInfo": map[string]any{"hasNextPage": more, "endCursor": nil}}, nil
}

// workflowView accepts an ID or a file name (the REST API takes both) or a
// workflow name (looked up in the list, as gh workflow view does).
func workflowView(ctx context.Context, c *call, in args) (any, error) {
	var w restWorkflow
	switch id := in["workflowId"].(type) {
	case int:
		what := fmt.Sprintf("workflow %d in %s", id, repoName(in))
		if _, err := c.getJSON(ctx, repoPath(in)+"/actions/workflows/"+strconv.Itoa(id), nil, what, &w); err != nil {
			return nil, err
		}
	case string:
		what := fmt.Sprintf("workflow %q in %s", id, repoName(in))
		if strings.HasSuffix(id, ".yml") || strings.HasSuffix(id, ".yaml") {
			file := id[strings.LastIndex(id, "/")+1:]
			if _, err := c.getJSON(ctx, repoPath(in)+"/actions/workflows/"+url.PathEscape(file), nil, what, &w); err != nil {
				return nil, err
			}
			break
		}
		all, err := workflowList(ctx, c, args{"owner": in.str("owner"), "name": in.str("name")})
		if err != nil {
			return nil, err
		}
		found := false
		for _, item := range all.(map[string]any)["items"].([]any) {
			m := item.(map[string]any)
			if strings.EqualFold(m["name"].(string), id) {
				wid := m["id"].(int64)
				what := fmt.Sprintf("workflow %d in %s", wid, repoName(in))
				if _, err := c.getJSON(ctx, repoPath(in)+"/actions/workflows/"+strconv.FormatInt(wid, 10), nil, what, &w); err != nil {
					return nil, err
				}
				found = true
				break
			}
		}
		if !found {
			return nil, &Error{Kind: ErrNotFound, Task: c.task, Message: what}
		}
	}
	return map[string]any{"id": w.ID, "name": w.Name, "path": w.Path, "state": w.State, "url": w.HTMLURL}, nil
}

type restRun struct {
	ID           int64   `json:"id"`
	Name         *string `json:"name"`
	Status       *string `json:"status"`
	Conclusion   *string `json:"conclusion"`
	HeadBranch   *string `json:"head_branch"`
	HeadSHA      *string `json:"head_sha"`
	Event        *string `json:"event"`
	CreatedAt    *string `json:"created_at"`
	UpdatedAt    *string `json:"updated_at"`
	RunStartedAt *string `json:"run_started_at"`
	HTMLURL      *string `json:"html_url"`
	RunAttempt   int     `json:"run_attempt"`
}

func workflowRunsList(ctx context.Context, c *call, in args) (any, error) {
	first, _ := in.optInt("first")
	q := url.Values{}
	for _, k := range []string{"branch", "event", "status"} {
		if v := in.str(k); v != "" {
			q.Set(k, v)
		}
	}
	what := "repository " + repoName(in)
	runs, more, err := restPages(ctx, c, repoPath(in)+"/actions/runs", q, first,
		func(ctx context.Context, path string, q url.Values) ([]restRun, bool, error) {
			var page struct {
				Runs []restRun `json:"workflow_runs"`
			}
			more, err := c.getJSON(ctx, path, q, what, &page)
			return page.Runs, more, err
		})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(runs))
	for i, r := range runs {
		items[i] = map[string]any{"id": r.ID, "workflowName": strPtr(r.Name), "status": strPtr(r.Status), "conclusion": strPtr(r.Conclusion),
			"headBranch": strPtr(r.HeadBranch), "url": strPtr(r.HTMLURL)}
	}
	return map[string]any{"items": items, "pageInfo": map[string]any{"hasNextPage": more, "endCursor": nil}}, nil
}

func workflowRunView(ctx context.Context, c *call, in args) (any, error) {
	runPath := repoPath(in) + "/actions/runs/" + strconv.Itoa(in.int("runId"))
	what := fmt.Sprintf("workflow run %d in %s", in.int("runId"), repoName(in))
	var r restRun
	if _, err := c.getJSON(ctx, runPath, nil, what, &r); err != nil {
		return nil, err
	}
	type restJob struct {
		ID          int64   `json:"id"`
		Name        *string `json:"name"`
		Status      *string `json:"status"`
		Conclusion  *string `json:"conclusion"`
		StartedAt   *string `json:"started_at"`
		CompletedAt *string `json:"completed_at"`
		HTMLURL     *string `json:"html_url"`
	}
	jobs, _, err := restPages(ctx, c, runPath+"/jobs", nil, 0,
		func(ctx context.Context, path string, q url.Values) ([]restJob, bool, error) {
			var page struct {
				Jobs []restJob `json:"jobs"`
			}
			more, err := c.getJSON(ctx, path, q, what, &page)
			return page.Jobs, more, err
		})
	if err != nil {
		return nil, err
	}
	jobItems := make([]any, len(jobs))
	for i, j := range jobs {
		jobItems[i] = map[string]any{"id": j.ID, "name": strPtr(j.Name), "status": strPtr(j.Status), "conclusion": strPtr(j.Conclusion),
			"startedAt": strPtr(j.StartedAt), "completedAt": strPtr(j.CompletedAt), "url": strPtr(j.HTMLURL)}
	}
	return map[string]any{
		"id": r.ID, "workflowName": strPtr(r.Name), "status": strPtr(r.Status), "conclusion": strPtr(r.Conclusion),
		"headBranch": strPtr(r.HeadBranch), "headSha": strPtr(r.HeadSHA), "event": strPtr(r.Event),
		"createdAt": strPtr(r.CreatedAt), "updatedAt": strPtr(r.UpdatedAt), "startedAt": strPtr(r.RunStartedAt),
		"url": strPtr(r.HTMLURL), "attempt": max(r.RunAttempt, 1), "jobs": jobItems,
	}, nil
}

func workflowRunArtifacts(ctx context.Context, c *call, in args) (any, error) {
	type restArtifact struct {
		ID                 int64   `json:"id"`
		Name               *string `json:"name"`
		SizeInBytes        *int64  `json:"size_in_bytes"`
		ArchiveDownloadURL *string `json:"archive_download_url"`
	}
	path := repoPath(in) + "/actions/runs/" + strconv.Itoa(in.int("runId")) + "/artifacts"
	what := fmt.Sprintf("workflow run %d in %s", in.int("runId"), repoName(in))
	arts, more, err := restPages(ctx, c, path, nil, 0,
		func(ctx context.Context, path string, q url.Values) ([]restArtifact, bool, error) {
			var page struct {
				Artifacts []restArtifact `json:"artifacts"`
			}
			more, err := c.getJSON(ctx, path, q, what, &page)
			return page.Artifacts, more, err
		})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(arts))
	for i, a := range arts {
		var size any
		if a.SizeInBytes != nil {
			size = *a.SizeInBytes
		}
		items[i] = map[string]any{"id": a.ID, "name": strPtr(a.Name), "sizeInBytes": size, "archiveDownloadUrl": strPtr(a.ArchiveDownloadURL)}
	}
	return map[string]any{"items": items, "pageInfo": map[string]any{"hasNextPage": more, "endCursor": nil}}, nil
}

// jobLog downloads a job's log (GitHub answers with a redirect to blob
// storage, which the client follows) and cuts it to maxLogChars.
func jobLog(ctx context.Context, c *call, in args) (string, bool, error) {
	path := repoPath(in) + "/actions/jobs/" + strconv.Itoa(in.int("jobId")) + "/logs"
	what := fmt.Sprintf("logs of job %d in %s", in.int("jobId"), repoName(in))
	text, more, err := c.getRedirectedText(ctx, path, what, maxLogBytes)
	if err != nil {
		return "", false, err
	}
	if utf8.RuneCountInString(text) > maxLogChars {
		runes := []rune(text)
		return string(runes[:maxLogChars]), true, nil
	}
	return text, more, nil
}

func workflowJobLogsRaw(ctx context.Context, c *call, in args) (any, error) {
	log, truncated, err := jobLog(ctx, c, in)
	if err != nil {
		return nil, err
	}
	return map[string]any{"jobId": in.int("jobId"), "log": log, "truncated": truncated}, nil
}

func workflowJobLogsView(ctx context.Context, c *call, in args) (any, error) {
	log, truncated, err := jobLog(ctx, c, in)
	if err != nil {
		return nil, err
	}
	errorsN, warnings := 0, 0
	top := []any{}
	for _, line := range strings.Split(log, "\n") {
		if errorLine().MatchString(line) {
			errorsN++
			if len(top) < maxTopErrorLines {
				top = append(top, strings.TrimSpace(line))
			}
		}
		if warningLine().MatchString(line) {
			warnings++
		}
	}
	return map[string]any{"jobId": in.int("jobId"), "truncated": truncated,
		"summary": map[string]any{"errorCount": errorsN, "warningCount": warnings, "topErrorLines": top}}, nil
}
