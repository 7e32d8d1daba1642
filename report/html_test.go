package report

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHTMLSelfContained(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteHTML(b, r, HTMLOptions{}) })
	lower := strings.ToLower(out)
	for _, banned := range []string{"http://", "https://", "<script", "<link", "@import", "url(", "src="} {
		assert.NotContains(t, lower, banned)
	}
	assert.Contains(t, out, "&lt;script&gt;alert(1)&lt;/script&gt; hi", "transcripts are escaped")
	assert.Contains(t, out, "reply was curt &amp; unhelpful")
	assert.Contains(t, out, "<svg", "charts are inline SVG")
	assert.Contains(t, out, "Pass rate by plugins[0].model × run[0].conversation.max_turns", "two-parameter matrix gets a heat map")
	assert.Contains(t, out, "1 job(s) have no record: indexes 16")
	assert.Contains(t, out, "triage/cb2/run-3", "the incomplete job is listed")
	assert.Contains(t, out, "agent: connection refused")
}

// TestHTMLMatchesJSON checks every number the chart carries against the
// JSON summary.
func TestHTMLMatchesJSON(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	out := render(t, func(b *bytes.Buffer) error { return WriteHTML(b, r, HTMLOptions{}) })
	var s Summary
	require.NoError(t, json.Unmarshal([]byte(render(t, func(b *bytes.Buffer) error { return WriteJSON(b, r.Summary()) })), &s))

	bars := regexp.MustCompile(`data-key="([^"]+)" data-pass-rate="([^"]+)" data-pass-lower="([^"]+)" data-pass-upper="([^"]+)" data-completion-rate="([^"]+)"`).
		FindAllStringSubmatch(out, -1)
	want := map[string][4]float64{}
	for _, sc := range s.Scenarios {
		for _, c := range sc.Combinations {
			want[c.Key] = [4]float64{c.PassRate, c.PassInterval.Lower, c.PassInterval.Upper, c.CompletionRate}
		}
	}
	require.Len(t, bars, len(want))
	for _, m := range bars {
		key := html.UnescapeString(m[1])
		w, ok := want[key]
		require.True(t, ok, key)
		for i := range 4 {
			got, err := strconv.ParseFloat(m[2+i], 64)
			require.NoError(t, err)
			assert.Equal(t, w[i], got, "%s field %d", key, i)
		}
	}
	totals := regexp.MustCompile(`id="totals" data-runs="(\d+)" data-passed="(\d+)" data-completed="(\d+)" data-pass-rate="([^"]+)"`).FindStringSubmatch(out)
	require.NotNil(t, totals)
	assert.Equal(t, strconv.Itoa(s.Totals.Runs), totals[1])
	assert.Equal(t, strconv.Itoa(s.Totals.Passed), totals[2])
	assert.Equal(t, strconv.Itoa(s.Totals.Completed), totals[3])
	assert.Equal(t, strconv.FormatFloat(s.Totals.PassRate, 'g', -1, 64), totals[4])
	assert.Contains(t, out, pct(s.Totals.PassRate))
}

func TestHTMLCapsFailingJobs(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	out := render(t, func(b *bytes.Buffer) error {
		return WriteHTML(b, r, HTMLOptions{MaxFailingJobs: 2, MaxTurnBytes: 4})
	})
	assert.Equal(t, 2, strings.Count(out, `<div class="job"`))
	assert.Contains(t, out, "4 more failing job(s) not shown")
	assert.Contains(t, out, "hell … (1 more bytes)")
}

func TestClip(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "abc", clip("abc", 3))
	assert.Equal(t, "h … (3 more bytes)", clip("hé!", 2), "never splits a rune")
}

// TestHTMLRendersInChromium renders the page in headless Chromium when it is
// installed (see testdata/render-html.sh for the same by hand).
func TestHTMLRendersInChromium(t *testing.T) {
	t.Parallel()
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		t.Skip("chromium is not on PATH")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	png := filepath.Join(dir, "report.png")
	r := sampleResults(t)
	require.NoError(t, os.WriteFile(page, []byte(render(t, func(b *bytes.Buffer) error { return WriteHTML(b, r, HTMLOptions{}) })), 0o644))
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--screenshot="+png, "--window-size=1200,1600", "file://"+page)
	outp, err := cmd.CombinedOutput()
	require.NoError(t, err, string(outp))
	st, err := os.Stat(png)
	require.NoError(t, err)
	assert.Positive(t, st.Size())
}
