// Package proc starts the processes a job runs (code steps, commands,
// exec agents) so that none outlives its job: each runs in its own process
// group, the whole group is killed when the step, command or session ends
// or times out, and output pipes that a left-behind grandchild holds never
// keep the caller waiting. Every kill is reported: which processes, and
// why.
//
// Process groups are the mechanism. A process that leaves its group on
// purpose (setsid, a daemon) escapes it; cgroups would catch that, but they
// need privileges or a delegated hierarchy that ordinary users and CI
// runners rarely have, so they are not used.
package proc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Spec is a command to start.
type Spec struct {
	// Path is the program, looked up in PATH when it has no slash.
	Path string
	// Args are its arguments (without the program's name).
	Args []string
	// Dir is the working directory ("" for the caller's).
	Dir string
	// Env is the environment; nil means the caller's.
	Env []string
	// Stdin gives the process a pipe that Process.Stdin writes; otherwise
	// its standard input is empty.
	Stdin bool
	// Stdout receives standard output; with StdoutPipe, Process.Stdout
	// reads it instead. Nil (without StdoutPipe) discards it.
	Stdout     io.Writer
	StdoutPipe bool
	// Stderr receives standard error; nil discards it.
	Stderr io.Writer
	// RunWork, when set, is the absolute work directory of the run the
	// process belongs to: its environment carries RunWorkEnv with it, so
	// the next run into the folder can end it if this run is killed.
	RunWork string
}

// DrainGrace is how long End waits for output still in the pipes once every
// process of the group is dead, before it closes its ends: a process that
// escaped the group and holds a pipe must not hold the caller.
const DrainGrace = 500 * time.Millisecond

// copyBuffers are the buffers output is copied through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

// Process is a started command: the leader of its own process group.
type Process struct {
	cmd     *exec.Cmd
	stdin   *os.File
	stdout  *os.File
	readers []*os.File // our ends of the output pipes, closed once drained
	copies  sync.WaitGroup
	drained chan struct{} // closed when the copies of Stdout and Stderr to their writers are done
	exited  chan struct{}
	waitErr error

	endOnce sync.Once
	report  Report
}

// Killed describes one process that was killed.
type Killed struct {
	PID  int
	Name string
}

// Report says how a process ended.
type Report struct {
	// ExitCode is the leader's exit code; -1 when a signal ended it.
	ExitCode int
	// Exited is true when the leader exited before anything killed it.
	Exited bool
	// Killed are the processes of the group that were still alive and were
	// killed, the leader first when it was one of them.
	Killed []Killed
	// Why is why they were killed.
	Why string
	// Detached is true when the output pipes were still held open after the
	// group died (by a process that left the group) and were closed on our side.
	Detached bool
}

// Message says what was killed and why, or "" when nothing was.
func (r Report) Message() string {
	if len(r.Killed) == 0 && !r.Detached {
		return ""
	}
	var b strings.Builder
	if len(r.Killed) > 0 {
		names := make([]string, len(r.Killed))
		for i, k := range r.Killed {
			names[i] = fmt.Sprintf("%s (pid %d)", k.Name, k.PID)
		}
		fmt.Fprintf(&b, "killed %d process", len(r.Killed))
		if len(r.Killed) > 1 {
			b.WriteString("es")
		}
		fmt.Fprintf(&b, " %s: %s", strings.Join(names, ", "), r.Why)
	}
	if r.Detached {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString("a process outside the group kept the output open; stopped reading it")
	}
	return b.String()
}

// Start starts s as the leader of a new process group.
func Start(s Spec) (*Process, error) {
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = s.Env
	if s.RunWork != "" {
		cmd.Env = markedEnv(s.Env, s.RunWork)
	}
	newGroup(cmd)
	p := &Process{cmd: cmd, exited: make(chan struct{}), drained: make(chan struct{})}
	var closeAfterStart []*os.File
	fail := func(err error) (*Process, error) {
		for _, f := range closeAfterStart {
			_ = f.Close()
		}
		for _, f := range p.readers {
			_ = f.Close()
		}
		if p.stdin != nil {
			_ = p.stdin.Close()
		}
		return nil, err
	}
	if s.Stdin {
		r, w, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		cmd.Stdin, p.stdin = r, w
		closeAfterStart = append(closeAfterStart, r)
	}
	// The process writes straight into pipes we made (exec copies nothing),
	// so Wait returns when the leader exits, whoever else holds the pipes.
	out := func(w io.Writer, pipe bool) (*os.File, error) {
		r, wr, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		closeAfterStart = append(closeAfterStart, wr)
		p.readers = append(p.readers, r)
		if pipe {
			p.stdout = r
			return wr, nil
		}
		if w == nil {
			w = io.Discard
		}
		p.copies.Add(1)
		go func() {
			defer p.copies.Done()
			buf := copyBuffers.Get().(*[]byte)
			defer copyBuffers.Put(buf)
			// Hide the file's WriteTo, which would allocate its own 32 KiB.
			_, _ = io.CopyBuffer(w, struct{ io.Reader }{r}, *buf)
		}()
		return wr, nil
	}
	var err error
	if s.StdoutPipe || s.Stdout != nil {
		if cmd.Stdout, err = out(s.Stdout, s.StdoutPipe); err != nil {
			return fail(err)
		}
	}
	switch {
	case s.Stderr == nil:
	case !s.StdoutPipe && sameWriter(s.Stdout, s.Stderr):
		cmd.Stderr = cmd.Stdout // one pipe, one copy: the writer sees one stream
	default:
		if cmd.Stderr, err = out(s.Stderr, false); err != nil {
			return fail(err)
		}
	}
	if err := cmd.Start(); err != nil {
		// The copy goroutines end when fail closes the pipes' both ends.
		return fail(err)
	}
	for _, f := range closeAfterStart {
		_ = f.Close()
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	go func() { p.copies.Wait(); close(p.drained) }()
	return p, nil
}

// sameWriter reports whether a and b are the same writer, without
// panicking on writers of types that cannot be compared.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// PID is the leader's process id (and the group's id).
func (p *Process) PID() int { return p.cmd.Process.Pid }

// Stdin is the write end of the process's standard input (Spec.Stdin), or nil.
func (p *Process) Stdin() io.WriteCloser {
	if p.stdin == nil {
		return nil
	}
	return p.stdin
}

// Stdout is the read end of the process's standard output
// (Spec.StdoutPipe), or nil. End closes it.
func (p *Process) Stdout() io.Reader {
	if p.stdout == nil {
		return nil
	}
	return p.stdout
}

// Exited is closed when the leader has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// WaitOutput waits up to d for the output written so far to reach the
// Spec's writers (all of it, once every holder of the pipes has exited),
// and reports whether it did.
func (p *Process) WaitOutput(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.drained:
		return true
	case <-t.C:
		return false
	}
}

// ExitError is the leader's exit status as exec reports it, once Exited is closed.
func (p *Process) ExitError() error {
	<-p.exited
	return p.waitErr
}

// Run starts s and waits for it. When ctx ends first, the whole group is
// killed and the report says so with ctx's cause; when the leader exits
// first, anything it left running in its group is killed. The error is
// about starting the command only. The process carries the marker of
// ctx's run (WithRunWork) unless s names one.
func Run(ctx context.Context, s Spec) (Report, error) {
	if s.RunWork == "" {
		s.RunWork = RunWork(ctx)
	}
	p, err := Start(s)
	if err != nil {
		return Report{ExitCode: -1}, err
	}
	select {
	case <-p.exited:
		return p.End(0, "the command exited and left it running"), nil
	case <-ctx.Done():
		return p.End(0, context.Cause(ctx).Error()), nil
	}
}

// End ends the process and its group and returns how it ended. It closes
// standard input, gives the leader up to grace to exit by itself, then
// kills every process of the group that is still alive, saying why; it
// waits at most DrainGrace for the output pipes to drain. End is safe to
// call more than once and from several goroutines: later calls return the
// first report.
func (p *Process) End(grace time.Duration, why string) Report {
	p.endOnce.Do(func() { p.report = p.end(grace, why) })
	return p.report
}

func (p *Process) end(grace time.Duration, why string) Report {
	if p.stdin != nil {
		_ = p.stdin.Close()
	}
	r := Report{ExitCode: -1}
	if grace > 0 {
		t := time.NewTimer(grace)
		select {
		case <-p.exited:
		case <-t.C:
		}
		t.Stop()
	}
	select {
	case <-p.exited:
		r.Exited = true
	default:
	}
	// The leader is killed with the rest of its group; when it has exited,
	// only what it left behind is.
	r.Killed = killGroup(p.cmd.Process, !r.Exited)
	if len(r.Killed) > 0 {
		r.Why = why
	}
	<-p.exited
	if r.Exited || len(r.Killed) == 0 {
		r.ExitCode = p.cmd.ProcessState.ExitCode()
	}
	if len(r.Killed) == 0 {
		// Whatever the race between the check above and the leader's exit,
		// nothing was killed: it exited by itself.
		r.Exited = true
	}
	r.Detached = !p.WaitOutput(DrainGrace)
	// Closing our ends also wakes a reader of Stdout that a process
	// outside the group would otherwise hold forever.
	for _, f := range p.readers {
		_ = f.Close()
	}
	<-p.drained
	return r
}
