//go:build linux

package proc

import (
	"bytes"
	"os"
	"strconv"

	"github.com/agenteval/agenteval/redact"
)

// groupMembers lists the live processes of group pgid from /proc (zombies,
// already dead, are left out).
func groupMembers(pgid int) ([]Killed, bool) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, false
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	var out []Killed
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 {
			continue
		}
		f := bytes.Fields(stat[end+1:])
		if len(f) < 3 || f[0][0] == 'Z' || f[0][0] == 'X' {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err != nil || g != pgid {
			continue
		}
		name := string(stat[bytes.IndexByte(stat, '(')+1 : end])
		if cmdline, err := os.ReadFile("/proc/" + n + "/cmdline"); err == nil && len(cmdline) > 0 {
			name = commandLine(cmdline)
		}
		out = append(out, Killed{PID: pid, Name: name})
	}
	return out, true
}

// commandLine renders a NUL-separated /proc cmdline, cut to 80 bytes.
func commandLine(b []byte) string {
	b = bytes.TrimRight(b, "\x00")
	s := string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
	return redact.Head(s, 80) // marked, so a secret it cuts is masked whole
}
