//go:build unix

package runner

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel starts the command in its own process group and kills
// the group when the command's context ends.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
