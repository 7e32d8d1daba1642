package toolclass

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClassifyGhxCases holds every case of ghx's own tests
// (packages/eval/test/unit/collector/tool-classifier.test.ts at f128993)
// and the consequences ghx.md §6.3 lists.
func TestClassifyGhxCases(t *testing.T) {
	t.Parallel()
	cmd := func(c string) map[string]any { return map[string]any{"command": c} }
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		// ghx's tests.
		{"ghx", nil, GHX}, {"ghx.pr.view", nil, GHX}, {"ghx_run", nil, GHX},
		{"github_pr_view", nil, MCP}, {"mcp_github_list_issues", nil, MCP}, {"mcp__github__get_pr", nil, MCP},
		{"read_file", nil, FileOps}, {"write_file", nil, FileOps}, {"edit_file", nil, FileOps}, {"list_files", nil, FileOps},
		{"Read", nil, FileOps}, {"Write", nil, FileOps}, {"Edit", nil, FileOps},
		{"bash", cmd("gh pr view 42 --json title"), GhCLI}, {"Bash", cmd("gh issue list"), GhCLI}, {"shell", cmd("  gh api repos/owner/repo"), GhCLI},
		{"bash", cmd("git log --oneline"), Bash}, {"bash", cmd("ls -la"), Bash}, {"terminal", nil, Bash},
		{"custom_tool", nil, Other}, {"some_random_tool", nil, Other},
		{"bash", nil, Bash}, {"bash", map[string]any{}, Bash},
		// §6.3's consequences and the rest of the rules.
		{"GitHub_x", nil, Other}, {"mcpfoo", nil, Other}, {"Grep", nil, Other}, {"glob", nil, Other}, {"ghx-run", nil, Other},
		{"list_directory", nil, FileOps}, {"create_file", nil, FileOps}, {"delete_file", nil, FileOps}, {"view_file", nil, FileOps}, {"Glob", nil, FileOps},
		{"run_terminal_cmd", cmd("gh"), GhCLI}, {"computer", cmd("gh\tpr"), GhCLI},
		{"bash", cmd("echo x && gh pr view"), Bash}, {"bash", cmd("ghx run pr.view"), Bash},
		{"bash", cmd("/usr/bin/gh pr view"), GhCLI}, {"bash", cmd(`C:\tools\gh pr view`), GhCLI}, {"bash", cmd("cd /x && /opt/gh"), GhCLI},
		{"bash", cmd("/usr/bin/ghx pr"), Bash}, {"bash", cmd("ghost"), Bash}, {"bash", cmd("GH pr"), Bash},
		{"bash", map[string]any{"cmd": "gh pr"}, GhCLI}, {"bash", map[string]any{"input": "gh pr"}, GhCLI},
		{"bash", map[string]any{"command": nil, "cmd": "gh pr"}, GhCLI},
		{"bash", map[string]any{"command": 42, "cmd": "gh pr"}, Bash},
		{"bash", map[string]any{"command": "ls", "cmd": "gh pr"}, Bash},
		// JavaScript's white space, not Go's.
		{"bash", cmd("\ufeffgh pr"), GhCLI}, {"bash", cmd("\u3000gh\u00a0pr"), GhCLI}, {"bash", cmd("\u0085gh pr"), Bash}, {"bash", cmd("gh\u0085"), Bash},
		{"ghx", cmd("anything"), GHX}, {"bash_tool", cmd("gh pr"), Other},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Classify(c.name, c.args), "%s %v", c.name, c.args)
	}
}

func TestClassifierOwnCategories(t *testing.T) {
	t.Parallel()
	c, err := New([]Category{
		{Name: "search", Tools: []string{"Grep", "grep"}, Prefixes: []string{"search_"}, Commands: []string{`^\s*(rg|grep)\b`}},
		{Name: "file_ops", Tools: []string{"cat_file"}},
		{Name: "ghx", Commands: []string{`^ghx `}},
	})
	require.NoError(t, err)
	assert.Equal(t, []string{GHX, MCP, GhCLI, Bash, FileOps, Other, "search"}, c.Names())
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"Grep", nil, "search"}, {"search_code", nil, "search"}, {"bash", map[string]any{"command": " rg foo"}, "search"},
		{"bash", map[string]any{"command": "ls"}, Bash}, {"cat_file", nil, FileOps}, {"Read", nil, FileOps},
		{"bash", map[string]any{"command": "ghx run pr.view"}, GHX}, {"Grep2", nil, Other}, {"grep_tool", map[string]any{"command": "rg x"}, Other},
	} {
		assert.Equal(t, tc.want, c.Classify(tc.name, tc.args), "%s %v", tc.name, tc.args)
	}
	_, err = New([]Category{{Name: "x", Commands: []string{"("}}})
	assert.ErrorContains(t, err, "category x")
	_, err = New([]Category{{Tools: []string{"a"}}})
	assert.Error(t, err)
}

func TestClassifyDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector (sync.Pool drops items at random)")
	}
	c, err := New([]Category{{Name: "search", Tools: []string{"Grep"}, Commands: []string{`^rg\b`}}})
	require.NoError(t, err)
	args := map[string]any{"command": "  /usr/bin/gh pr view 1"}
	n := testing.AllocsPerRun(100, func() {
		_ = c.Index("bash", args)
		_ = c.Index("Grep", nil)
		_ = Classify("mcp__github__x", nil)
	})
	assert.Zero(t, n)
}

// jsSpace is JavaScript's \s, written out.
const jsSpace = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// reference is ghx's classifier transcribed with regular expressions, as
// its source reads, for the fuzz target to compare with.
var (
	refStart = regexp.MustCompile(`^` + jsSpace + `*gh(?:` + jsSpace + `|$)`)
	refPath  = regexp.MustCompile(`[/\\]gh(?:` + jsSpace + `|$)`)
	refGhx   = regexp.MustCompile(`^(?:ghx$|ghx\.|ghx_)`)
	refMCP   = regexp.MustCompile(`^(?:github_|mcp_|mcp__)`)
)

func reference(name string, args map[string]any) string {
	switch {
	case refGhx.MatchString(name):
		return GHX
	case refMCP.MatchString(name):
		return MCP
	}
	for _, f := range []string{"read_file", "write_file", "edit_file", "list_files", "list_directory", "create_file", "delete_file", "view_file", "Read", "Write", "Edit", "Glob"} {
		if name == f {
			return FileOps
		}
	}
	for _, b := range []string{"bash", "shell", "terminal", "Bash", "run_terminal_cmd", "computer"} {
		if name != b {
			continue
		}
		var v any
		for _, k := range []string{"command", "cmd", "input"} {
			if x, ok := args[k]; ok && x != nil {
				v = x
				break
			}
		}
		if s, ok := v.(string); ok && (refStart.MatchString(s) || refPath.MatchString(s)) {
			return GhCLI
		}
		return Bash
	}
	return Other
}

func FuzzClassify(f *testing.F) {
	for _, s := range []string{"gh pr", " \ufeffgh", "/gh", `x\gh y`, "ghx", "gh\u0085", "\xffgh", "a/gh\u2028", "/ghx"} {
		f.Add("bash", s, "command")
		f.Add("shell", s, "cmd")
	}
	f.Add("ghx.pr", "", "input")
	f.Add("mcp__x", "", "other")
	f.Fuzz(func(t *testing.T, name, cmd, key string) {
		args := map[string]any{key: cmd}
		got := Classify(name, args)
		if want := reference(name, args); got != want {
			t.Fatalf("Classify(%q, %q: %q) = %s, ghx's rules say %s", name, key, cmd, got, want)
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	c, err := New([]Category{{Name: "search", Tools: []string{"Grep"}, Prefixes: []string{"search_"}, Commands: []string{`^\s*(rg|grep)\b`}}})
	require.NoError(b, err)
	calls := []struct {
		name string
		args map[string]any
	}{{"bash", map[string]any{"command": "gh pr view 1"}}, {"bash", map[string]any{"command": "ls -la"}}, {"Read", nil}, {"mcp__github__get_pr", nil}, {"Grep", nil}, {"custom", nil}}
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range calls {
			_ = c.Index(k.name, k.args)
		}
	}
}
