//go:build unix

package view

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/results"
)

// dumpDOM loads url in headless Chromium at the given width, lets its
// scripts run and returns the document as the page built it.
func dumpDOM(t *testing.T, bin, url string, width int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--user-data-dir="+t.TempDir(), "--window-size="+strconv.Itoa(width)+",900", "--virtual-time-budget=10000", "--dump-dom", url)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers left behind
	require.NoError(t, err, "chromium: %s", stderr.String())
	return string(out)
}

// The page in a real browser: the runs list, the jobs table with the
// reasons grouped, a filter, a job opened as a conversation with its tool
// call and crash, two runs side by side; a hostile reply shows as text.
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
	_, base := serve(t, dir)
	for _, width := range []int{1280, 390} {
		if width < 1280 && testing.Short() {
			continue
		}
		dom := dumpDOM(t, bin, base+"/#/", width)
		assert.Contains(t, dom, `data-run="base"`, "the runs list")
		assert.Contains(t, dom, `data-run="cand"`)

		dom = dumpDOM(t, bin, base+"/#/run/base", width)
		assert.Contains(t, dom, `<tr class="job" data-id="greet/c0/run-1">`, "the jobs table renders")
		assert.Equal(t, 40, strings.Count(dom, `<tr class="job"`))
		assert.Contains(t, dom, "Why jobs did not pass")
		assert.Contains(t, dom, `12 job(s)`, "identical failures grouped with their count")
		assert.Contains(t, dom, `string_contains: reply does not contain "bye"`)

		dom = dumpDOM(t, bin, base+"/#/run/base?status=incomplete", width)
		assert.Equal(t, 5, strings.Count(dom, `<tr class="job"`), "filtered on the server")
		assert.Contains(t, dom, "5 job(s), 1–5")

		dom = dumpDOM(t, bin, base+"/#/job/base/6/greet%2Fc6%2Frun-1", width)
		assert.Contains(t, dom, "<pre>hello 6</pre>", "the job opens, its transcript a conversation")
		assert.Contains(t, dom, "&lt;script&gt;document.title=", "a hostile reply is text")
		assert.NotContains(t, dom, "<title>pwned</title>")
		assert.Contains(t, dom, "panic: boom", "the crash")
		assert.Contains(t, dom, `<code>lookup</code>`, "the tool call")
		assert.Contains(t, dom, "Compare with another run")

		dom = dumpDOM(t, bin, base+"/#/compare/base/cand/0/greet%2Fc0%2Frun-1", width)
		assert.Contains(t, dom, "regression: passed → failed")
		assert.Contains(t, dom, "regressed in the candidate")
	}
}
