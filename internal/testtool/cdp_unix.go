//go:build unix

package testtool

import (
	"os/exec"
	"syscall"
)

// ownGroup starts Chromium as the leader of its own process group, so that
// killGroup ends its helper processes (zygote, renderers) with it.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
