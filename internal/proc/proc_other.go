//go:build !unix

package proc

import (
	"os"
	"os/exec"
)

// newGroup does nothing where there are no process groups.
func newGroup(*exec.Cmd) {}

// killGroup kills the leader only: without process groups, what it
// started is beyond reach.
func killGroup(leader *os.Process, leaderAlive bool) []Killed {
	if !leaderAlive {
		return nil
	}
	if err := leader.Kill(); err != nil {
		return nil
	}
	return []Killed{{PID: leader.Pid, Name: "the command"}}
}
