package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/report"
)

// gateScenario is a scenario the echo agent passes when it is asked for
// the word it must say, and fails when the evaluation wants another.
func gateScenario(want string) string {
	return "name: gate\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hello\n    evaluations: [{type: string_contains, value: " + want + "}]\njudgment: {strategy: all_pass}\n"
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	}
}

// TestCompareGateSeesThroughAnAddedFolder: a baseline run over scenarios/
// and a candidate over scenarios/ and more/ give the shared files' jobs
// the same ids, so a regression in them fails the gate (exit 1); it once
// matched no combination and passed (issue 25 point 1). The ids are the same
// whatever directory the paths were given from.
func TestCompareGateSeesThroughAnAddedFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"scenarios/login.scenario.yaml":       gateScenario("hello"),
		"scenarios/deep/search.scenario.yaml": gateScenario("hello"),
		"more/checkout.scenario.yaml":         gateScenario("hello"),
	})
	base, cand := filepath.Join(dir, "base"), filepath.Join(dir, "cand")
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--runs", "8", "--out", base, filepath.Join(dir, "scenarios"))
	require.Equal(t, exitOK, code, stderr)

	// The candidate breaks login: the echo agent no longer says what it wants.
	writeFiles(t, dir, map[string]string{"scenarios/login.scenario.yaml": gateScenario("goodbye")})
	code, _, stderr = runCLI(t, "run", "--agent", "echo", "--runs", "8", "--exit-zero", "--out", cand, filepath.Join(dir, "more"), filepath.Join(dir, "scenarios"))
	require.Equal(t, exitOK, code, stderr)

	code, out, stderr := runCLI(t, "report", "compare", "--format", "json", base, cand)
	assert.Equal(t, exitFail, code, stderr)
	var c report.Comparison
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	keys := map[string]bool{}
	for _, r := range c.Rows {
		keys[r.Key] = r.Regression
	}
	assert.Equal(t, map[string]bool{"login/-": true, "search/-": false}, keys, "the shared files matched by id")
	assert.Equal(t, []string{"checkout/-"}, c.OnlyCandidate)
	assert.Empty(t, c.OnlyBaseline)
	assert.Contains(t, stderr, "1 significant regression(s) by combination")
}

// TestCompareGateRefusesToBeBlind: a candidate that ran 2 of 3 shards
// fails naming the missing shard and its jobs, unless --allow-missing; two
// runs with no combination in common fail (exit 1) whatever the flags; a
// candidate without a combination of the baseline fails naming it.
func TestCompareGateRefusesToBeBlind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/one.scenario.yaml":   gateScenario("hello"),
		"a/two.scenario.yaml":   gateScenario("hello"),
		"b/other.scenario.yaml": gateScenario("hello"),
	})
	run := func(out string, args ...string) {
		t.Helper()
		code, _, stderr := runCLI(t, append([]string{"run", "--agent", "echo", "--runs", "3", "--out", filepath.Join(dir, out)}, args...)...)
		require.Equal(t, exitOK, code, stderr)
	}
	run("base", filepath.Join(dir, "a"))
	run("cand/s1", "--shard", "1/3", filepath.Join(dir, "a"))
	run("cand/s2", "--shard", "2/3", filepath.Join(dir, "a"))
	run("other", filepath.Join(dir, "b"))
	run("half", filepath.Join(dir, "a", "one.scenario.yaml"))

	code, out, stderr := runCLI(t, "report", "compare", filepath.Join(dir, "base"), filepath.Join(dir, "cand"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "1 shard(s) of the candidate have no results: 3/3")
	assert.Contains(t, stderr, "2 job(s) of the candidate's run never ran (indexes 2, 5)")
	assert.Contains(t, stderr, "--allow-missing")
	assert.Contains(t, out, "3/3")

	code, _, stderr = runCLI(t, "report", "compare", "--allow-missing", filepath.Join(dir, "base"), filepath.Join(dir, "cand"))
	assert.Equal(t, exitOK, code, stderr)

	code, _, stderr = runCLI(t, "report", "compare", filepath.Join(dir, "base"), filepath.Join(dir, "half"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "1 combination(s) of the baseline not in the candidate: two/-")

	for _, args := range [][]string{
		{filepath.Join(dir, "base"), filepath.Join(dir, "other")},
		{"--allow-missing", filepath.Join(dir, "base"), filepath.Join(dir, "other")},
	} {
		code, out, stderr = runCLI(t, append([]string{"report", "compare"}, args...)...)
		assert.Equal(t, exitFail, code, "%v", args)
		assert.Contains(t, stderr, "no combination in common (baseline: one/-, two/-; candidate: other/-): nothing was compared")
		assert.NotContains(t, out, "No significant regression")
	}
}

// TestCompareGateDecidesPAtAlphaExactly: 3/3 → 0/3 has p = 1/20 exactly; at
// α = 0.05 the rule p < α says no regression (it once computed
// 0.04999999999999996 and failed), and the report says no drop could have
// been detected at these sample sizes.
func TestCompareGateDecidesPAtAlphaExactly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := writeResults(t, dir, "base.jsonl", "pass", "pass", "pass")
	cand := writeResults(t, dir, "cand.jsonl", "fail", "fail", "fail")
	code, out, stderr := runCLI(t, "report", "compare", "--alpha", "0.05", "--format", "json", base, cand)
	assert.Equal(t, exitOK, code, stderr)
	var c report.Comparison
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	require.Len(t, c.Rows, 1)
	assert.Equal(t, 0.05, c.Rows[0].PValue)
	assert.False(t, c.Rows[0].Regression)
	assert.Equal(t, 0.05, c.Overall.PValue)
	assert.False(t, c.Overall.Regression, "the overall test decides as the row's on a one-row table")
	assert.Nil(t, c.Rows[0].MinDetectableDrop)
	assert.Nil(t, c.Overall.MinDetectableDrop)

	code, out, _ = runCLI(t, "report", "compare", base, cand)
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "cannot detect any drop")

	code, _, _ = runCLI(t, "report", "compare", "--alpha", "0.0500001", base, cand)
	assert.Equal(t, exitFail, code, "just above p the same table is a regression")
}
