package runner

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

var lookPath = exec.LookPath

// runCommand runs name flag arg in dir. When ctx ends the command is
// killed, with its whole process group where the system has them, so that
// no grandchild outlives the step.
func runCommand(ctx context.Context, dir, name, flag, arg string) (CodeResult, error) {
	cmd := exec.CommandContext(ctx, name, flag, arg)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	killGroupOnCancel(cmd)
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	res := CodeResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return res, ctx.Err()
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
		return res, nil
	case err != nil:
		return res, err
	}
	return res, nil
}
