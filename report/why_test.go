package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMarkdownSaysWhyGroupingIdenticalFailures: twelve jobs failing the
// same check are one row with their count, not twelve; a crash and a
// second kind of failure get rows of their own, largest first.
func TestMarkdownSaysWhyGroupingIdenticalFailures(t *testing.T) {
	t.Parallel()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 15, ShardJobs: 15, Agent: "a"})}
	for i := range 15 {
		j := simpleJob("greet", i+1, int64(i), "fail")
		switch {
		case i == 12:
			j.Evaluations[1] = results.Evaluation{Type: "string_contains", Scope: "step", Message: "reply does not contain \"hello\"", Weight: 1}
		case i > 12:
			applyOutcome(&j, "pass")
			j.Completed, j.Passed, j.Cause = false, false, results.CauseAgentCrash
			j.Error = "exec agent: KeyError: 'missing'\nTraceback (most recent call last): ..."
			j.Crash = "Traceback (most recent call last): ...\nKeyError: 'missing'"
		}
		lines = append(lines, jobLine(t, j))
	}
	r, err := Read([]Input{input("in", lines...)}, Options{})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, Write(&b, r, "md", WriteOptions{}))
	md := b.String()
	assert.Contains(t, md, "## Why jobs did not pass")
	assert.Contains(t, md, "| 12 | llm_judge (polite &lt;and&gt; helpful): reply was curt & unhelpful | `greet/-/run-1`, `greet/-/run-2`, `greet/-/run-3` and 9 more |")
	assert.Contains(t, md, "| 2 | incomplete (agent_crash): exec agent: KeyError: 'missing' … | `greet/-/run-14`, `greet/-/run-15` |")
	assert.Contains(t, md, "| 1 | string_contains: reply does not contain \"hello\" | `greet/-/run-13` |")
	assert.Less(t, bytes.Index(b.Bytes(), []byte("| 12 | llm")), bytes.Index(b.Bytes(), []byte("| 2 | incomplete")), "largest group first")
	assert.Contains(t, md, "Traceback (most recent call last): ...", "the crash's evidence")

	b.Reset()
	require.NoError(t, Write(&b, r, "html", WriteOptions{}))
	page := b.String()
	assert.Contains(t, page, `<section id="why"><h2>Why jobs did not pass</h2>`)
	assert.Contains(t, page, `">12</a></td><td data-label="Why">llm_judge (polite &lt;and&gt; helpful): reply was curt &amp; unhelpful`)
	assert.Contains(t, page, `<a class="viewer" href="http://127.0.0.1:8731/#/run/r?why=llm_judge&#43;%28polite&#43;%3Cand%3E&#43;helpful%29%3A&#43;reply&#43;was&#43;curt&#43;%26&#43;unhelpful"`, "a reason links to its jobs in the viewer")
	assert.Contains(t, page, `<a class="viewer" href="http://127.0.0.1:8731/#/job/r/0/greet%2F-%2Frun-1" title="open in agenteval view">greet/-/run-1</a>`, "a job links to its page in the viewer")
}

// TestWhyGroupsAreBounded: past maxWhyGroups the rest are counted in one
// sentence, so a run whose every failure differs stays one short page.
func TestWhyGroupsAreBounded(t *testing.T) {
	t.Parallel()
	n := maxWhyGroups + 5
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: int64(n), ShardJobs: int64(n), Agent: "a"})}
	for i := range n {
		j := simpleJob("greet", i+1, int64(i), "fail")
		j.Evaluations[1].Message = fmt.Sprintf("reply was wrong in way %d", i)
		lines = append(lines, jobLine(t, j))
	}
	r, err := Read([]Input{input("in", lines...)}, Options{})
	require.NoError(t, err)
	why, err := r.groupWhy()
	require.NoError(t, err)
	assert.Len(t, why.Groups, maxWhyGroups)
	assert.Equal(t, 5, why.MoreGroups)
	assert.Equal(t, 5, why.MoreJobs)
	var b bytes.Buffer
	require.NoError(t, Write(&b, r, "md", WriteOptions{}))
	assert.Contains(t, b.String(), "5 more job(s) did not pass for 5 other reason(s).")
}

// The HTML report lists the passing jobs too, collapsed until asked for,
// each linked to its page in the viewer, and says where the rest are.
func TestHTMLShowsPassingJobsOnDemand(t *testing.T) {
	t.Parallel()
	lines := []string{planLine(t, results.Plan{RunID: "r", TotalJobs: 1005, ShardJobs: 1005, Agent: "a"})}
	for i := range 1005 {
		o := "pass"
		if i == 3 {
			o = "fail"
		}
		lines = append(lines, jobLine(t, simpleJob("greet", i+1, int64(i), o)))
	}
	r, err := Read([]Input{input("in", lines...)}, Options{})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, Write(&b, r, "html", WriteOptions{ViewerURL: "http://127.0.0.1:9999/"}))
	page := b.String()
	assert.Contains(t, page, `<section id="passing"><details><summary><h2>Passing jobs (1004)</h2></summary>`, "collapsed, not omitted")
	assert.Equal(t, maxPassingJobs, strings.Count(page, `<tr class="pass-job">`))
	assert.Contains(t, page, `<a class="viewer" href="http://127.0.0.1:9999/#/job/r/0/greet%2F-%2Frun-1">greet/-/run-1</a>`)
	assert.NotContains(t, page, `#/job/r/3/greet%2F-%2Frun-4">greet/-/run-4</a></td>`, "a failing job is not among them")
	assert.Contains(t, page, "4 more passing job(s) not listed")
}
