package testtool

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// NPMDir returns the folder scripts/test.sh installs its npm_packages into
// (AGENTEVAL_NPM_DIR, else $XDG_CACHE_HOME/agenteval/npm, else
// ~/.cache/agenteval/npm).
func NPMDir() string {
	if d := os.Getenv("AGENTEVAL_NPM_DIR"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir() // no home: the relative path below is simply not found
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "agenteval", "npm")
}

// NeedNPM returns the npm folder (NPMDir) when every package (a name with
// an optional @version, as npm_packages lists them) is installed there
// globally, or ends the test as Need does: skipped with the command that
// installs them, failed under CI=true. It needs node too.
func NeedNPM(t testing.TB, packages ...string) string {
	t.Helper()
	if Need(t, "node") == "" {
		return ""
	}
	dir := NPMDir()
	var missing []string
	for _, p := range packages {
		name := p
		if i := strings.LastIndex(p, "@"); i > 0 {
			name = p[:i]
		}
		if _, err := os.Stat(filepath.Join(dir, "lib", "node_modules", filepath.FromSlash(name), "package.json")); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return dir
	}
	msg := "npm packages " + strings.Join(missing, " ") + " are not installed in " + dir +
		" (bash scripts/test.sh installs its npm_packages there; or npm install --global --prefix " + dir + " " + strings.Join(missing, " ") + ")"
	if inCI() {
		t.Fatalf("%s: CI=true, where every tool must be installed (scripts/test.sh installs them)", msg)
		return ""
	}
	t.Skip(msg + ": this test is skipped")
	return ""
}

// NeedElizaOS returns the command that runs the ElizaOS CLI (npm
// @elizaos/cli, whose bin runs under bun): the bun its install links and
// the CLI's script. It ends the test as Need does when the CLI is missing,
// and fails it when the CLI is there without its bun (an install whose
// last step, linking bun, did not run).
func NeedElizaOS(t testing.TB) []string {
	t.Helper()
	cli := Need(t, "elizaos")
	if cli == "" {
		return nil
	}
	script, err := filepath.EvalSymlinks(cli)
	if err != nil {
		t.Fatalf("testtool: %v", err)
		return nil
	}
	bun := filepath.Join(filepath.Dir(script), "..", "node_modules", "bun", "bin", "bun.exe")
	if _, err := os.Stat(bun); err != nil {
		t.Fatalf("testtool: @elizaos/cli is installed without the bun it runs under (%v): bash scripts/test.sh links it", err)
		return nil
	}
	return []string{bun, script}
}
