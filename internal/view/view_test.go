package view

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

func get(t *testing.T, u string, out any) {
	t.Helper()
	res, err := http.Get(u)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(b))
	require.NoError(t, json.Unmarshal(b, out))
}

func TestJobsAreFilteredSortedAndPagedOnTheServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, dir, "r1", 100, nil)
	_, base := serve(t, dir)

	var runs []summary
	get(t, base+"/api/runs", &runs)
	require.Len(t, runs, 1)
	r := runs[0]
	assert.Equal(t, "r1", r.ID)
	assert.Equal(t, 100, r.Recorded)
	assert.EqualValues(t, 100, r.TotalJobs)
	// i%7==6 incomplete (14), else i%3==2 failed (29 of the rest), else passed.
	assert.Equal(t, 14, r.Incomplete)
	assert.Equal(t, 29, r.Failed)
	assert.Equal(t, 57, r.Passed)

	var p page
	get(t, base+"/api/jobs?run=r1&limit=10", &p)
	assert.Equal(t, 100, p.Total)
	require.Len(t, p.Rows, 10)
	assert.Equal(t, "greet/c0/run-1", p.Rows[0].ID)
	assert.Equal(t, map[string]any{"run[0].input": "hello 0"}, p.Rows[0].Params)

	get(t, base+"/api/jobs?run=r1&status=failed&limit=5&offset=5", &p)
	assert.Equal(t, 29, p.Total)
	require.Len(t, p.Rows, 5)
	for _, rw := range p.Rows {
		assert.Equal(t, "failed", rw.Status)
		assert.Equal(t, `string_contains: reply does not contain "bye"`, rw.Why)
	}

	get(t, base+"/api/jobs?run=r1&sort=duration&desc=1&limit=1", &p)
	assert.Equal(t, 99.5, p.Rows[0].DurationMS)

	get(t, base+"/api/jobs?run=r1&q="+url.QueryEscape("REPLY NUMBER 42"), &p)
	require.Equal(t, 1, p.Total, "search is case-insensitive, over the record's text")
	assert.Equal(t, "greet/c42/run-1", p.Rows[0].ID)

	get(t, base+"/api/jobs?run=r1&why="+url.QueryEscape("incomplete (agent_crash): step 0 (input): agent panicked: boom"), &p)
	assert.Equal(t, 14, p.Total)

	var gs []group
	get(t, base+"/api/groups?run=r1", &gs)
	require.Len(t, gs, 2)
	assert.Equal(t, group{Why: `string_contains: reply does not contain "bye"`, Status: "failed", Jobs: 29, Example: "greet/c2/run-1",
		IDs: []string{"greet/c2/run-1", "greet/c5/run-1", "greet/c8/run-1"}}, gs[0])
	assert.Equal(t, 14, gs[1].Jobs)

	var j results.Job
	get(t, base+"/api/job?run=r1&id=greet/c6/run-1&index=6", &j)
	assert.Equal(t, "panic: boom\n\ngoroutine 7 [running]:\nmain.reply()", j.Crash)
	get(t, base+"/api/job?run=r1&id=greet/c6/run-1", &j) // without its index: found by id
	assert.Equal(t, "greet/c6/run-1", j.ID)
	res, err := http.Get(base + "/api/job?run=r1&id=nope")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
}

func TestShardsOfOneRunAreMergedAndALaterRecordWins(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, filepath.Join(dir, "shard-1"), "r", 10, nil)
	path := writeResults(t, filepath.Join(dir, "shard-2"), "r", 10, func(j *results.Job) { j.Index += 10; j.ID = strings.Replace(j.ID, "/c", "/d", 1) })
	// A retry appends job 12's new record: the later one counts.
	j := jobOf(2)
	j.Index, j.ID, j.Passed, j.Score, j.Reason = 12, "greet/d2/run-1", true, 1, "passed on retry"
	j.Evaluations[0].Passed = true
	line, err := results.AppendJob(nil, j)
	require.NoError(t, err)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.Write(append(line, '\n'))
	require.NoError(t, err)
	require.NoError(t, f.Close())

	_, base := serve(t, dir)
	var runs []summary
	get(t, base+"/api/runs", &runs)
	require.Len(t, runs, 1, "one run, two shards")
	assert.Len(t, runs[0].Files, 2)
	assert.Equal(t, 20, runs[0].Recorded)
	assert.Equal(t, 12+1, runs[0].Passed, "job 12 passed on retry")
	var got results.Job
	get(t, base+"/api/job?run=r&id=greet/d2/run-1&index=12", &got)
	assert.Equal(t, "passed on retry", got.Reason)
}

// A run still writing: new records appear within the poll, a torn last
// line waits for its newline.
func TestALiveRunGrows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeResults(t, dir, "live", 3, nil)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	// The plan says 3 jobs, but the file claims more are coming: write a
	// fourth, torn.
	line, err := results.AppendJob(nil, jobOf(3))
	require.NoError(t, err)
	_, err = f.Write(line[:20])
	require.NoError(t, err)
	_, base := serve(t, dir)
	var p page
	get(t, base+"/api/jobs?run=live", &p)
	assert.Equal(t, 3, p.Total, "a torn line is not a record yet")
	_, err = f.Write(append(line[20:], '\n'))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		get(t, base+"/api/jobs?run=live", &p)
		return p.Total == 4
	}, 5*time.Second, 20*time.Millisecond)
	// A new results folder appears too.
	writeResults(t, filepath.Join(dir, "other"), "second", 2, nil)
	require.Eventually(t, func() bool {
		var runs []summary
		get(t, base+"/api/runs", &runs)
		return len(runs) == 2
	}, 5*time.Second, 20*time.Millisecond)
}

func TestCompareAJobAcrossRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, filepath.Join(dir, "base"), "base", 10, nil)
	writeResults(t, filepath.Join(dir, "cand"), "cand", 10, func(j *results.Job) {
		if j.Index == 3 {
			j.Passed, j.Reason = false, "regressed"
		}
	})
	_, base := serve(t, dir)
	var c struct {
		A, B *results.Job
	}
	get(t, base+"/api/compare?a=base&b=cand&id=greet/c3/run-1&index=3", &c)
	require.NotNil(t, c.A)
	require.NotNil(t, c.B)
	assert.True(t, c.A.Passed)
	assert.False(t, c.B.Passed)
	assert.Equal(t, "regressed", c.B.Reason)
}

func TestServerRefusesForeignHostsOriginsAndWrites(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeResults(t, dir, "r", 3, func(j *results.Job) { j.Transcript[1].Text = `<script>alert("x")</script>` })
	_, base := serve(t, dir)
	do := func(method, path string, hdr map[string]string) (int, string) {
		req, err := http.NewRequest(method, base+path, nil)
		require.NoError(t, err)
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, _ := do("GET", "/api/runs", map[string]string{"Host": "attacker.example:80"})
	assert.Equal(t, http.StatusForbidden, code, "DNS rebinding: a foreign Host")
	code, _ = do("GET", "/api/runs", map[string]string{"Origin": "http://attacker.example"})
	assert.Equal(t, http.StatusForbidden, code, "a foreign Origin")
	code, _ = do("POST", "/api/runs", nil)
	assert.NotEqual(t, http.StatusOK, code)
	u, _ := url.Parse(base)
	code, _ = do("GET", "/api/runs", map[string]string{"Host": "localhost:" + u.Port()})
	assert.Equal(t, http.StatusOK, code, "localhost names the loopback address")
	code, body := do("GET", "/api/job?run=r&id=greet/c0/run-1&index=0", nil)
	require.Equal(t, http.StatusOK, code)
	assert.NotContains(t, body, "<script>", "markup in a record reaches the page only escaped")
	assert.Contains(t, body, `\u003cscript\u003e`)
	code, page := do("GET", "/", nil)
	require.Equal(t, http.StatusOK, code)
	assert.NotContains(t, page, "http://", "no external references")
	assert.NotContains(t, page, "https://")
}

func TestSecretsAreMasked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const secret = "sk-viewer-secret-0123456789"
	writeResults(t, dir, "r", 2, func(j *results.Job) { j.AgentLog = "token " + secret })
	red := redact.New(secret)
	s, err := New(Options{Paths: []string{dir}, Redactor: red})
	require.NoError(t, err)
	defer s.Close()
	j, err := s.runs[0].job("greet/c0/run-1", 0)
	require.NoError(t, err)
	assert.NotContains(t, j.AgentLog, secret)
	p, err := s.runs[0].query(query{Text: secret, Limit: 10})
	require.NoError(t, err)
	assert.Zero(t, p.Total, "a search cannot probe for a secret")
}

func TestNewRefusesPathsWithoutResults(t *testing.T) {
	t.Parallel()
	_, err := New(Options{Paths: []string{t.TempDir()}})
	assert.ErrorContains(t, err, "no results file (results.jsonl) under")
	_, err = New(Options{Paths: []string{filepath.Join(t.TempDir(), "missing")}})
	assert.ErrorContains(t, err, "no such file")
}
