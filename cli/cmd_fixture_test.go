package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/githubfake"
)

const fixtureCLISeed = `seed_id: cli-1
repo: acme/fixtures
fixtures:
  pr_with_changes:
    type: pr
    title: Change things
    commits:
      - message: Change
        files: {a.txt: "a\nb\n"}
    threads:
      - {path: a.txt, line: 1, body: "Why a?"}
  issue_for_triage:
    type: issue
    title: Triage me
`

func runFixtureCLI(t *testing.T, token string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string {
		if k == "GH_TOKEN" {
			return token
		}
		return ""
	}}
	code = mainWith(t.Context(), env, append([]string{"fixture"}, args...))
	return code, out.String(), errb.String()
}

func TestFixtureCommand(t *testing.T) {
	srv := githubfake.NewServer(t)
	srv.RequireToken("cli-secret")
	srv.AddRepo("acme/fixtures")
	dir := t.TempDir()
	seed := filepath.Join(dir, "seed.yaml")
	require.NoError(t, os.WriteFile(seed, []byte(fixtureCLISeed), 0o644))
	manifest := filepath.Join(dir, "fixtures", "latest.json")
	url := "--graphql-url=" + srv.GraphQLURL()

	code, _, stderr := runFixtureCLI(t, "cli-secret", "seed", "--seed-file", seed, "--manifest", manifest, "--dry-run", url)
	assert.Equal(t, exitOK, code, "planned work is no failure")
	assert.Contains(t, stderr, "dry run: nothing changed")
	assert.NoFileExists(t, manifest)

	code, stdout, stderr := runFixtureCLI(t, "cli-secret", "seed", "--seed-file", seed, "--manifest", manifest, url)
	require.Equal(t, exitOK, code, stdout+stderr)
	m, err := fixture.LoadManifest(manifest)
	require.NoError(t, err)
	assert.Len(t, m.Fixtures, 2)

	code, stdout, _ = runFixtureCLI(t, "cli-secret", "status", "--manifest", manifest, "--format", "json", url)
	assert.Equal(t, exitOK, code)
	var rep fixture.Report
	require.NoError(t, json.Unmarshal([]byte(stdout), &rep))
	assert.Equal(t, "status", rep.Op)
	assert.True(t, rep.Clean())

	srv.Repo("acme/fixtures").Commit(m.Fixtures["pr_with_changes"].Branch, "agent", githubfake.File{Path: "b.txt", Content: "b"})
	code, stdout, _ = runFixtureCLI(t, "cli-secret", "status", "--manifest", manifest, url)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stdout, "drift: head is")

	code, _, _ = runFixtureCLI(t, "cli-secret", "reset", "--manifest", manifest, url, "pr_with_changes")
	assert.Equal(t, exitOK, code)
	code, _, _ = runFixtureCLI(t, "cli-secret", "cleanup", "--manifest", manifest, url)
	assert.Equal(t, exitOK, code)
	for _, i := range srv.Issues("acme/fixtures") {
		assert.Equal(t, "CLOSED", i.State)
	}

	code, _, stderr = runFixtureCLI(t, "wrong-token", "status", "--manifest", manifest, url)
	assert.Equal(t, exitFail, code)
	assert.NotContains(t, stderr, "cli-secret")

	code, _, stderr = runFixtureCLI(t, "", "status", "--manifest", manifest, url)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "GITHUB_TOKEN")
	code, _, stderr = runFixtureCLI(t, "x", "staus")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `did you mean "status"`)
	code, _, _ = runFixtureCLI(t, "x", "seed", "--manifest", manifest)
	assert.Equal(t, exitUsage, code)
}
