package evaluate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
)

// runDir makes a run directory with files, a sub-directory and symbolic
// links, two of which lead outside it, and returns an Input over it.
func runDir(t *testing.T) evaluate.Input {
	t.Helper()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("password=hunter2"), 0o600))
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "out", "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "out", "report.md"), []byte("# Report\nAll 3 Issues triaged.\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "escape.txt")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "outdir")))
	require.NoError(t, os.Symlink("out/report.md", filepath.Join(dir, "inside.md")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "missing"), filepath.Join(dir, "dangling")))
	in := reply("done")
	in.Trace.Dir = dir
	return in
}

func TestFileExists(t *testing.T) {
	t.Parallel()
	in := runDir(t)
	noDir := reply("done")
	runCases(t, "file_exists", []evalCase{
		{name: "exists", params: &evalparams.FileExists{Path: "out/report.md"}, in: in, pass: true, score: 1, msg: `file "out/report.md" exists (31 bytes)`},
		{name: "dot slash prefix", params: &evalparams.FileExists{Path: "./out/report.md"}, in: in, pass: true, score: 1},
		{name: "empty file exists", params: &evalparams.FileExists{Path: "empty.txt"}, in: in, pass: true, score: 1},
		{name: "symlink inside", params: &evalparams.FileExists{Path: "inside.md"}, in: in, pass: true, score: 1},
		{name: "missing", params: &evalparams.FileExists{Path: "out/nope.md"}, in: in, score: 0, msg: `file "out/nope.md" does not exist in the run's directory`},
		{name: "directory is not a file", params: &evalparams.FileExists{Path: "out/sub"}, in: in, score: 0, msg: `"out/sub" is a directory, not a file`},
		{name: "symlink escape", params: &evalparams.FileExists{Path: "escape.txt"}, in: in, score: 0, msg: "resolves outside the run's directory through a symbolic link"},
		{name: "directory symlink escape", params: &evalparams.FileExists{Path: "outdir/secret.txt"}, in: in, score: 0, msg: "resolves outside the run's directory"},
		{name: "dangling link outside", params: &evalparams.FileExists{Path: "dangling"}, in: in, score: 0, msg: "outside the run's directory"},
		{name: "no directory", params: &evalparams.FileExists{Path: "a.txt"}, in: noDir, score: 0, msg: "file_exists needs the run's directory, but this run has none"},
		{name: "malformed: absolute", params: &evalparams.FileExists{Path: "/etc/passwd"}, buildErr: "is absolute"},
		{name: "malformed: climbs out", params: &evalparams.FileExists{Path: "out/../../x"}, buildErr: "leaves the run's directory"},
		{name: "malformed: the directory itself", params: &evalparams.FileExists{Path: "./"}, buildErr: "names the run's directory itself"},
		{name: "malformed: empty", params: &evalparams.FileExists{}, buildErr: "path is empty"},
	})
}

func TestFileContains(t *testing.T) {
	t.Parallel()
	in := runDir(t)
	big := runDir(t)
	require.NoError(t, os.WriteFile(filepath.Join(big.Trace.Dir, "big.txt"), []byte(strings.Repeat("x", 17<<20)+"needle"), 0o644))
	runCases(t, "file_contains", []evalCase{
		{name: "contains, case-sensitive by default", params: &evalparams.FileContains{Path: "out/report.md", Value: "3 Issues"}, in: in, pass: true, score: 1, msg: `file "out/report.md" contains "3 Issues" (case-sensitive)`},
		{name: "case differs", params: &evalparams.FileContains{Path: "out/report.md", Value: "3 issues"}, in: in, score: 0,
			msg: `file "out/report.md" does not contain "3 issues" (case-sensitive); file "out/report.md" starts "# Report All 3 Issues triaged."`},
		{name: "case-insensitive when asked", params: &evalparams.FileContains{Path: "out/report.md", Value: "3 issues", CaseSensitive: ptr(false)}, in: in, pass: true, score: 1},
		{name: "empty file", params: &evalparams.FileContains{Path: "empty.txt", Value: "x"}, in: in, score: 0, msg: "is empty"},
		{name: "missing", params: &evalparams.FileContains{Path: "nope.txt", Value: "x"}, in: in, score: 0, msg: "does not exist"},
		{name: "directory", params: &evalparams.FileContains{Path: "out", Value: "x"}, in: in, score: 0, msg: "is a directory"},
		{name: "symlink escape is not read", params: &evalparams.FileContains{Path: "escape.txt", Value: "hunter2"}, in: in, score: 0, msg: "through a symbolic link; it is not read"},
		{name: "beyond the read limit", params: &evalparams.FileContains{Path: "big.txt", Value: "needle"}, in: big, score: 0, msg: "does not contain"},
		{name: "no directory", params: &evalparams.FileContains{Path: "a", Value: "x"}, in: reply(""), score: 0, msg: "file_contains needs the run's directory"},
		{name: "malformed: empty value", params: &evalparams.FileContains{Path: "a"}, buildErr: "value is empty"},
		{name: "malformed: escape", params: &evalparams.FileContains{Path: `..\x`, Value: "v"}, buildErr: "leaves the run's directory"},
	})
}
