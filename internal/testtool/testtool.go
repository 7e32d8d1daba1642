// Package testtool is the one way a test says it needs a program that is
// not part of Go (Chromium, xmllint, shellcheck, node, python3, ...).
//
// On a developer's machine a missing tool skips the test (or, through
// Optional, the part of it that needs the tool) with a message naming the
// tool and the command that installs it. Under CI=true the same absence is
// a failure: CI runs `bash scripts/test.sh`, which installs every tool
// listed here, so a tool missing there means a check silently not made.
package testtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// tool is what the tests know of one external program: the names it is
// found by on PATH (the first found wins) and how a developer installs it.
type tool struct {
	names   []string
	install string
	// npm says the program comes from an npm package, which
	// scripts/test.sh installs into NPMDir: it is looked for in NPMDir's
	// bin too.
	npm bool
}

// tools holds every program a test of this repository may need; Need and
// Optional refuse any other name, so this table (and the Debian packages
// scripts/test.sh installs) stays the complete list.
var tools = map[string]tool{
	"chromium":   {names: []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}, install: "apt-get install chromium"},
	"xmllint":    {names: []string{"xmllint"}, install: "apt-get install libxml2-utils"},
	"shellcheck": {names: []string{"shellcheck"}, install: "apt-get install shellcheck"},
	"node":       {names: []string{"node"}, install: "apt-get install nodejs"},
	"python3":    {names: []string{"python3"}, install: "apt-get install python3"},
	"bash":       {names: []string{"bash"}, install: "apt-get install bash"},
	"setsid":     {names: []string{"setsid"}, install: "apt-get install util-linux"},
	"ps":         {names: []string{"ps"}, install: "apt-get install procps"},
	"git":        {names: []string{"git"}, install: "apt-get install git"},
	"gh":         {names: []string{"gh"}, install: "apt-get install gh"},
	"opencode":   {names: []string{"opencode"}, install: "bash scripts/test.sh, or npm install -g opencode-ai@1.18.33", npm: true},
	"codex":      {names: []string{"codex"}, install: "bash scripts/test.sh, or npm install -g @openai/codex@0.171.0", npm: true},
	"claude":     {names: []string{"claude"}, install: "bash scripts/test.sh, or npm install -g @anthropic-ai/claude-code@2.1.332", npm: true},
	"gemini":     {names: []string{"gemini"}, install: "bash scripts/test.sh, or npm install -g @google/gemini-cli@0.61.0", npm: true},
	// The ElizaOS CLI runs under bun, which its install links without
	// scripts only through bun's own install.js (scripts/test.sh does it).
	"elizaos": {names: []string{"elizaos"}, install: "bash scripts/test.sh, or npm install -g --ignore-scripts @elizaos/cli@1.7.2 and node install.js in its node_modules/bun", npm: true},
}

// Need returns the path of the program name, or ends the test: it is
// skipped with a message naming the tool and its install command, or
// failed when the environment variable CI is true.
func Need(t testing.TB, name string) string {
	t.Helper()
	path, msg, known := find(t, name)
	if path != "" || !known {
		return path
	}
	if inCI() {
		t.Fatalf("%s: CI=true, where every tool must be installed (scripts/test.sh installs them)", msg)
		return ""
	}
	t.Skip(msg + ": this test is skipped")
	return ""
}

// Optional returns the path of the program name, or "" after logging that
// the check needing it was not made, for a test that still checks the rest
// without it. Under CI=true the absence fails the test (it goes on to its
// other checks).
func Optional(t testing.TB, name string) string {
	t.Helper()
	path, msg, known := find(t, name)
	if path != "" || !known {
		return path
	}
	if inCI() {
		t.Errorf("%s: CI=true, where every tool must be installed (scripts/test.sh installs them)", msg)
	} else {
		t.Log(msg + ": the check that needs it is not made")
	}
	return ""
}

// find looks name up on PATH; when it is absent, msg says which tool and
// how to install it. A name outside the table fails the test and known is
// false, so the caller reports nothing more (a testing.TB whose Fatalf
// returns, as in this package's tests, would otherwise be told twice).
func find(t testing.TB, name string) (path, msg string, known bool) {
	t.Helper()
	tl, ok := tools[name]
	if !ok {
		known := make([]string, 0, len(tools))
		for k := range tools {
			known = append(known, k)
		}
		slices.Sort(known)
		t.Fatalf("testtool: %q is not a known tool (known: %s); add it to the table in internal/testtool and to scripts/test.sh", name, strings.Join(known, ", "))
		return "", "", false
	}
	for _, n := range tl.names {
		if p, err := exec.LookPath(n); err == nil {
			return p, "", true
		}
		if tl.npm {
			if p, err := exec.LookPath(filepath.Join(NPMDir(), "bin", n)); err == nil {
				return p, "", true
			}
		}
	}
	return "", name + " is not installed (" + tl.install + ")", true
}

// inCI reports whether CI is set to a true value (CI=true, as GitHub
// Actions and most CI services set it, or 1).
func inCI() bool {
	ci, err := strconv.ParseBool(os.Getenv("CI"))
	return err == nil && ci
}
