package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/report"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeResults writes a results file of one scenario with one job per
// outcome ("pass", "fail" or "error") and returns its path.
func writeResults(t *testing.T, dir, name string, outcomes ...string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"record":"plan","run_id":"r","total_jobs":%d,"agent":"a","sources":["s.yaml"],"seed":1}`+"\n", len(outcomes))
	for i, o := range outcomes {
		completed, passed, errText := o != "error", o == "pass", ""
		if o == "error" {
			errText = "timeout"
		}
		fmt.Fprintf(&b, `{"record":"job","id":"s/-/run-%d","index":%d,"scenario":"s","run":%d,"attempts":1,"completed":%t,"passed":%t,"duration_ms":1500,"error":%q,"evaluations":[{"type":"string_contains","passed":%t,"message":"m"}]}`+"\n",
			i+1, i, i+1, completed, passed, errText, passed)
	}
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// writeCombinationResults writes a results file of one matrix scenario whose
// combinations c01, c02, … have `runs` runs each, passes[i] of them passing
// in the i-th.
func writeCombinationResults(t *testing.T, dir, name string, runs int, passes []int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"record":"plan","run_id":"r","total_jobs":%d,"agent":"a","sources":["m.matrix.yaml"],"seed":1}`+"\n", runs*len(passes))
	index := 0
	for i, p := range passes {
		for run := 1; run <= runs; run++ {
			fmt.Fprintf(&b, `{"record":"job","id":"m/c%02d/run-%d","index":%d,"scenario":"m","combination":"c%02d","params":{"model":"m%02d"},"run":%d,"attempts":1,"completed":true,"passed":%t,"duration_ms":1500,"evaluations":[{"type":"string_contains","passed":%t,"message":"m"}]}`+"\n",
				i+1, run, index, i+1, i+1, run, run <= p, run <= p)
			index++
		}
	}
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	code = mainWith(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func TestReportFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := writeResults(t, dir, "r.jsonl", "pass", "fail", "error", "pass")
	tests := []struct {
		format string
		check  func(t *testing.T, out string)
	}{
		{"md", func(t *testing.T, out string) { assert.Contains(t, out, "| Pass rate | 50.0% (2/4)") }},
		{"json", func(t *testing.T, out string) {
			var s struct {
				Totals struct {
					Runs, Passed, Completed int
				} `json:"totals"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &s))
			assert.Equal(t, 4, s.Totals.Runs)
			assert.Equal(t, 2, s.Totals.Passed)
			assert.Equal(t, 3, s.Totals.Completed)
		}},
		{"junit", func(t *testing.T, out string) {
			var doc struct {
				Tests  int `xml:"tests,attr"`
				Errors int `xml:"errors,attr"`
			}
			require.NoError(t, xml.Unmarshal([]byte(out), &doc))
			assert.Equal(t, 4, doc.Tests)
			assert.Equal(t, 1, doc.Errors)
		}},
		{"html", func(t *testing.T, out string) { assert.True(t, strings.HasPrefix(out, "<!DOCTYPE html>")) }},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runCLI(t, "report", "--format", tt.format, res)
			require.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stderr, "4 job(s): 2 passed, 1 failed, 1 incomplete")
			tt.check(t, out)
		})
	}
}

func TestReportOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := writeResults(t, dir, "r.jsonl", "pass")
	out := filepath.Join(dir, "report.html")
	code, stdout, stderr := runCLI(t, "report", "--format", "html", "--out", out, res)
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Contains(t, string(b), "</html>")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left behind")
}

func TestReportUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res := writeResults(t, dir, "r.jsonl", "pass")
	other := filepath.Join(dir, "other.jsonl")
	require.NoError(t, os.WriteFile(other, []byte(`{"record":"plan","run_id":"x","total_jobs":9}`+"\n"), 0o644))
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"no files", []string{"report"}, "usage: agenteval report"},
		{"bad format", []string{"report", "--format", "pdf", res}, `agenteval report: --format "pdf": want md, html, junit, json`},
		{"bad k", []string{"report", "--k", "0", res}, "agenteval report: --k 0: want at least 1"},
		{"compare bad correction", []string{"report", "compare", "--correction", "bonferroni", res, res}, `--correction "bonferroni": want holm, none`},
		{"compare bad format", []string{"report", "compare", "--format", "junit", res, res}, `--format "junit": want md, json, html`},
		{"missing file", []string{"report", filepath.Join(dir, "nope.jsonl")}, "no such file"},
		{"conflicting plans", []string{"report", res, other}, "conflicting plans"},
		{"compare needs two files", []string{"report", "compare", res}, "usage: agenteval report compare"},
		{"compare bad alpha", []string{"report", "compare", "--alpha", "2", res, res}, "alpha"},
		// NaN would compare false with every p: a gate that never fails.
		{"compare alpha NaN", []string{"report", "compare", "--alpha", "NaN", res, res}, "--alpha NaN: want a significance level between 0 and 1"},
		{"compare min pass rate NaN", []string{"report", "compare", "--min-pass-rate", "nan", res, res}, "--min-pass-rate NaN: want a rate between 0 and 1"},
		{"unknown flag", []string{"report", "--nope", res}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := runCLI(t, tt.args...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tt.msg)
		})
	}
}

func TestReportCompareExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	all := make([]string, 10)
	half := make([]string, 10)
	for i := range all {
		all[i] = "pass"
		half[i] = "pass"
		if i >= 5 {
			half[i] = "fail"
		}
	}
	base := writeResults(t, dir, "base.jsonl", all...)
	worse := writeResults(t, dir, "worse.jsonl", half...)
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"same", []string{base, base}, exitOK},
		{"improvement", []string{worse, base}, exitOK},
		{"regression", []string{base, worse}, exitFail},
		{"not significant at a strict alpha", []string{"--alpha", "0.01", base, worse}, exitOK},
		{"under the minimum pass rate", []string{"--min-pass-rate", "0.9", worse, worse}, exitFail},
		{"json", []string{"--format", "json", base, base}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, stderr := runCLI(t, append([]string{"report", "compare"}, tt.args...)...)
			assert.Equal(t, tt.code, code, stderr)
			assert.NotEmpty(t, out)
		})
	}
}

// TestReportCompareSeesOverallCollapse: 62 of 120 runs passed in the
// baseline, none in the candidate, over 24 combinations of 5 runs. No
// combination's drop survives Holm's correction (1/252 × 24 = 0.095), the
// overall stratified test's p is 1.5e-25: the gate fails, exit 1, in
// Markdown and JSON alike.
func TestReportCompareSeesOverallCollapse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	passes := []int{5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0}
	base := writeCombinationResults(t, dir, "base.jsonl", 5, passes)
	cand := writeCombinationResults(t, dir, "cand.jsonl", 5, make([]int, 24))

	code, out, stderr := runCLI(t, "report", "compare", base, cand)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, out, "**Regression overall:**")
	assert.Contains(t, out, "p = 1.5e-25")
	assert.NotContains(t, out, "No significant regression")
	assert.Equal(t, "agenteval report compare: significant regression overall (0 passes where 31.0 were expected, p = 1.5e-25)\n", stderr)

	code, out, _ = runCLI(t, "report", "compare", "--format", "json", base, cand)
	assert.Equal(t, exitFail, code)
	var c report.Comparison
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	assert.True(t, c.Failed)
	assert.Zero(t, c.Regressions)
	assert.True(t, c.Overall.Regression)
	assert.InEpsilon(t, 1.4643525978335375e-25, c.Overall.PValue, 1e-12)
	assert.Equal(t, 62, c.Baseline.Passed)
	assert.Equal(t, 120, c.Candidate.Runs)

	// The same runs, the other way round: an improvement.
	code, out, _ = runCLI(t, "report", "compare", cand, base)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "No significant regression (overall: one-sided exact conditional test stratified by combination, p = 1.0000;")

	// A collapse in one combination among improvements fails by
	// combination, not overall.
	mixedBase := writeCombinationResults(t, dir, "mixed-base.jsonl", 10, []int{10, 3, 3, 3})
	mixedCand := writeCombinationResults(t, dir, "mixed-cand.jsonl", 10, []int{0, 8, 8, 8})
	code, _, stderr = runCLI(t, "report", "compare", "--min-pass-rate", "0.9", mixedBase, mixedCand)
	assert.Equal(t, exitFail, code)
	assert.Equal(t, "agenteval report compare: 1 significant regression(s) by combination; pass rate 60.0% below 90.0%\n", stderr)
}

// TestReportRefusesFilesWithoutResults: a report or comparison of files
// that hold no results record (a scenario by mistake, an empty file) is bad
// input, exit 2, not "0 tests" or "no significant regression".
func TestReportRefusesFilesWithoutResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	scen := "testdata/run/echo.scenario.yaml"
	res := writeResults(t, dir, "r.jsonl", "pass")
	for _, args := range [][]string{
		{"report", scen},
		{"report", "--format", "junit", empty},
		{"report", res, scen},
		{"report", "compare", scen, scen},
		{"report", "compare", res, empty},
	} {
		code, stdout, stderr := runCLI(t, args...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.Contains(t, stderr, "no results record", "%v", args)
		assert.NotContains(t, stdout, "0 tests")
		assert.NotContains(t, stdout, "No significant regression")
	}
	code, _, stderr := runCLI(t, "report", scen)
	require.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "agenteval report: "+scen+" is not a results file: no results record in its 9 line(s); "+scen+":1: malformed record skipped")
}
