//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// newGroup makes the command the leader of a new process group.
func newGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills every process of leader's group and returns the ones
// that were alive: the leader among them only when leaderAlive (once the
// leader has exited, what is killed is what it left behind).
func killGroup(leader *os.Process, leaderAlive bool) []Killed {
	pgid := leader.Pid
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return nil // nobody left
	}
	members, listed := groupMembers(pgid)
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if !listed {
		// The system cannot list the group: report the group itself.
		return []Killed{{PID: pgid, Name: "process group"}}
	}
	out := make([]Killed, 0, len(members))
	for _, m := range members {
		if m.PID == pgid && !leaderAlive {
			continue
		}
		if m.PID == pgid {
			out = append([]Killed{m}, out...)
			continue
		}
		out = append(out, m)
	}
	return out
}
