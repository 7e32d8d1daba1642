package report

import (
	"bytes"
	"fmt"
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
	assert.Contains(t, page, `<td class="n">12</td><td data-label="Why">llm_judge (polite &lt;and&gt; helpful): reply was curt &amp; unhelpful`)
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
