package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
)

// corpusDir holds real files of both upstream projects at several commits
// (see its PROVENANCE.md); EXPECT.json says, for each, what its own
// project's loader does with it.
const corpusDir = "../testdata/corpus"

type corpusVerdict struct {
	Valid bool `json:"valid"`
	// Errors are the fields the project rejects, as field paths.
	Errors []string `json:"errors"`
	// Base is where ElizaOS found a matrix's base scenario.
	Base string `json:"base"`
}

func readExpect(t *testing.T) map[string]corpusVerdict {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpusDir, "EXPECT.json"))
	require.NoError(t, err)
	var e map[string]corpusVerdict
	require.NoError(t, json.Unmarshal(b, &e))
	require.NotEmpty(t, e)
	return e
}

// corpusSnapshots lists the corpus's directories: one per project and commit.
func corpusSnapshots(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(corpusDir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	require.GreaterOrEqual(t, len(out), 6)
	return out
}

// TestCorpusValidatesAsUpstream validates each snapshot as a whole tree, as
// a user would point validate at a checkout: every file its project loads
// has no error (ghx's none and no warning either), every file its project
// rejects has an error at each field the project names, and nothing else
// has an error.
func TestCorpusValidatesAsUpstream(t *testing.T) {
	t.Parallel()
	expect := readExpect(t)
	seen := map[string]bool{}
	for _, snap := range corpusSnapshots(t) {
		t.Run(snap, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "validate", "--format", "json", filepath.Join(corpusDir, snap))
			require.NotEqual(t, exitUsage, code, stderr)
			var out struct {
				Diagnostics []struct {
					File, Path, Severity, Code, Message string
				}
			}
			require.NoError(t, json.Unmarshal([]byte(stdout), &out))
			errs, warns := map[string][]string{}, map[string][]string{}
			for _, d := range out.Diagnostics {
				rel := strings.TrimPrefix(filepath.ToSlash(d.File), corpusDir+"/")
				switch d.Severity {
				case "error":
					errs[rel] = append(errs[rel], d.Path)
				default:
					warns[rel] = append(warns[rel], d.Code+" "+d.Path+": "+d.Message)
				}
			}
			wantFail := false
			for name, v := range expect {
				if !strings.HasPrefix(name, snap+"/") {
					continue
				}
				seen[name] = true
				if v.Valid {
					assert.Empty(t, errs[name], "%s loads in its own project", name)
					if strings.HasPrefix(snap, "ghx-") {
						assert.Empty(t, warns[name], "%s: ghx's files have nothing we do not know", name)
					}
					if strings.HasSuffix(name, ".matrix.yaml") {
						oldStyle := slices.ContainsFunc(warns[name], func(w string) bool { return strings.HasPrefix(w, "base-fallback ") })
						assert.Equal(t, v.Base != "matrix dir", oldStyle, "%s: ElizaOS found its base in the %s", name, v.Base)
					}
					continue
				}
				wantFail = true
				require.NotEmpty(t, errs[name], "%s is rejected by its own project", name)
				for _, p := range v.Errors {
					assert.Contains(t, errs[name], p, "%s: its project rejects %s", name, p)
				}
			}
			for name := range errs {
				_, listed := expect[name]
				assert.True(t, listed, "an error in %s, which is not one of the project's files: %v", name, errs[name])
			}
			if wantFail {
				assert.Equal(t, exitFail, code)
			} else {
				assert.Equal(t, exitOK, code, stdout)
			}
			if strings.HasPrefix(snap, "ghx-") {
				// The sets file named on its own is checked against the
				// scenarios beside it, as ghx reads them.
				sets := filepath.Join(corpusDir, snap, "packages", "eval", "scenarios", "scenario-sets.json")
				code, stdout, _ := runCLI(t, "validate", sets)
				assert.Equal(t, exitOK, code, stdout)
			}
		})
	}
	t.Cleanup(func() {
		for name := range expect {
			assert.True(t, seen[name], "EXPECT.json lists %s, which no snapshot holds", name)
		}
	})
}

// TestCorpusElizaOSRunsWithEcho runs every ElizaOS file its project loads
// (scenarios and matrices of three commits) with the echo agent, a judge
// model on a local OpenAI-compatible server and the offline user simulator:
// run accepts them all, records one result per job, and every job
// completes, except those whose code steps would run upstream commands,
// which are recorded incomplete for want of --allow-commands.
func TestCorpusElizaOSRunsWithEcho(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return llmtest.JSON(map[string]any{"pass": true, "score": 0.8, "reasoning": "looks right", "capabilities": []any{}})
	})
	var files []string
	jobs := 0
	for name, v := range readExpect(t) {
		if !strings.HasPrefix(name, "eliza-") || !v.Valid {
			continue
		}
		path := filepath.Join(corpusDir, name)
		files = append(files, path)
		if !strings.HasSuffix(name, ".matrix.yaml") {
			jobs++
			continue
		}
		code, stdout, stderr := runCLI(t, "matrix", "--count", path)
		require.Equal(t, exitOK, code, stderr)
		n, err := strconv.Atoi(strings.TrimSpace(stdout))
		require.NoError(t, err)
		jobs += n
	}
	require.Greater(t, len(files), 40)
	out := t.TempDir()
	args := append([]string{"run", "--agent", "echo", "--env-fallback", "local", "--judge-model", "openai:" + srv.Config().Model, "--out", out}, files...)
	code, _, stderr := runCLIEnv(t, map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}, args...)
	require.NotEqual(t, exitUsage, code, "run accepts every file its project loads: %s", stderr)

	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	got, completed := 0, 0
	for sc.Scan() {
		var r struct {
			Record    string `json:"record"`
			ID        string `json:"id"`
			Completed bool   `json:"completed"`
			Reason    string `json:"reason"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		if r.Record == "plan" {
			continue
		}
		got++
		if r.Completed {
			completed++
			continue
		}
		assert.Contains(t, r.Reason, "commands are not allowed", "%s is incomplete only for want of --allow-commands", r.ID)
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, jobs, got, "one result per job")
	assert.Greater(t, completed, jobs/2)
}

// TestCorpusGhxRunsWithEcho runs every ghx version's scenarios with the echo
// agent against a fake GitHub, the fixtures seeded from one seed file:
// reseedPerIteration (the first version) resets, seedPerIteration (the
// later ones) seeds afresh, and every job completes: its checkpoints are
// decided on live state.
func TestCorpusGhxRunsWithEcho(t *testing.T) {
	t.Parallel()
	for _, snap := range corpusSnapshots(t) {
		if !strings.HasPrefix(snap, "ghx-") {
			continue
		}
		t.Run(snap, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			g := seedGhxGitHub(t, dir)
			scenarios := filepath.Join(corpusDir, snap, "packages", "eval", "scenarios")
			code, _, stderr := runCLIEnv(t, g.vars, "run", "--agent", "echo", "--manifest", g.manifest, "--seed-file", g.seed, g.url,
				"--out", filepath.Join(dir, "out"), scenarios)
			require.Equal(t, exitFail, code, "the echo agent does no work: %s", stderr)
			entries, err := os.ReadDir(scenarios)
			require.NoError(t, err)
			n := len(entries) - 1 // scenario-sets.json runs nothing
			assert.Contains(t, stderr, strconv.Itoa(n)+" job(s): 0 passed, "+strconv.Itoa(n)+" failed, 0 incomplete")
		})
	}
}
