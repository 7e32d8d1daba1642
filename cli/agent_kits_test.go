//go:build unix

package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/internal/testtool"
)

// agentKit is one of the agent kits under examples/agents: the interpreter
// it needs, its example agent and scenario, and a misbehaving agent written
// with it (testdata/kits).
type agentKit struct {
	name, interpreter    string
	example, scenario    string
	failing, environment string
}

func agentKits(t *testing.T) []agentKit {
	t.Helper()
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		require.NoError(t, err)
		return a
	}
	return []agentKit{
		{name: "python", interpreter: "python3",
			example: abs("../examples/agents/python/weather_agent.py"), scenario: "../examples/agents/python/weather.scenario.yaml",
			failing: abs("testdata/kits/failing_agent.py"), environment: "PYTHONPATH=" + abs("../examples/agents/python")},
		{name: "node", interpreter: "node",
			example: abs("../examples/agents/node/weather-agent.mjs"), scenario: "../examples/agents/node/weather.scenario.yaml",
			failing: abs("testdata/kits/failing-agent.mjs")},
	}
}

// command is the --agent value that runs program with the kit's
// interpreter, carrying marker in its arguments and counting the
// processes started in the file starts.
func (k agentKit) command(program, marker, starts string) string {
	return fmt.Sprintf("exec:echo started >> %s; %s exec %s %s %s", starts, k.environment, k.interpreter, program, marker)
}

func (k agentKit) skipUnlessInstalled(t *testing.T) {
	t.Helper()
	testtool.Need(t, k.interpreter)
}

// kitResult is the part of a results record these tests read.
type kitResult struct {
	ID        string         `json:"id"`
	Record    string         `json:"record"`
	Completed bool           `json:"completed"`
	Passed    bool           `json:"passed"`
	Error     string         `json:"error"`
	Crash     string         `json:"crash"`
	AgentLog  string         `json:"agent_log"`
	Notes     []string       `json:"notes"`
	Params    map[string]any `json:"params"`
	Usage     struct {
		TotalTokens int `json:"total_tokens"`
	} `json:"usage"`
	MockCalls []struct {
		Args []any `json:"args"`
	} `json:"mock_calls"`
	Evaluations []struct {
		Type    string         `json:"type"`
		Passed  bool           `json:"passed"`
		Details map[string]any `json:"details"`
	} `json:"evaluations"`
}

func readKitResults(t *testing.T, path string) []kitResult {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []kitResult
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r kitResult
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		if r.Record == "job" {
			out = append(out, r)
		}
	}
	return out
}

func countStarts(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return strings.Count(string(b), "started")
}

// run runs `agenteval run` with program under the kit's interpreter and
// the rest of args: it returns the exit code, stderr, the results folder,
// the marker the program carries and the file that counts its starts.
func (k agentKit) run(t *testing.T, program string, args ...string) (code int, stderr, out, marker, starts string) {
	t.Helper()
	k.skipUnlessInstalled(t)
	dir := t.TempDir()
	marker = "agenteval-kit-" + k.name + "-" + proctest.SleepArg()
	starts = filepath.Join(dir, "starts")
	out = filepath.Join(dir, "out")
	code, _, stderr = runCLI(t, append([]string{"run", "--agent", k.command(program, marker, starts), "--out", out}, args...)...)
	return code, stderr, out, marker, starts
}

// Each kit's example agent passes its example scenario (mocks, actions,
// usage, memory within a session) through `agenteval run`, in persistent
// mode: at most --concurrency processes serve every session, and none is
// left when the run ends.
func TestAgentKitsPassTheirExamples(t *testing.T) {
	t.Parallel()
	for _, kit := range agentKits(t) {
		t.Run(kit.name, func(t *testing.T) {
			t.Parallel()
			code, stderr, out, marker, starts := kit.run(t, kit.example, "--runs", "12", "--concurrency", "3", kit.scenario)
			require.Equal(t, exitOK, code, stderr)
			assert.Contains(t, stderr, "12 job(s): 12 passed")
			assert.LessOrEqual(t, countStarts(t, starts), 3, "persistent: one process per slot of --concurrency")
			assert.Empty(t, proctest.Alive(t, marker), "no agent process outlives the run")
			results := readKitResults(t, filepath.Join(out, "results.jsonl"))
			require.Len(t, results, 12)
			for _, r := range results {
				assert.True(t, r.Passed, r.ID)
				assert.Equal(t, 39, r.Usage.TotalTokens, "usage reported for each of three messages")
				require.Len(t, r.MockCalls, 3, "one mock call per message")
				assert.Equal(t, map[string]any{"city": "Oslo"}, r.MockCalls[2].Args[0], "the session remembered its city")
				require.NotEmpty(t, r.Evaluations)
				assert.Equal(t, "trajectory_contains_action", r.Evaluations[1].Type)
				assert.Equal(t, []any{"GET_WEATHER"}, r.Evaluations[1].Details["actions"])
			}
		})
	}
}

// A kit agent killed mid-session, one that hangs, one that prints garbage
// and one that raises each cost their own session only: it is recorded
// with the reason and the tail of the agent's stderr, and every other
// session passes; no process is left.
func TestAgentKitsFailuresCostOnlyTheirSession(t *testing.T) {
	t.Parallel()
	for _, kit := range agentKits(t) {
		t.Run(kit.name, func(t *testing.T) {
			t.Parallel()
			code, stderr, out, marker, starts := kit.run(t, kit.failing, "--concurrency", "2", "--infra-retries", "0", "testdata/kits/misbehave.matrix.yaml")
			assert.Equal(t, exitFail, code, stderr)
			assert.Contains(t, stderr, "14 job(s): 10 passed, 0 failed, 4 incomplete")
			assert.Empty(t, proctest.Alive(t, marker), "no agent process outlives the run")
			byInput := map[string]kitResult{}
			for _, r := range readKitResults(t, filepath.Join(out, "results.jsonl")) {
				input, _ := r.Params["run[0].input"].(string)
				byInput[input] = r
				if strings.HasPrefix(input, "ok") {
					assert.True(t, r.Passed, "%s: %s", input, r.Error)
				}
			}
			require.Len(t, byInput, 14)
			notes := func(r kitResult) string { return strings.Join(r.Notes, "\n") }

			die := byInput["die"]
			assert.False(t, die.Completed)
			assert.Contains(t, die.Error, "signal: killed")
			assert.Contains(t, die.Error, "dying as asked", "the tail of its stderr")

			hang := byInput["hang"]
			assert.False(t, hang.Completed)
			assert.Contains(t, hang.Error, "timed out")
			assert.Contains(t, notes(hang), "killed 1 process", "the hung process was killed")
			assert.Contains(t, notes(hang), kit.interpreter)
			assert.Contains(t, notes(hang), "hanging as asked")

			garbage := byInput["garbage"]
			assert.False(t, garbage.Completed)
			assert.Contains(t, garbage.Error, "line is not JSON")
			assert.Contains(t, garbage.Error, "this is not the protocol")
			assert.Contains(t, notes(garbage), "writing garbage as asked")

			raised := byInput["raise"]
			assert.False(t, raised.Completed)
			assert.Contains(t, raised.Error, "raising as asked")
			assert.Empty(t, raised.Notes, "an error is in step: its process serves on")
			// The exception's traceback is kept, and the log the kit wrote.
			trace := map[string]string{"python": "Traceback (most recent call last)", "node": "RangeError: raising as asked\n    at "}[kit.name]
			assert.Contains(t, raised.Crash, trace)
			assert.Contains(t, raised.Crash, filepath.Base(kit.failing), "the stack names the agent's file")
			assert.Contains(t, raised.AgentLog, "raising as asked", "the log the kit wrote on stderr")
			// Every report says why, with the traceback.
			for _, format := range []string{"md", "junit", "html"} {
				code, report, stderr := runCLI(t, "report", "--format", format, out)
				require.Equal(t, exitOK, code, stderr)
				assert.Contains(t, report, "raising as asked", format)
				assert.Contains(t, report, filepath.Base(kit.failing), "%s: the traceback", format)
			}

			// Two processes to start with, and one more for each of the three
			// that were killed (a kept process may be replaced once more when
			// a session it was about to serve found it dead).
			assert.LessOrEqual(t, countStarts(t, starts), 2+3*2)
		})
	}
}
