//go:build unix

package evaluate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/scenario"
)

func TestCommandExitCodeIs(t *testing.T) {
	t.Parallel()
	allowed := func() evaluate.Input {
		in := reply("ok")
		in.Trace.Dir = t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(in.Trace.Dir, "go.txt"), []byte("x"), 0o644))
		in.Env = &evaluate.Env{AllowCommands: true}
		return in
	}
	denied := allowed()
	denied.Env = &evaluate.Env{}
	noEnv := allowed()
	noEnv.Env = nil
	noDir := allowed()
	noDir.Trace.Dir = ""
	runCases(t, "command_exit_code_is", []evalCase{
		{name: "exit 0 in the run's directory", params: &evalparams.CommandExitCodeIs{Command: "test -f go.txt"}, in: allowed(), pass: true, score: 1, msg: `command "test -f go.txt" exited with 0`},
		{name: "expected non-zero", params: &evalparams.CommandExitCodeIs{Command: "exit 3", ExpectedCode: 3}, in: allowed(), pass: true, score: 1},
		{name: "wrong code shows output", params: &evalparams.CommandExitCodeIs{Command: "echo building; echo 'FAIL: TestX' >&2; exit 1"}, in: allowed(), score: 0,
			msg: `command "echo building; echo 'FAIL: TestX' >&2; exit 1" exited with 1, want 0; output ends "FAIL: TestX"`},
		{name: "not allowed", params: &evalparams.CommandExitCodeIs{Command: "true"}, in: denied, evalErr: `command "true" was not run: commands are not allowed; pass --allow-commands`},
		{name: "no env", params: &evalparams.CommandExitCodeIs{Command: "true"}, in: noEnv, evalErr: "pass --allow-commands"},
		{name: "no directory", params: &evalparams.CommandExitCodeIs{Command: "true"}, in: noDir, score: 0, msg: "command_exit_code_is needs the run's directory"},
		{name: "timeout", params: &evalparams.CommandExitCodeIs{Command: "sleep 5", TimeoutMS: 50}, in: allowed(), score: 0, msg: `command "sleep 5" timed out after 50ms and was killed`},
		{name: "malformed: empty", params: &evalparams.CommandExitCodeIs{}, buildErr: "command is empty"},
		{name: "malformed: code", params: &evalparams.CommandExitCodeIs{Command: "true", ExpectedCode: 256}, buildErr: "expected_code 256 is not an exit code"},
		{name: "malformed: timeout", params: &evalparams.CommandExitCodeIs{Command: "true", TimeoutMS: -1}, buildErr: "timeout_ms -1"},
	})
}

// TestCommandTimeoutKillsProcessGroup checks that a background child of the
// command dies with it: otherwise it would keep running (and keep the
// output pipe open) after the evaluation returned.
func TestCommandTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := reply("ok")
	in.Trace.Dir = dir
	in.Env = &evaluate.Env{AllowCommands: true}
	ev, err := evaluate.Build(evaluate.NewRegistry(), scenario.Evaluation{Type: "command_exit_code_is",
		Params: &evalparams.CommandExitCodeIs{Command: "(sleep 1; touch survived) & sleep 10", TimeoutMS: 100}})
	require.NoError(t, err)
	start := time.Now()
	r, err := ev.Evaluate(context.Background(), in)
	require.NoError(t, err)
	assert.False(t, r.Passed)
	assert.Equal(t, true, r.Details["timed_out"])
	assert.Less(t, time.Since(start), 3*time.Second)
	time.Sleep(1500 * time.Millisecond)
	assert.NoFileExists(t, filepath.Join(dir, "survived"))
}

func TestCommandCancelledIsAnError(t *testing.T) {
	t.Parallel()
	in := reply("ok")
	in.Trace.Dir = t.TempDir()
	in.Env = &evaluate.Env{AllowCommands: true}
	ev, err := evaluate.Build(evaluate.NewRegistry(), scenario.Evaluation{Type: "command_exit_code_is", Params: &evalparams.CommandExitCodeIs{Command: "sleep 5"}})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r, err := ev.Evaluate(ctx, in)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, r.Error, "interrupted")
}
