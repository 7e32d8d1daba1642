package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/labels"
	"github.com/agenteval/agenteval/results"
)

// A person's reviews in labels.jsonl beside the results become the jobs'
// verdicts in every figure and format, each shown as reviewed; the
// results file is left as it was, and IgnoreLabels reports the run's own.
func TestReviewsInLabelsAreApplied(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 4, ShardJobs: 4, Agent: "a"})}
	for i, o := range []string{"pass", "fail", "fail", "error"} {
		lines = append(lines, jobLine(t, simpleJob("greet", i+1, int64(i), o)))
	}
	path := filepath.Join(dir, "results.jsonl")
	text := strings.Join(lines, "\n") + "\n"
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	lp := labels.Beside(path)
	require.NoError(t, labels.Append(lp, labels.Label{ID: "greet/-/run-2", Verdict: labels.Pass, Note: "curt is fine here"}))
	require.NoError(t, labels.Append(lp, labels.Label{ID: "greet/-/run-1", Verdict: labels.Fail, Note: "made up the issue"}))
	require.NoError(t, labels.Append(lp, labels.Label{ID: "greet/-/run-4", Verdict: labels.Fail, Note: "timeouts are failures"}))
	require.NoError(t, labels.Append(lp, labels.Label{ID: "greet/-/run-9", Verdict: labels.Pass}), "a job with no record is ignored")

	r, err := ReadFiles([]string{path}, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close() })
	s := r.Summary()
	assert.Equal(t, int64(3), s.Reviewed)
	assert.Equal(t, 1, s.Totals.Passed, "run-2 passed by review, run-1 failed by review")
	assert.Equal(t, 3, s.Totals.Failed)
	assert.Equal(t, 0, s.Totals.Incomplete, "run-4 reviewed as failed")

	formats := map[string]string{}
	for _, f := range []string{"md", "html", "junit", "json"} {
		var b bytes.Buffer
		require.NoError(t, Write(&b, r, f, WriteOptions{}))
		formats[f] = b.String()
	}
	assert.Contains(t, formats["md"], "| Verdicts reviewed by a person (labels.jsonl) | 3 |")
	assert.Contains(t, formats["md"], "reviewed: failed by a person: made up the issue (the run's verdict: passed)")
	assert.Contains(t, formats["html"], `id="reviewed"`)
	assert.Contains(t, formats["html"], "reviewed: failed by a person: made up the issue")
	assert.Contains(t, formats["junit"], `message="reviewed: failed by a person: made up the issue (the run&#39;s verdict: passed)"`)
	assert.Contains(t, formats["junit"], "verdict (all): reviewed: passed by a person: curt is fine here (the run&#39;s verdict: failed: 1 of 2 evaluations failed)")
	assert.Contains(t, formats["json"], `"reviewed": 3`)

	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, text, string(got), "the results file is never written")

	own, err := ReadFiles([]string{path}, Options{IgnoreLabels: true})
	require.NoError(t, err)
	t.Cleanup(func() { _ = own.Close() })
	assert.Zero(t, own.Summary().Reviewed)
	assert.Equal(t, 1, own.Summary().Totals.Passed)
	assert.Equal(t, 2, own.Summary().Totals.Failed)

	// report compare counts with the reviewed verdicts and says so.
	cmp, err := CompareResults(own, r, CompareOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, cmp.Candidate.Passed)
	for _, f := range []string{"md", "html"} {
		var b bytes.Buffer
		require.NoError(t, WriteComparison(&b, cmp, f))
		assert.Contains(t, b.String(), "Verdicts reviewed by a person (labels.jsonl) count with the person", f)
		assert.Contains(t, b.String(), "0 in the baseline, 3 in the candidate", f)
	}
	var b bytes.Buffer
	require.NoError(t, WriteComparison(&b, cmp, "json"))
	var decoded struct {
		Reviewed  map[string]int64 `json:"reviewed"`
		Candidate Counts           `json:"candidate"`
		Failed    *bool            `json:"failed"`
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &decoded))
	assert.Equal(t, map[string]int64{"baseline": 0, "candidate": 3}, decoded.Reviewed, "json counts the reviewed verdicts too")
	assert.Equal(t, 1, decoded.Candidate.Passed, "beside the comparison's own fields")
	assert.NotNil(t, decoded.Failed)
	b.Reset()
	plain, err := CompareResults(own, own, CompareOptions{})
	require.NoError(t, err)
	require.NoError(t, WriteComparison(&b, plain, "json"))
	assert.NotContains(t, b.String(), `"reviewed"`, "nothing reviewed, nothing said")

	require.NoError(t, os.WriteFile(lp, []byte("{\"id\":\"x\",\"verdict\":\"nope\"}\n"), 0o644))
	_, err = ReadFiles([]string{path}, Options{})
	assert.ErrorContains(t, err, "labels.jsonl:1: verdict: \"nope\"")
}
