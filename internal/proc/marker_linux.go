//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// markedProcesses lists the live processes whose environment carries
// name=value (the marker of the run whose work directory is value, for
// RunWorkEnv). Processes of other users cannot be read and are never
// listed; a zombie's environment reads empty.
func markedProcesses(name, value string) []Killed {
	names, err := readProcDir()
	if err != nil {
		return nil
	}
	want := []byte(name + "=" + value + "\x00")
	self := os.Getpid()
	var out []Killed
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + n + "/environ")
		if err != nil || !hasEntry(env, want) {
			continue
		}
		name := n
		if cmdline, err := os.ReadFile("/proc/" + n + "/cmdline"); err == nil && len(cmdline) > 0 {
			name = commandLine(cmdline)
		}
		out = append(out, Killed{PID: pid, Name: name})
	}
	return out
}

// hasEntry reports whether the NUL-separated environment env holds the
// entry want (which ends in NUL) whole, not as the tail of another.
func hasEntry(env, want []byte) bool {
	if len(env) > 0 && env[len(env)-1] != 0 {
		env = append(env, 0)
	}
	return bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...))
}

func readProcDir() ([]string, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

func groupOf(pid int) int {
	g, err := syscall.Getpgid(pid)
	if err != nil {
		return 0
	}
	return g
}

func ownGroup() int { return syscall.Getpgrp() }

func killGroupID(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

func killPID(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
