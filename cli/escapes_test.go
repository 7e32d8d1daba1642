package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/termsafe"
)

// hiddenRunes are what must never reach a terminal or a report raw.
var hiddenRunes = []string{"\x1b", "\x07", "\u009b", "\u202e", "\u2066", "\r\n"}

// TestTerminalEscapesAreShownNotObeyed: agent stderr (run -v), GitHub's
// error messages (checkpoint, fixture status) and scenario names (report
// to stdout) once reached the terminal raw, escape sequences and all;
// Markdown and HTML reports carried bidi overrides. Every such character
// is shown as an escape instead.
func TestTerminalEscapesAreShownNotObeyed(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u2066"
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/graphql") {
			_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{"type": "FORBIDDEN", "message": "denied " + evil}}})
			return
		}
		w.WriteHeader(http.StatusForbidden)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": "denied " + evil})
	}))
	t.Cleanup(gh.Close)
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	// The name, in YAML's escapes, is "Greets " + evil.
	name := `"Greets \e]0;pwned\a\e[2J\u009b31m\u202eevil\u2066"`
	scen := write("s.scenario.yaml", "name: "+name+"\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hello\n    evaluations: [{type: string_contains, value: never}]\njudgment: {strategy: all_pass}\n")
	agent := write("agent.sh", "read start; read msg; printf '%b' 'crash \\033]0;pwned\\007\\033[2J\\r\\n' >&2; exit 3\n")
	ghScen := write("leak-001.json", leakGitHubScenario)
	manifest := write("manifest.json", leakManifest)
	vars := map[string]string{"GITHUB_TOKEN": "token-for-the-fake"}
	var streams []string
	cli := func(args ...string) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] }, isTerminal: true}
		mainWith(context.Background(), env, args)
		streams = append(streams, strings.Join(args, " ")+"\n"+stdout.String()+stderr.String())
	}
	out := filepath.Join(dir, "out")
	cli("run", "-v", "--agent", "exec:sh "+agent, "--out", out, scen)
	cli("run", "-v", "--agent", "echo", "--out", filepath.Join(dir, "out2"), scen)
	results := filepath.Join(out, "results.jsonl")
	cli("report", results)
	cli("report", "--format", "html", "--out", filepath.Join(dir, "r.html"), results)
	cli("report", "--format", "md", "--out", filepath.Join(dir, "r.md"), filepath.Join(dir, "out2", "results.jsonl"))
	cli("report", "compare", results, filepath.Join(dir, "out2", "results.jsonl"))
	cli("checkpoint", "--manifest", manifest, "--graphql-url", gh.URL+"/graphql", ghScen)
	cli("fixture", "status", "--manifest", manifest, "--graphql-url", gh.URL+"/graphql")
	for _, f := range []string{"r.html", "r.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		streams = append(streams, f+"\n"+string(b))
	}
	all := strings.Join(streams, "\n")
	require.Contains(t, all, `\x1b]0;pwned\x07`, "the escapes are shown")
	require.Contains(t, all, `\u202eevil`)
	require.Contains(t, all, "denied", "GitHub's message was printed")
	for _, s := range streams {
		s = strings.ReplaceAll(s, termsafe.ClearLine, "") // the progress line's own redraw
		for _, h := range hiddenRunes {
			assert.NotContains(t, s, h, "%q in %s", h, s[:min(len(s), 200)])
		}
	}
}
