package view

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/labels"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/results"
)

// The page in a real browser (headless Chromium over the DevTools
// protocol), at 1280 and 390 px: the runs list; the jobs table with the
// reasons grouped, filtered by status, by a parameter value and by a
// failing evaluation through its selects; a job opened as a conversation
// (a hostile reply shown as text), labelled through its review form (the
// label lands in labels.jsonl); one combination side by side across agents
// and repetitions with its regressions, then "different only"; two runs
// compared. Nothing overflows the viewport sideways.
func TestViewerInChromium(t *testing.T) {
	t.Parallel()
	bin := testtool.Need(t, "chromium")
	dir := t.TempDir()
	writeResults(t, dir+"/base", "base", 40, func(j *results.Job) {
		if j.Index == 6 {
			j.Transcript[1].Text = `<script>document.title="pwned"</script><img src=x onerror=alert(1)>`
		}
	})
	writeResults(t, dir+"/cand", "cand", 40, func(j *results.Job) {
		if j.Index == 0 {
			j.Passed, j.Reason = false, "regressed in the candidate"
		}
	})
	writeResults(t, dir+"/suite", "suite", 32, suiteJob)
	_, base := serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	tab, err := testtool.StartChromium(t, bin).NewPage(ctx)
	require.NoError(t, err)
	wait := func(script string) string {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		out, err := tab.WaitFor(wctx, script)
		require.NoError(t, err)
		return out
	}
	do := func(script string) {
		t.Helper()
		_, err := tab.Eval(ctx, "(() => { "+script+"; return 'ok' })()")
		require.NoError(t, err)
	}
	rows := func(n int) string {
		return "document.body.dataset.shown === location.hash && document.querySelectorAll('tr.job').length === " + strconv.Itoa(n) + " ? document.querySelector('.count').textContent : ''"
	}
	choose := func(name, value string) {
		t.Helper()
		do("const s = document.querySelector('select[name=" + strconv.Quote(name) + "]'); s.value = " + strconv.Quote(value) + "; s.dispatchEvent(new Event('change'))")
	}
	noOverflow := func(width int, where string) {
		t.Helper()
		w := wait("String(document.documentElement.scrollWidth)")
		assert.LessOrEqual(t, atoi(t, w), width, "%d px, %s: the page is no wider than the viewport", width, where)
	}
	labelsPath := filepath.Join(dir, "base", labels.FileName)
	for _, width := range []int{1280, 390} {
		require.NoError(t, tab.Load(ctx, base+"/?width="+strconv.Itoa(width)+"#/", width, 900, width < 600))
		wait(`document.querySelector('[data-run="base"]') && document.querySelector('[data-run="suite"]') ? 'ok' : ''`)

		// The jobs table, its groups and filters.
		do("location.hash = '#/run/base'")
		wait(rows(40))
		assert.Contains(t, wait("document.querySelector('.groups') ? document.querySelector('.groups').textContent : ''"), `12 job(s): string_contains: reply does not contain "bye"`)
		noOverflow(width, "jobs")
		choose("status", "incomplete")
		assert.Equal(t, "5 job(s), 1–5", wait(rows(5)), "filtered on the server")
		choose("status", "")
		wait(rows(40))
		choose("p:run[0].input", "run[0].input=hello 6")
		assert.Equal(t, "1 job(s), 1–1", wait(rows(1)), "a parameter value")
		assert.Equal(t, "greet/c6/run-1", wait("document.querySelector('tr.job').dataset.id"))
		do("location.hash = '#/run/base'")
		wait(rows(40))
		choose("failing", "string_contains")
		assert.Equal(t, "12 job(s), 1–12", wait(rows(12)), "a failing evaluation")

		// A job, and its review.
		do("location.hash = '#/job/base/6/' + encodeURIComponent('greet/c6/run-1')")
		text := wait("document.body.dataset.shown === location.hash && document.querySelector('.transcript') ? document.getElementById('main').innerText : ''")
		assert.Contains(t, text, "hello 6", "the transcript as a conversation")
		assert.Contains(t, text, `<script>document.title="pwned"</script>`, "a hostile reply is text")
		assert.Contains(t, text, "panic: boom", "the crash")
		assert.NotEqual(t, "pwned", wait("document.title"))
		noOverflow(width, "job")
		note := "wrong at " + strconv.Itoa(width) + " px"
		do("document.querySelector('#review textarea').value = " + strconv.Quote(note) + "; document.querySelector('#review button[name=fail]').click()")
		assert.Contains(t, wait("((document.querySelector('#review .reviewed') || {}).textContent || '').includes("+strconv.Quote(note)+") ? document.querySelector('#review .reviewed').textContent : ''"), "Reviewed: fail — "+note)
		ls, err := labels.Read(labelsPath)
		require.NoError(t, err)
		assert.Equal(t, labels.Label{ID: "greet/c6/run-1", Verdict: "fail", Note: note, RunID: "base", At: ls["greet/c6/run-1"].At}, ls["greet/c6/run-1"], "the label is on disk")
		do("location.hash = '#/run/base?review=fail'")
		wait(rows(1))
		assert.Contains(t, wait("document.querySelector('tr.job .badge').textContent"), "reviewed: fail")

		// One combination across agents and repetitions.
		do("location.hash = '#/side/suite/0/' + encodeURIComponent('a/m1/greet/c-0/run-1')")
		wait("document.body.dataset.shown === location.hash && document.querySelectorAll('table.side-table thead th').length === 9 ? 'ok' : ''")
		assert.Equal(t, "4 regression(s) against the first job", wait("document.getElementById('regressions').textContent"))
		assert.Equal(t, "4", wait("String(document.querySelectorAll('th[data-versus=regression]').length)"))
		assert.Equal(t, "1", wait("String(document.querySelectorAll('tr[data-regression]').length)"), "agent b's drop is significant, as report compare would decide")
		facts := wait("JSON.stringify([...document.querySelectorAll('table.side-table tbody tr')].map((r) => r.dataset.fact))")
		assert.Contains(t, facts, `"Run"`)
		do("document.querySelector('input[name=diff]').click()")
		facts = wait("document.body.dataset.shown.endsWith('diff=1') ? JSON.stringify([...document.querySelectorAll('table.side-table tbody tr')].map((r) => r.dataset.fact)) : ''")
		var shown []string
		require.NoError(t, json.Unmarshal([]byte(facts), &shown))
		assert.NotContains(t, shown, "Run", "different only: the same run everywhere is hidden")
		assert.Contains(t, shown, "Agent · model")
		assert.Contains(t, shown, "tool_called · step 0")
		noOverflow(width, "side by side")

		// Two runs.
		do("location.hash = '#/compare/base/cand/0/' + encodeURIComponent('greet/c0/run-1')")
		assert.Contains(t, wait("document.body.dataset.shown === location.hash && document.querySelector('.side') ? document.getElementById('main').innerText : ''"), "regression: passed → failed")
	}
	b, err := os.ReadFile(labelsPath)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(b), "\n"), "one line per review")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}
