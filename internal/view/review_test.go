package view

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/labels"
)

// post sends a label request with the given headers.
func post(t *testing.T, u, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// A person labels a job: the review goes to labels.jsonl beside the
// results (never into them), only from the viewer's own page (its Origin,
// the token, JSON), and the job and its row show it; a withdrawn review
// goes away. A label the page did not send is refused.
func TestLabelAJob(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeResults(t, dir, "r", 10, nil)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	_, base := serve(t, dir)
	var sess struct{ Token string }
	get(t, base+"/api/session", &sess)
	require.Len(t, sess.Token, 32)
	ok := map[string]string{"Origin": base, "Content-Type": "application/json", tokenHeader: sess.Token, "Sec-Fetch-Site": "same-origin"}
	body := `{"run":"r","id":"greet/c2/run-1","index":2,"verdict":"pass","note":"bye is not needed here"}`
	without := func(k string) map[string]string {
		h := map[string]string{}
		for kk, v := range ok {
			if kk != k {
				h[kk] = v
			}
		}
		return h
	}
	for _, tc := range []struct {
		name string
		hdr  map[string]string
		body string
		code int
	}{
		{"no token", without(tokenHeader), body, http.StatusForbidden},
		{"wrong token", map[string]string{"Origin": base, "Content-Type": "application/json", tokenHeader: strings.Repeat("0", 32)}, body, http.StatusForbidden},
		{"no Origin", without("Origin"), body, http.StatusForbidden},
		{"foreign Origin", map[string]string{"Origin": "http://attacker.example", "Content-Type": "application/json", tokenHeader: sess.Token}, body, http.StatusForbidden},
		{"cross-site fetch", map[string]string{"Origin": base, "Content-Type": "application/json", tokenHeader: sess.Token, "Sec-Fetch-Site": "cross-site"}, body, http.StatusForbidden},
		{"a form, not JSON", map[string]string{"Origin": base, "Content-Type": "text/plain", tokenHeader: sess.Token}, body, http.StatusUnsupportedMediaType},
		{"bad verdict", ok, strings.Replace(body, `"pass"`, `"maybe"`, 1), http.StatusBadRequest},
		{"unknown job", ok, strings.Replace(body, `c2/run-1","index":2`, `c99/run-1","index":99`, 1), http.StatusNotFound},
		{"unknown run", ok, strings.Replace(body, `"run":"r"`, `"run":"nope"`, 1), http.StatusNotFound},
	} {
		code, msg := post(t, base+"/api/label", tc.body, tc.hdr)
		assert.Equal(t, tc.code, code, "%s: %s", tc.name, msg)
	}
	_, err = os.Stat(filepath.Join(dir, labels.FileName))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing refused was written")
	code, _ := post(t, base+"/api/runs", "{}", ok)
	assert.Equal(t, http.StatusMethodNotAllowed, code, "no other request writes")

	code, msg := post(t, base+"/api/label", body, ok)
	require.Equal(t, http.StatusOK, code, msg)
	ls, err := labels.Read(filepath.Join(dir, labels.FileName))
	require.NoError(t, err)
	require.Contains(t, ls, "greet/c2/run-1")
	assert.Equal(t, "pass", ls["greet/c2/run-1"].Verdict)
	assert.Equal(t, "r", ls["greet/c2/run-1"].RunID)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after, "results.jsonl is never written")

	var j struct {
		Passed bool
		Review *labels.Label
	}
	get(t, base+"/api/job?run=r&id=greet/c2/run-1&index=2", &j)
	assert.False(t, j.Passed, "the record keeps the run's verdict")
	require.NotNil(t, j.Review)
	assert.Equal(t, "bye is not needed here", j.Review.Note)
	var p page
	get(t, base+"/api/jobs?run=r&limit=5", &p)
	assert.Equal(t, "pass", p.Rows[2].Review)
	assert.Empty(t, p.Rows[1].Review)

	// A new viewer reads the labels back; a withdrawn review is gone.
	_, base2 := serve(t, dir)
	get(t, base2+"/api/job?run=r&id=greet/c2/run-1&index=2", &j)
	require.NotNil(t, j.Review)
	get(t, base2+"/api/session", &sess)
	ok[tokenHeader], ok["Origin"] = sess.Token, base2
	code, msg = post(t, base2+"/api/label", strings.Replace(body, `"pass"`, `""`, 1), ok)
	require.Equal(t, http.StatusOK, code, msg)
	j.Review = nil
	get(t, base2+"/api/job?run=r&id=greet/c2/run-1&index=2", &j)
	assert.Nil(t, j.Review)
}
