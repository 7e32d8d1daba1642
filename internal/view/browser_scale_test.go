package view

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/results"
)

// scaleJobs is the size of the run TestViewerInChromiumAtScaleAndLive
// loads: the 10^5.
const scaleJobs = 100_000

// lineMaker makes job i's record line (jobOf's job) from one encoded
// template per residue of i mod 21 (jobOf's statuses repeat with it), so
// that 10^5 lines take a fraction of a second to write.
type lineMaker [21][]byte

func newLineMaker(t testing.TB) *lineMaker {
	t.Helper()
	var m lineMaker
	for r := range m {
		j := jobOf(r)
		j.ID, j.Index, j.DurationMS = "greet/cQQQQ/run-1", 987654321, 123456.5
		j.Params = map[string]any{"run[0].input": "hello QQQQ"}
		j.Transcript[0].Text, j.Transcript[1].Text = "hello QQQQ", "reply number QQQQ"
		b, err := results.AppendJob(nil, j)
		require.NoError(t, err)
		require.Equal(t, 1, bytes.Count(b, []byte("987654321")))
		require.Equal(t, 1, bytes.Count(b, []byte("123456.5")))
		m[r] = b
	}
	return &m
}

// line is job i's record line, with its newline.
func (m *lineMaker) line(i int) []byte {
	n := []byte(strconv.Itoa(i))
	b := bytes.ReplaceAll(m[i%21], []byte("QQQQ"), n)
	b = bytes.Replace(b, []byte("987654321"), n, 1)
	b = bytes.Replace(b, []byte("123456.5"), strconv.AppendFloat(nil, float64(i%100)+0.5, 'f', -1, 64), 1)
	return append(b, '\n')
}

// appendJobs appends jobs [from, to) to the results file at path.
func (m *lineMaker) appendJobs(t testing.TB, path string, from, to int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	require.NoError(t, err)
	var buf []byte
	for i := from; i < to; i++ {
		buf = append(buf, m.line(i)...)
		if len(buf) > 1<<20 {
			_, err = f.Write(buf)
			require.NoError(t, err)
			buf = buf[:0]
		}
	}
	_, err = f.Write(buf)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// The page in real Chromium over a 10^5-job run and a run still being
// written, at 1280 and 390 px: the big run's first page, a status filter,
// a parameter value among 10^5, its last page, a sort and a text search
// (all answered by the server: the page only ever holds 50 rows), a job
// opened from the table; the live run's jobs appearing as its file grows
// (also after its writer paused), with its progress, and the run shown as
// finished once its last job is in. 10^5 jobs take ~12 s of CPU under
// -race (about a minute of wall time at load 25).
func TestViewerInChromiumAtScaleAndLive(t *testing.T) {
	t.Parallel()
	bin := testtool.Need(t, "chromium")
	dir := t.TempDir()
	m := newLineMaker(t)
	big := filepath.Join(dir, "big", "results.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(big), 0o755))
	require.NoError(t, os.WriteFile(big, planLine(t, "big", scaleJobs), 0o644))
	m.appendJobs(t, big, 0, scaleJobs)
	live := filepath.Join(dir, "live", "results.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(live), 0o755))
	require.NoError(t, os.WriteFile(live, planLine(t, "live", 60), 0o644))
	m.appendJobs(t, live, 0, 10)
	incomplete, failed := 0, 0
	for i := range scaleJobs {
		switch {
		case i%7 == 6:
			incomplete++
		case i%3 == 2:
			failed++
		}
	}

	_, base := serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	tab, err := testtool.StartChromium(t, bin).NewPage(ctx)
	require.NoError(t, err)
	wait := func(script string) string {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		out, err := tab.WaitFor(wctx, script)
		require.NoError(t, err, script)
		return out
	}
	do := func(script string) {
		t.Helper()
		_, err := tab.Eval(ctx, "(() => { "+script+"; return 'ok' })()")
		require.NoError(t, err)
	}
	// rows waits for the page of hash to be shown with n rows, and returns its count line.
	rows := func(hash string, n int) string {
		t.Helper()
		do("location.hash = " + strconv.Quote(hash))
		return wait("document.body.dataset.shown === location.hash && document.querySelectorAll('tr.job').length === " + strconv.Itoa(n) + " ? document.querySelector('.count').textContent : ''")
	}
	firstID := "document.querySelector('tr.job').dataset.id"
	lastID := "[...document.querySelectorAll('tr.job')].pop().dataset.id"
	noOverflow := func(width int, where string) {
		t.Helper()
		w := wait("String(document.documentElement.scrollWidth)")
		wider := ""
		if atoi(t, w) > width {
			wider = wait("JSON.stringify([...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > " + strconv.Itoa(width) + ").slice(0, 8).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' ' + (e.textContent || '').slice(0, 40)))")
		}
		assert.LessOrEqual(t, atoi(t, w), width, "%d px, %s: the page is no wider than the viewport; wider: %s", width, where, wider)
	}
	// grown is how many live jobs are written so far.
	grown := 10
	for _, width := range []int{1280, 390} {
		require.NoError(t, tab.Load(ctx, base+"/?width="+strconv.Itoa(width)+"#/", width, 900, width < 600))
		assert.Contains(t, wait(`document.querySelector('[data-run="big"]') ? document.querySelector('[data-run="big"] .figures').innerText : ''`), strconv.Itoa(scaleJobs)+" / "+strconv.Itoa(scaleJobs))

		// The big run.
		assert.Equal(t, "100000 job(s), 1–50", rows("#/run/big", 50))
		assert.Equal(t, "greet/c0/run-1", wait(firstID))
		assert.Contains(t, wait("document.querySelector('.groups') ? document.querySelector('.groups').textContent : ''"),
			strconv.Itoa(failed)+` job(s): string_contains: reply does not contain "bye"`, "identical failures grouped across 10^5 jobs")
		noOverflow(width, "10^5 jobs")
		assert.Equal(t, strconv.Itoa(incomplete)+" job(s), 1–50", rows("#/run/big?status=incomplete", 50))
		assert.Equal(t, "greet/c6/run-1", wait(firstID))
		assert.Equal(t, "1 job(s), 1–1", rows("#/run/big?p:run[0].input="+"run[0].input=hello 77777", 1), "one parameter value of 10^5")
		assert.Equal(t, "greet/c77777/run-1", wait(firstID))
		assert.Equal(t, "100000 job(s), 99951–100000", rows("#/run/big?offset=99950", 50), "the last page")
		assert.Equal(t, "greet/c99999/run-1", wait(lastID))
		rows("#/run/big?sort=duration&desc=1", 50)
		assert.Regexp(t, `^greet/c\d*99/run-1$`, wait(firstID), "the slowest first (duration 99.5 ms)")
		assert.Contains(t, rows("#/run/big?q=reply%20number%2012", 50), "job(s), 1–50")
		assert.Equal(t, "greet/c12/run-1", wait(firstID), "a text search, in the run's order")
		do("document.querySelector('tr.job').click()")
		text := wait("document.body.dataset.shown === location.hash && document.querySelector('.transcript') ? document.getElementById('main').innerText : ''")
		assert.Contains(t, text, "reply number 12", "the job opened from the table")
		noOverflow(width, "a job of 10^5")

		// The live run: jobs appear as its file grows. The first time, only
		// once its writer has paused long enough (10 s) for the server to no
		// longer call it live, as a slow agent's run does between jobs: an
		// unfinished run is followed all the same.
		if width == 1280 {
			wait("fetch('/api/runs').then((r) => r.json()).then((rs) => rs.find((r) => r.id === 'live').live ? '' : 'paused')")
		}
		count := rows("#/run/live", grown)
		assert.Equal(t, strconv.Itoa(grown)+" job(s), 1–"+strconv.Itoa(grown), count)
		assert.Contains(t, wait("document.querySelector('.figures').innerText"), strconv.Itoa(grown)+" / 60")
		m.appendJobs(t, live, grown, grown+15)
		grown += 15
		// No navigation: the page refreshes itself while the run is live.
		wait("document.querySelectorAll('tr.job').length === " + strconv.Itoa(grown) + " ? 'ok' : ''")
		figures := wait("document.querySelector('.figures').innerText")
		assert.Contains(t, figures, strconv.Itoa(grown)+" / 60", "its progress")
		assert.Contains(t, figures, "live")
		assert.Equal(t, "greet/c"+strconv.Itoa(grown-1)+"/run-1", wait(lastID), "the newest job")
		noOverflow(width, "a live run")
	}
	// The rest of the live run: once every job is in, it is no longer live.
	m.appendJobs(t, live, grown, 60)
	wait("document.querySelectorAll('tr.job').length === 50 && document.querySelector('.count').textContent === '60 job(s), 1–50' ? 'ok' : ''")
	wait("document.querySelector('.figures').innerText.includes('60 / 60') && !document.querySelector('.figures .live') ? 'ok' : ''")
}
