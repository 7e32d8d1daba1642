// Package proctest finds a test's own processes in the process table, so
// orphan tests can prove that nothing a run started outlives it while other
// tests (and other people's test runs) share the machine.
package proctest

import (
	"context"
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
	found, err := alive(testtool.Need(t, "ps"), marker)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// alive is Alive without a test to fail: usable from any goroutine.
func alive(ps, marker string) ([]string, error) {
	out, err := exec.Command(ps, "-eo", "pid=,args=").Output()
	if err != nil {
		return nil, fmt.Errorf("ps: %w", err)
	}
	var found []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, marker) && !strings.Contains(line, "ps -eo") {
			found = append(found, strings.TrimSpace(line))
		}
	}
	return found, nil
}

// CancelWhenAlive plays a step timeout: once a process carrying marker is
// alive it calls cancel(cause). When none starts within the given time it
// marks t failed and cancels all the same, so the code under test returns
// and the test ends with that failure instead of waiting out the package
// timeout (t.Fatal from this goroutine could not stop the test's own). Call
// the returned stop before the test ends (defer it): the watch then ends
// without cancelling.
func CancelWhenAlive(t testing.TB, marker string, within time.Duration, cancel context.CancelCauseFunc, cause error) (stop func()) {
	t.Helper()
	ps := testtool.Need(t, "ps")
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		deadline := time.Now().Add(within)
		for {
			found, err := alive(ps, marker)
			switch {
			case err != nil:
				t.Error(err)
				cancel(err)
				return
			case len(found) > 0:
				cancel(cause)
				return
			case time.Now().After(deadline):
				t.Errorf("no process carrying %q started within %s", marker, within)
				cancel(fmt.Errorf("no process carrying %q started", marker))
				return
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-ended }
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
