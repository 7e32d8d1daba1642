package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportNeverWritesOverResults: `report --out R/results.jsonl
// R/results.jsonl` once replaced the results with the report and exited
// 0 (report compare --out too). An input, by any path, a file named
// results.jsonl and any file holding results are refused, and left as
// they were.
func TestReportNeverWritesOverResults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.scenario.yaml")
	require.NoError(t, os.WriteFile(scen, []byte("name: s\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hello\n    evaluations: [{type: string_contains, value: hello}]\njudgment: {strategy: all_pass}\n"), 0o644))
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--out", filepath.Join(dir, "r"), scen)
	require.Equal(t, exitOK, code, stderr)
	results := filepath.Join(dir, "r", "results.jsonl")
	before, err := os.ReadFile(results)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(results, filepath.Join(dir, "link.md")))
	copied := filepath.Join(dir, "copy.md")
	require.NoError(t, os.WriteFile(copied, before, 0o644))
	other := filepath.Join(dir, "elsewhere", "results.jsonl")
	for _, args := range [][]string{
		{"report", "--out", results, results},
		{"report", "--out", filepath.Join(dir, "r", ".", "results.jsonl"), filepath.Join(dir, "r")},
		{"report", "--out", filepath.Join(dir, "link.md"), results},
		{"report", "--format", "json", "--out", copied, results},
		{"report", "--out", other, results},
		{"report", "compare", "--out", results, results, results},
		{"report", "compare", "--out", copied, results, results},
	} {
		code, _, stderr := runCLI(t, args...)
		assert.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		assert.Contains(t, stderr, "a report never writes over results", args)
	}
	after, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.Equal(t, before, after)
	kept, err := os.ReadFile(copied)
	require.NoError(t, err)
	assert.Equal(t, before, kept)
	assert.NoFileExists(t, other)
	code, _, stderr = runCLI(t, "report", "--out", filepath.Join(dir, "report.md"), results)
	assert.Equal(t, exitOK, code, stderr)
}
