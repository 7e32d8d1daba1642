// Package proctest finds a test's own processes in the process table, so
// orphan tests can prove that nothing a run started outlives it while other
// tests (and other people's test runs) share the machine.
package proctest

import (
	"fmt"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenteval/agenteval/internal/testtool"
)

var seq atomic.Int64

// SleepArg returns a sleep duration that no other process on the machine
// carries: `sleep ARG` runs for about an hour and is found by Alive(ARG).
func SleepArg() string {
	n := seq.Add(1)
	return fmt.Sprintf("%d.%09d%03d", 3000+n%500, time.Now().UnixNano()%1_000_000_000, n%1000)
}

// Alive returns the process table lines (pid and arguments) whose
// arguments contain marker. Zombies, already dead, show no arguments and
// are not counted.
func Alive(t testing.TB, marker string) []string {
	t.Helper()
	out, err := exec.Command(testtool.Need(t, "ps"), "-eo", "pid=,args=").Output()
	if err != nil {
		t.Fatalf("ps: %v", err)
	}
	var found []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, marker) && !strings.Contains(line, "ps -eo") {
			found = append(found, strings.TrimSpace(line))
		}
	}
	return found
}

// RequireGone fails t unless no process carrying marker is alive within
// the given time (a killed process may take a moment to leave the table).
func RequireGone(t testing.TB, marker string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		alive := Alive(t, marker)
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes outlived their job: %s", strings.Join(alive, "; "))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// RequireAlive waits until a process carrying marker is alive, so a test
// knows the process it means to orphan has started.
func RequireAlive(t testing.TB, marker string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for len(Alive(t, marker)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no process carrying %q started", marker)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
