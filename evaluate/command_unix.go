//go:build unix

package evaluate

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts the command in its own process group and makes
// cancellation kill the whole group, so a timed-out `sh -c` takes the
// processes it started with it instead of leaving them running.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			// The group is gone already: the command finished as the
			// deadline came, which is not an error of its own.
			return os.ErrProcessDone
		}
		return err
	}
}
