package proc

import (
	"context"
	"os"
	"slices"
	"time"
)

// RunWorkEnv is the environment variable that marks every process a run
// starts with the run's work directory (an absolute path). A run killed
// with SIGKILL cannot end its processes; the next run into the same
// folder finds them by this marker (EndLeftovers) before it removes the
// directory. The marker is read per process, so a reused pid or process
// group id never matches by accident.
const RunWorkEnv = "AGENTEVAL_RUN_WORK"

// leftoverWait is how long EndLeftovers waits for the processes it killed
// to leave the process table.
const leftoverWait = 2 * time.Second

type runWorkKey struct{}

// WithRunWork returns a context whose processes (Run, and Start through
// Spec.RunWork = RunWork(ctx)) carry the marker of the run whose work
// directory is dir, an absolute path.
func WithRunWork(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, runWorkKey{}, dir)
}

// RunWork is the work directory WithRunWork put in ctx, or "".
func RunWork(ctx context.Context) string {
	dir, _ := ctx.Value(runWorkKey{}).(string)
	return dir
}

// markedEnv returns env (nil: the caller's) with the marker of the run
// whose work directory is dir; exec keeps the last of duplicate names, so
// the marker of an enclosing run is replaced.
func markedEnv(env []string, dir string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(slices.Clip(env), RunWorkEnv+"="+dir)
}

// EndLeftovers kills the process group of every process still running
// with the marker of the run whose work directory is dir (what a killed
// run left behind) and waits up to two seconds for them to be gone. It
// returns the processes it found; where processes cannot be listed (not
// Linux) it does nothing.
func EndLeftovers(ctx context.Context, dir string) []Killed {
	if dir == "" {
		return nil
	}
	return EndMarked(ctx, RunWorkEnv, dir)
}

// EndMarked kills the process group of every process whose environment
// holds name=value, and waits up to two seconds for them to be gone: what
// a program left running that escaped its process group (a detached
// child), when every process it starts carries name=value. It returns the
// processes it found; where processes cannot be listed (not Linux) it
// does nothing.
func EndMarked(ctx context.Context, name, value string) []Killed {
	found := markedProcesses(name, value)
	if len(found) == 0 {
		return nil
	}
	own := ownGroup()
	for _, k := range found {
		if g := groupOf(k.PID); g > 0 && g != own {
			killGroupID(g)
		}
		killPID(k.PID) // one that shares our group (never started by us) dies alone
	}
	deadline := time.Now().Add(leftoverWait)
	for len(markedProcesses(name, value)) > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	return found
}
