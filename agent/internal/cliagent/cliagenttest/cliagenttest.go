// Package cliagenttest is what the CLI agents' tests share: a job's
// directory as the runner makes it, a session opened on one, tool calls for
// the fake model to make, and the checks every CLI agent passes the same way
// (a missing program named with its install command).
package cliagenttest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/mockset"
	"github.com/agenteval/agenteval/internal/proctest"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Job makes a job's directory as the runner does: a folder of its own
// inside the run's work folder (work), where the session's home goes too.
func Job(t testing.TB) (work, dir string) {
	t.Helper()
	work = t.TempDir()
	dir = filepath.Join(work, "agenteval-job-1")
	require.NoError(t, os.Mkdir(dir, 0o755))
	return work, dir
}

// Session opens a session of a in a new job's directory (cfg's Dir and
// JobID when it names none), closed when the test ends.
func Session(t testing.TB, a runner.Agent, cfg runner.SessionConfig) (s runner.Session, work, dir string) {
	t.Helper()
	if cfg.Dir == "" {
		work, cfg.Dir = Job(t)
	} else {
		work = filepath.Dir(cfg.Dir)
	}
	if cfg.JobID == "" {
		cfg.JobID = "x/-/run-1"
	}
	s, err := a.NewSession(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, s.Close()) })
	return s, work, cfg.Dir
}

// IssueMocks are the mocks of the CLI agents' MCP tests: github.getIssue
// answers for issue 7, and, with closing, github.closeIssue fails
// E_FORBIDDEN.
func IssueMocks(closing bool) []scenario.Mock {
	mocks := []scenario.Mock{{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Input: map[string]any{"number": 7}},
		Response: map[string]any{"title": "Crash on start", "state": "open"}}}
	if closing {
		mocks = append(mocks, scenario.Mock{Service: "github", Method: "closeIssue", Error: &scenario.MockError{Code: "E_FORBIDDEN", Message: "read-only token"}})
	}
	return mocks
}

// MockSession opens a session of a in a new job's directory whose
// scenario mocks mocks, answered and recorded by the returned set as the
// runner's would be; closed when the test ends.
func MockSession(t testing.TB, a runner.Agent, mocks []scenario.Mock) (runner.Session, *mockset.Set) {
	t.Helper()
	set := mockset.New(mocks, 1, nil)
	s, _, _ := Session(t, a, runner.SessionConfig{Scenario: &scenario.Scenario{Setup: &scenario.Setup{Mocks: mocks}}, Mocks: set})
	return s, set
}

// SendUntilTimeout sends message in a new session of a and ends the step
// as a step timeout does once a process carrying marker is alive (the
// command the fake model had the CLI run). It checks that the error says
// so and that the CLI was killed, with no process carrying marker left,
// and returns the reply the session gave: what had come before the kill.
func SendUntilTimeout(t *testing.T, a runner.Agent, marker, message string) runner.Reply {
	t.Helper()
	testtool.Need(t, "ps")
	s, _, _ := Session(t, a, runner.SessionConfig{})
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := proctest.CancelWhenAlive(t, marker, 2*time.Minute, cancel, errors.New("step timed out"))
	reply, err := s.Send(ctx, message)
	stop()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "step timed out")
	assert.Contains(t, err.Error(), "killed")
	proctest.RequireGone(t, marker, 5*time.Second)
	return reply
}

// Call is a tool call the fake model makes.
func Call(id, name, args string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// MissingProgram checks typ's errors when its program cannot be run: not
// on PATH (the error names install, the command that installs it), no
// model in the spec, and pathEnv (the variable giving its path) naming no
// executable file. It changes PATH: the test must not be parallel.
func MissingProgram(t *testing.T, typ *runner.AgentType, pathEnv, install string) {
	t.Setenv("PATH", t.TempDir())
	_, err := typ.New("fake-model", runner.AgentOptions{Getenv: func(string) string { return "" }})
	require.Error(t, err)
	assert.Contains(t, err.Error(), install)
	_, err = typ.New("", runner.AgentOptions{})
	require.ErrorContains(t, err, "name a model")
	env := map[string]string{pathEnv: filepath.Join(t.TempDir(), "nowhere")}
	_, err = typ.New("m", runner.AgentOptions{Getenv: func(k string) string { return env[k] }})
	require.ErrorContains(t, err, pathEnv+"=")
	assert.Contains(t, err.Error(), "not an executable file")
}
