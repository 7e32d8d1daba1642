package evaluate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/results"
)

// commandExitCodeIsKind returns the command_exit_code_is evaluation type.
//
// The evaluation runs command with `sh -c` in the run's directory and
// passes when it exits with expected_code (default 0). The score is 1 on a
// pass and 0 otherwise.
//
// It runs only when Env.AllowCommands is true. Otherwise it does not run
// and Evaluate returns an error saying so: the check
// could not judge, so a runner records the run incomplete, never failed
// (the runner's own rule refuses such a job before it starts).
//
// The command inherits the runner's environment variables, as a command in
// a CI script would. It gets timeout_ms (default 30 s). It runs in its own
// process group: on timeout the whole group is killed and the check fails;
// when the command exits, whatever it left running (`server &`) is killed
// and Details["killed"] says what. A
// run without a directory fails, because the command would otherwise run
// wherever the runner happens to be. The last 4 KiB of combined output are
// kept in Details.
func commandExitCodeIsKind() *Kind {
	return NewKind("command_exit_code_is",
		"A command run in the run's directory exits with the expected code (runs only when commands are allowed).",
		newCommandExitCode)
}

// errCommandsNotAllowed is the error of a command check that did not run
// because commands are not allowed (Env.AllowCommands is false).
var errCommandsNotAllowed = errors.New("commands are not allowed")

// defaultCommandTimeout bounds a command whose evaluation gives none.
const defaultCommandTimeout = 30 * time.Second

// maxCommandOutput is how much of a command's output a results.Evaluation keeps.
const maxCommandOutput = 4 << 10

// commandExitCode is the evaluator of commandExitCodeIsKind; its semantics are documented there.
type commandExitCode struct {
	command  string
	expected int
	timeout  time.Duration
}

func newCommandExitCode(p *evalparams.CommandExitCodeIs) (Evaluator, error) {
	if p.Command == "" {
		return nil, errors.New("command is empty")
	}
	if p.TimeoutMS < 0 {
		return nil, fmt.Errorf("timeout_ms %d must be positive", p.TimeoutMS)
	}
	if p.ExpectedCode < 0 || p.ExpectedCode > 255 {
		return nil, fmt.Errorf("expected_code %d is not an exit code (0-255)", p.ExpectedCode)
	}
	t := defaultCommandTimeout
	if p.TimeoutMS > 0 {
		t = time.Duration(p.TimeoutMS) * time.Millisecond
	}
	return &commandExitCode{command: p.Command, expected: p.ExpectedCode, timeout: t}, nil
}

// Needs reports that the check runs a command in the run's directory.
func (e *commandExitCode) Needs() Needs { return Needs{Dir: true, Commands: true} }

// Evaluate runs the command; see the type's documentation.
func (e *commandExitCode) Evaluate(ctx context.Context, in Input) (results.Evaluation, error) {
	r := results.Evaluation{Details: map[string]any{"command": e.command, "expected_code": e.expected}}
	if in.Env == nil || !in.Env.AllowCommands {
		r.Details["skipped"] = true
		return r, fmt.Errorf("command %s was not run: %w; pass --allow-commands (Env.AllowCommands) to run it", quote(excerpt(e.command)), errCommandsNotAllowed)
	}
	if in.Trace.Dir == "" {
		r.Message = noDirMessage("command_exit_code_is")
		return r, nil
	}
	tctx, cancel := context.WithTimeoutCause(ctx, e.timeout, fmt.Errorf("command_exit_code_is timeout of %s", e.timeout))
	defer cancel()
	var out tailBuffer
	start := time.Now()
	// The command runs in its own process group: on timeout the group is
	// killed, and whatever it leaves running when it exits is killed too.
	rep, err := proc.Run(tctx, proc.Spec{Path: "sh", Args: []string{"-c", e.command}, Dir: in.Trace.Dir, Stdout: &out, Stderr: &out})
	r.Details["duration_ms"] = time.Since(start).Milliseconds()
	r.Details["output"] = out.String()
	if m := rep.Message(); m != "" {
		r.Details["killed"] = m
	}
	shown := quote(excerpt(e.command))
	switch {
	case err != nil:
		return r, fmt.Errorf("run command %s: %w", shown, err)
	case ctx.Err() != nil && !rep.Exited:
		// The caller gave up (the run was cancelled): no verdict.
		return r, fmt.Errorf("command %s interrupted: %w", shown, context.Cause(ctx))
	case tctx.Err() != nil && !rep.Exited:
		r.Details["timed_out"] = true
		r.Message = fmt.Sprintf("command %s timed out after %s and was killed (%s)", shown, e.timeout, rep.Message())
		return r, nil
	}
	code := rep.ExitCode
	r.Details["exit_code"] = code
	if code == e.expected {
		r.Passed, r.Score = true, 1
		r.Message = fmt.Sprintf("command %s exited with %d", shown, code)
		return r, nil
	}
	r.Message = fmt.Sprintf("command %s exited with %d, want %d", shown, code, e.expected)
	if s := out.String(); s != "" {
		r.Message += "; output ends " + quote(excerpt(lastLine(s)))
	}
	return r, nil
}

// tailBuffer keeps the last maxCommandOutput bytes written to it.
type tailBuffer struct {
	b bytes.Buffer
}

// Write keeps the tail of p; it never fails, so the command never blocks on output.
func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) > maxCommandOutput {
		p = p[len(p)-maxCommandOutput:]
	}
	if over := t.b.Len() + len(p) - maxCommandOutput; over > 0 {
		t.b.Next(over)
	}
	t.b.Write(p)
	return n, nil
}

// String returns the kept output.
func (t *tailBuffer) String() string { return t.b.String() }

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\r\n\t ")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
