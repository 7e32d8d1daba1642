package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHTMLSelfContained(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	out := render(t, func(b *bytes.Buffer) error { return writeHTML(b, r, WriteOptions{}) })
	// The only addresses are links (not loads) to the local viewer.
	viewerLinks := regexp.MustCompile(`<a class="viewer" href="http://127\.0\.0\.1:8731/#/[^"]*"`)
	assert.True(t, viewerLinks.MatchString(out), "jobs link to the viewer")
	lower := strings.ToLower(viewerLinks.ReplaceAllString(out, "<a"))
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
	assert.Contains(t, out, "run[0].conversation.final_evaluations", "where a failing evaluation is, as a field path")
	assert.NotContains(t, out, "step step")
}

// TestHTMLMatchesJSON checks every number the chart carries against the
// JSON summary.
func TestHTMLMatchesJSON(t *testing.T) {
	t.Parallel()
	r := sampleResults(t)
	out := render(t, func(b *bytes.Buffer) error { return writeHTML(b, r, WriteOptions{}) })
	var s Summary
	require.NoError(t, json.Unmarshal([]byte(render(t, func(b *bytes.Buffer) error { return writeJSON(b, r.Summary()) })), &s))

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
		return writeHTML(b, r, WriteOptions{MaxFailingJobs: 2, MaxTurnBytes: 4})
	})
	assert.Equal(t, 2, strings.Count(out, `<div class="job"`))
	assert.Contains(t, out, "4 more failing job(s) not shown")
	assert.Contains(t, out, "hell… (1 more bytes)")
}

func TestClip(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "abc", clip("abc", 3))
	assert.Equal(t, "h… (3 more bytes)", clip("hé!", 2), "never splits a rune")
}

// htmlBars returns the bar chart rows of a page: key → label text.
func htmlBars(t *testing.T, page string) (keys, labels []string) {
	t.Helper()
	for _, m := range regexp.MustCompile(`(?s)<div class="bar-row" role="listitem" data-key="([^"]+)"[^>]*>\s*<div class="label">(.*?)</div>`).FindAllStringSubmatch(page, -1) {
		keys = append(keys, html.UnescapeString(m[1]))
		labels = append(labels, htmlText(m[2]))
	}
	return keys, labels
}

// htmlText strips tags and decodes entities.
func htmlText(s string) string {
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(s, ""))
}

// htmlHeats returns each heat map table's axes and its column headers.
type heatTable struct {
	rows, cols string
	colValues  []string
	rowValues  []string
	cells      []string
}

func htmlHeats(page string) []heatTable {
	var out []heatTable
	for _, m := range regexp.MustCompile(`(?s)<table class="heat" data-rows="([^"]*)" data-cols="([^"]*)">(.*?)</table>`).FindAllStringSubmatch(page, -1) {
		h := heatTable{rows: html.UnescapeString(m[1]), cols: html.UnescapeString(m[2])}
		head, body, _ := strings.Cut(m[3], "</thead>")
		for _, v := range regexp.MustCompile(`<th class="v">(.*?)</th>`).FindAllStringSubmatch(head, -1) {
			h.colValues = append(h.colValues, htmlText(v[1]))
		}
		for _, v := range regexp.MustCompile(`<th class="v">(.*?)</th>`).FindAllStringSubmatch(body, -1) {
			h.rowValues = append(h.rowValues, htmlText(v[1]))
		}
		for _, v := range regexp.MustCompile(`<td class="(h\d+|hn)">(.*?)</td>`).FindAllStringSubmatch(body, -1) {
			h.cells = append(h.cells, v[1]+" "+htmlText(v[2]))
		}
		out = append(out, h)
	}
	return out
}

// TestHTMLThreeParameterMatrix checks the report of a real run of a
// matrix over three parameters (testdata/matrix3): short labels, a heat map
// over the two parameters with the most values with one map per value of
// the third and one pooled, everything in matrix order.
func TestHTMLThreeParameterMatrix(t *testing.T) {
	t.Parallel()
	r := readResults(t, matrix3Results(t))
	page := render(t, func(b *bytes.Buffer) error { return writeHTML(b, r, WriteOptions{}) })

	assert.Contains(t, page, "Parameters under <code>run[0].conversation.</code>: ", "the common prefix is said once")
	keys, labels := htmlBars(t, page)
	require.Len(t, labels, 18)
	assert.Len(t, uniq(labels), 6, "within its max_turns group, each label tells a combination apart")
	for i, l := range labels {
		assert.NotContains(t, l, "run[0].conversation.", "no label repeats the prefix: %s", l)
		assert.NotContains(t, l, "…", "no label is cut: %s", l)
		assert.NotContains(t, l, "max_turns", "the outer parameter heads the row's group instead: %s", l)
		assert.Contains(t, l, "user_simulator.persona=", keys[i])
	}
	assert.Equal(t, "user_simulator.objective=get the crash triaged with a severity and an owner · user_simulator.persona=a support engineer relaying a customer's report", labels[0])
	groups := regexp.MustCompile(`<div class="group">(.*?)</div>`).FindAllStringSubmatch(page, -1)
	require.Len(t, groups, 3)
	assert.Equal(t, "max_turns=1 · 0.0% (0/12)", htmlText(groups[0][1]))
	assert.Equal(t, "max_turns=3 · 66.7% (8/12)", htmlText(groups[2][1]))

	heats := htmlHeats(page)
	require.Len(t, heats, 3, "a pooled map and one per persona")
	objectives := []string{"get the crash triaged with a severity and an owner", "get the crash triaged and a workaround for today", "find out whether the export bug is already known"}
	for _, h := range heats {
		assert.Equal(t, "run[0].conversation.max_turns", h.rows)
		assert.Equal(t, "run[0].conversation.user_simulator.objective", h.cols)
		assert.Equal(t, objectives, h.colValues, "columns in matrix order, not sorted")
		assert.Equal(t, []string{"1", "2", "3"}, h.rowValues)
	}
	assert.Equal(t, []string{"h0 0.0%0/4", "h0 0.0%0/4", "h0 0.0%0/4", "h10 100.0%4/4", "h10 100.0%4/4", "h0 0.0%0/4", "h10 100.0%4/4", "h10 100.0%4/4", "h0 0.0%0/4"}, heats[0].cells, "the pooled map")
	assert.Equal(t, "h10 100.0%2/2", heats[1].cells[3], "a facet counts its own runs")
	assert.Contains(t, page, "user_simulator.persona</span>=<span class=\"pv\">a support engineer relaying a customer&#39;s report</span>")
	persona := regexp.MustCompile(`<h3>By ([^<]*)</h3>`).FindAllStringSubmatch(page, -1)
	require.Len(t, persona, 3)
	assert.Equal(t, []string{"max_turns", "user_simulator.objective", "user_simulator.persona"}, []string{persona[0][1], persona[1][1], persona[2][1]}, "per-parameter tables in matrix order")
}

// TestHTMLHeatMapWhenTwoVary covers matrices the old heat map missed: a
// filtered three-parameter matrix where two vary, and combinations whose
// values are declared out of alphabetical order.
func TestHTMLHeatMapWhenTwoVary(t *testing.T) {
	t.Parallel()
	var lines []string
	lines = append(lines, planLine(t, results.Plan{RunID: "r", TotalJobs: 4}))
	idx := int64(0)
	for _, model := range []string{"zeta", "alpha"} {
		for _, temp := range []float64{0.7, 0.2} {
			j := results.Job{ID: fmt.Sprintf("s/c%d/run-1", idx), Index: idx, Scenario: "s", Matrix: "m", Combination: fmt.Sprintf("c%d", idx), Run: 1,
				Params: map[string]any{"plugins[0].model": model, "plugins[0].temperature": temp, "run[0].input": "fixed by a filter"}}
			applyOutcome(&j, map[bool]string{true: "pass", false: "fail"}[model == "zeta"])
			lines = append(lines, jobLine(t, j))
			idx++
		}
	}
	r, err := Read([]Input{input("r.jsonl", lines...)}, Options{})
	require.NoError(t, err)
	page := render(t, func(b *bytes.Buffer) error { return writeHTML(b, r, WriteOptions{}) })
	heats := htmlHeats(page)
	require.Len(t, heats, 1)
	assert.Equal(t, "plugins[0].model", heats[0].rows)
	assert.Equal(t, []string{"zeta", "alpha"}, heats[0].rowValues, "matrix order")
	assert.Equal(t, []string{"0.7", "0.2"}, heats[0].colValues, "matrix order")
	assert.Equal(t, []string{"h10 100.0%1/1", "h10 100.0%1/1", "h0 0.0%0/1", "h0 0.0%0/1"}, heats[0].cells)
	assert.Contains(t, page, "Same in every combination: <code>run[0].input</code> = fixed by a filter")
	assert.Contains(t, page, "Parameters under <code>plugins[0].</code>: ")
	_, labels := htmlBars(t, page)
	assert.Equal(t, []string{"temperature=0.7", "temperature=0.2", "temperature=0.7", "temperature=0.2"}, labels)
}

func uniq(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}

func TestCommonPrefix(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{nil, ""},
		{[]string{"run[0].input"}, "run[0]."},
		{[]string{"input"}, ""},
		{[]string{"run[0].conversation.max_turns", "run[0].conversation.user_simulator.persona"}, "run[0].conversation."},
		{[]string{"run[0].conversation.user", "run[0].conversation.user_simulator.persona"}, "run[0].conversation."},
		{[]string{"plugins[0].model", "plugins[1].model"}, ""},
		{[]string{"a.b.c", "a.b"}, "a."},
		{[]string{"run[0].input", "setup.mocks[0].responseFn"}, ""},
	} {
		assert.Equal(t, tc.want, commonPrefix(tc.paths), "%q", tc.paths)
	}
}

func TestMatrixOrder(t *testing.T) {
	t.Parallel()
	// results.Job order of a matrix declared as b (outer: y, x) × a (inner: 2, 1).
	var combos []*CombinationSummary
	for _, b := range []string{"y", "x"} {
		for _, a := range []int{2, 1} {
			combos = append(combos, &CombinationSummary{Params: map[string]any{"a": a, "b": b}})
		}
	}
	o := newMatrixOrder(combos)
	assert.Equal(t, []string{"b", "a"}, o.paths, "the slower-changing parameter is the outer axis")
	assert.Equal(t, []string{"y", "x"}, o.values["b"])
	assert.Equal(t, []string{"2", "1"}, o.values["a"])
}

func TestHeatClass(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "h0", heatClass(0))
	assert.Equal(t, "h7", heatClass(2.0/3))
	assert.Equal(t, "h10", heatClass(1))
}
