package githubfake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func get(t *testing.T, c *http.Client, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestRequireToken(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	s.AddRepo("acme/demo")
	s.RequireToken("s3cret")
	c := s.Client()
	resp, body := get(t, c, s.URL+"/repos/acme/demo/actions/workflows")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, body, "Requires authentication")
	resp, body = get(t, c, s.URL+"/repos/acme/demo/actions/workflows", "Authorization", "bearer wrong")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, body, "Bad credentials")
	for _, auth := range []string{"bearer s3cret", "token s3cret", "Bearer s3cret"} {
		resp, _ = get(t, c, s.URL+"/repos/acme/demo/actions/workflows", "Authorization", auth)
		assert.Equal(t, http.StatusOK, resp.StatusCode, auth)
	}
	s.RequireToken("")
	resp, _ = get(t, c, s.URL+"/repos/acme/demo/actions/workflows")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestSimulateRateLimit(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	s.AddRepo("acme/demo")
	reset := time.Now().Add(90 * time.Second)
	s.SimulateRateLimit(githubfake.RateLimit{Requests: 2, Status: http.StatusTooManyRequests, Reset: reset, RetryAfter: 1500 * time.Millisecond})
	for i := 0; i < 2; i++ {
		resp, body := get(t, s.Client(), s.URL+"/repos/acme/demo/actions/runs")
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.Equal(t, "0", resp.Header.Get("X-Ratelimit-Remaining"))
		assert.Equal(t, strconv.FormatInt(reset.Unix()+1, 10), resp.Header.Get("X-Ratelimit-Reset"))
		assert.Equal(t, "2", resp.Header.Get("Retry-After"))
		assert.Contains(t, body, "API rate limit exceeded")
	}
	resp, _ := get(t, s.Client(), s.URL+"/repos/acme/demo/actions/runs")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "4999", resp.Header.Get("X-Ratelimit-Remaining"))
	statuses := []int{}
	for _, r := range s.Requests() {
		statuses = append(statuses, r.Status)
	}
	assert.Equal(t, []int{429, 429, 200}, statuses)
}

func TestRESTEndpoints(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/demo")
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h"})
	pr.AddCommit("add", githubfake.File{Path: "x.txt", Content: "a\nb\n"})
	var wfs []int64
	for i := 0; i < 3; i++ {
		wfs = append(wfs, r.AddWorkflow(githubfake.Workflow{Name: "W" + strconv.Itoa(i), Path: ".github/workflows/w" + strconv.Itoa(i) + ".yml"}))
	}
	run := r.AddWorkflowRun(githubfake.WorkflowRun{WorkflowID: wfs[0], Jobs: []githubfake.Job{{Name: "j", Log: "line\n"}}})
	c := s.Client()

	_, diff := get(t, c, s.URL+"/repos/acme/demo/pulls/1", "Accept", "application/vnd.github.diff")
	assert.Equal(t, "diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n", diff)
	_, js := get(t, c, s.URL+"/repos/acme/demo/pulls/1")
	var pull map[string]any
	require.NoError(t, json.Unmarshal([]byte(js), &pull))
	assert.Equal(t, "h", pull["head"].(map[string]any)["ref"])

	resp, body := get(t, c, s.URL+"/repos/acme/demo/actions/workflows?per_page=2")
	assert.Contains(t, resp.Header.Get("Link"), `page=2`)
	assert.Contains(t, resp.Header.Get("Link"), `rel="next"`)
	assert.Contains(t, body, `"total_count":3`)
	resp, _ = get(t, c, s.URL+"/repos/acme/demo/actions/workflows?per_page=2&page=2")
	assert.Empty(t, resp.Header.Get("Link"))
	resp, _ = get(t, c, s.URL+"/repos/acme/demo/actions/workflows/w1.yml")
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	noRedirect := *c
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	jobURL := s.URL + "/repos/acme/demo/actions/jobs/" + strconv.FormatInt(run.Jobs[0].ID, 10) + "/logs"
	resp, _ = get(t, &noRedirect, jobURL)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	_, log := get(t, c, jobURL)
	assert.Equal(t, "line\n", log)

	resp, body = get(t, c, s.URL+"/repos/acme/nope/actions/runs")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Contains(t, body, `"message":"Not Found"`)

	ops := map[string]int{}
	for _, r := range s.Requests() {
		ops[r.Operation]++
	}
	assert.Equal(t, 2, ops["GET /repos/{owner}/{repo}/pulls/{number}"])
	assert.Equal(t, 2, ops["GET /repos/{owner}/{repo}/actions/jobs/{job}/logs"])
	assert.Equal(t, 1, ops["GET /_blobs/jobs/{job}/logs"])
	for op := range ops {
		assert.False(t, strings.Contains(op, "acme"), "operations name routes, not paths: %s", op)
	}
	for _, r := range s.Requests() {
		assert.Empty(t, r.Document, "REST requests carry no document")
	}
}
