package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/internal/githubfake"
)

// TestRunGhxHeadWithSeedPerIteration runs ghx's eval scenarios as its
// repository holds them today (every one asks for seedPerIteration) end to
// end: fixtures seeded with `agenteval fixture seed`, then `agenteval run`
// with the manifest and the seed file against a fake GitHub spoken to by
// the real githubv4 client. Each attempt (retries too) gets fresh
// resources of its own, its prompt and checkpoints name them, run_id is
// bound, and they are closed when the attempt is over; the seeded fixtures
// are never touched.
// ghxGitHub is a fake GitHub holding the fixtures ghx's scenarios need,
// seeded with `agenteval fixture seed` from testdata/ghx/seed.yaml.
type ghxGitHub struct {
	srv                 *githubfake.Server
	vars                map[string]string // the environment: a token
	url, seed, manifest string            // --graphql-url=..., the seed file, the manifest written
}

func seedGhxGitHub(t *testing.T, dir string) ghxGitHub {
	t.Helper()
	const token = "ghp_ghxFixturesTest"
	g := ghxGitHub{srv: githubfake.NewServer(t), vars: map[string]string{"GH_TOKEN": token},
		seed: filepath.Join("testdata", "ghx", "seed.yaml"), manifest: filepath.Join(dir, "latest.json")}
	g.srv.RequireToken(token)
	g.srv.AddRepo("acme/fixtures")
	g.url = "--graphql-url=" + g.srv.GraphQLURL()
	code, stdout, stderr := runCLIEnv(t, g.vars, "fixture", "seed", "--seed-file", g.seed, "--manifest", g.manifest, g.url)
	require.Equal(t, exitOK, code, stdout+stderr)
	return g
}

func TestRunGhxHeadWithSeedPerIteration(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := seedGhxGitHub(t, dir)
	srv, vars, url, seed, manifestPath := g.srv, g.vars, g.url, g.seed, g.manifest
	m, err := fixture.LoadManifest(manifestPath)
	require.NoError(t, err)
	seeded := map[int]bool{}
	for _, r := range m.Fixtures {
		seeded[int(r.Number)] = true
	}
	require.Len(t, seeded, 5)

	out := filepath.Join(dir, "out")
	code, _, stderr := runCLIEnv(t, vars, "run", "--agent", "echo", "--manifest", manifestPath, "--seed-file", seed, url, "--out", out,
		filepath.Join("..", "testdata", "corpus", "ghx-f128993", "packages", "eval", "scenarios"))
	// The echo agent does none of the work: every job completes and fails
	// on its checkpoints, none is incomplete.
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "5 job(s): 0 passed, 5 failed, 0 incomplete", stderr)

	number := regexp.MustCompile(`#(\d+)`)
	fresh := map[int]bool{}
	var runID string
	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Record      string `json:"record"`
			RunID       string `json:"run_id"`
			ID          string `json:"id"`
			Completed   bool   `json:"completed"`
			Attempts    int    `json:"attempts"`
			Notes       []string
			Transcript  []struct{ Role, Text string }
			Checkpoints []struct {
				ID     string
				Passed bool
				Error  string
			}
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		if rec.Record == "plan" {
			runID = rec.RunID
			continue
		}
		assert.True(t, rec.Completed, rec.ID)
		assert.Equal(t, 2, rec.Attempts, "%s: allowedRetries 1 gives a failed job a second attempt", rec.ID)
		assert.Empty(t, rec.Notes, rec.ID)
		require.NotEmpty(t, rec.Transcript, rec.ID)
		prompt := rec.Transcript[0].Text
		if strings.HasPrefix(rec.ID, "issue-close-with-context-wf-001/") {
			assert.Contains(t, prompt, "'Memory leak in connection pooling'", "the search term from the fresh issue's metadata")
			for _, cp := range rec.Checkpoints {
				assert.NotContains(t, cp.Error, "could not", cp.ID)
			}
		} else {
			match := number.FindStringSubmatch(prompt)
			require.NotNil(t, match, "%s: %s", rec.ID, prompt)
			n, _ := strconv.Atoi(match[1])
			assert.False(t, seeded[n], "%s works on #%d, a fresh resource, not a seeded one", rec.ID, n)
			fresh[n] = true
		}
		if strings.HasPrefix(rec.ID, "pr-review-comment-001/") {
			assert.Contains(t, prompt, "Include the run ID '"+runID+"'")
		}
		if strings.HasPrefix(rec.ID, "issue-to-pr-lifecycle-wf-001/") {
			assert.Regexp(t, `from branch 'agenteval/ghx-eval/issue_with_branch\.run-[0-9a-f]+' to 'main'`, prompt)
		}
		assert.NotEmpty(t, rec.Checkpoints, rec.ID)
	}
	require.NoError(t, sc.Err())
	assert.NotEmpty(t, runID)
	assert.Len(t, fresh, 4)

	// Every resource a run created is closed; the seeded ones are open.
	created := 0
	for _, p := range srv.PullRequests("acme/fixtures") {
		if seeded[p.Number] {
			assert.Equal(t, "OPEN", p.State, "seeded #%d", p.Number)
			continue
		}
		created++
		assert.Equal(t, "CLOSED", p.State, "#%d", p.Number)
		_, branchLeft := srv.BranchOID("acme/fixtures", p.Head)
		assert.False(t, branchLeft, "#%d's branch %s is deleted", p.Number, p.Head)
	}
	for _, i := range srv.Issues("acme/fixtures") {
		if seeded[i.Number] {
			assert.Equal(t, "OPEN", i.State, "seeded #%d", i.Number)
			continue
		}
		created++
		assert.Equal(t, "CLOSED", i.State, "#%d", i.Number)
	}
	assert.Equal(t, 10, created, "five scenarios, two attempts each, one fresh resource per attempt")

	// Without the seed file the same run cannot seed, and says so per job.
	code, _, stderr = runCLIEnv(t, vars, "run", "--agent", "echo", "--manifest", manifestPath, url, "--out", filepath.Join(dir, "out2"),
		filepath.Join("..", "testdata", "corpus", "ghx-f128993", "packages", "eval", "scenarios", "pr-review-comment-001.json"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "seed_per_iteration (fresh pr_with_changes for each run) and nothing can create them; pass --seed-file")
	assert.Contains(t, stderr, "1 job(s): 0 passed, 0 failed, 1 incomplete")
}
