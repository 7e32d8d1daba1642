package exec

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/agenteval/agenteval/internal/jsonstr"
	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/runner"
)

// execProtocolVersion is the version of the exec protocol this runner
// speaks (docs/exec-protocol.md). Start lines carry it; a ready line that
// names another is refused.
const execProtocolVersion = 1

// execEndWriteTimeout bounds the write of an "end" line: an agent that
// stopped reading its input cannot hold a session's close.
const execEndWriteTimeout = 2 * time.Second

// maxPoolNotes bounds the notes a pool keeps for Summary.Notes.
const maxPoolNotes = 20

// execWorker is one running agent program: its process group, the
// goroutine that reads its stdout a bounded line at a time, and the tail of
// its stderr. It serves one session at a time; a persistent one (its first
// line was {"type":"ready","sessions":"many"}) serves many in turn.
type execWorker struct {
	p       *proc.Process
	started time.Time // just before the program was started
	stderr  *limitedBuffer
	lines   chan execRead // closed after the read that ended the stream
	// inJobDir is true when the program was started in a job's directory,
	// which is removed with the job: it is not kept for other sessions.
	inJobDir bool
	// The fields below belong to the session that holds the worker.
	nextID     int64 // message ids run on across the worker's sessions
	spoke      bool  // its first line has been read
	persistent bool  // it announced many sessions
	endOnce    sync.Once
	report     proc.Report
}

// startWorker starts the agent's program, marked as ctx's run's
// (proc.WithRunWork) so that a next run ends it if this one is killed. dir is its working directory;
// jobEnv gives it the job's id and directory in its environment (a
// program started for one session; a persistent one takes them from each
// start line).
func (a *execAgent) startWorker(ctx context.Context, cfg runner.SessionConfig, dir string, jobEnv bool) (*execWorker, error) {
	maxLine := a.MaxLineBytes
	if maxLine <= 0 {
		maxLine = defaultMaxLineBytes
	}
	env := append(os.Environ(), a.Env...)
	if jobEnv {
		env = append(env, "AGENTEVAL_JOB_ID="+cfg.JobID, "AGENTEVAL_DIR="+cfg.Dir)
	}
	stderr := &limitedBuffer{}
	started := time.Now()
	p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", a.command}, Dir: dir, Env: env,
		Stdin: true, StdoutPipe: true, Stderr: stderr, RunWork: proc.RunWork(ctx)})
	if err != nil {
		return nil, fmt.Errorf("exec agent: starting %q: %w", a.command, err)
	}
	w := &execWorker{p: p, started: started, stderr: stderr, lines: make(chan execRead), inJobDir: dir != ""}
	go w.readLines(bufio.NewReaderSize(p.Stdout(), 64<<10), maxLine)
	return w, nil
}

func (w *execWorker) readLines(r *bufio.Reader, maxLine int) {
	defer close(w.lines)
	for {
		line, err := readBoundedLine(r, maxLine)
		if len(line) > 0 && (err == nil || errors.Is(err, io.EOF)) {
			w.lines <- execRead{line: line, at: time.Now()}
		}
		if err != nil {
			w.lines <- execRead{err: err}
			return
		}
	}
}

// writeLine writes one protocol line to the program's stdin; a timeout
// above zero bounds the write (when the pipe allows deadlines).
func (w *execWorker) writeLine(l execLine, timeout time.Duration) error {
	b, err := appendExecLine(nil, &l)
	if err != nil {
		return err
	}
	return w.write(b, timeout)
}

// appendExecLine appends l as one protocol line, newline included.
func appendExecLine(b []byte, l *execLine) ([]byte, error) {
	j, err := json.Marshal(l)
	if err != nil {
		return b, err
	}
	return append(append(b, j...), '\n'), nil
}

// appendMessageLine and appendEndLine encode the lines every session sends
// by hand, byte for byte as appendExecLine would: they are most of what a
// persistent program reads.
func appendMessageLine(b []byte, id int64, text string) []byte {
	b = append(b, `{"type":"message"`...)
	if id != 0 {
		b = strconv.AppendInt(append(b, `,"id":`...), id, 10)
	}
	if text != "" {
		b = jsonstr.Append(append(b, `,"text":`...), text)
	}
	return append(b, "}\n"...)
}

func appendEndLine(b []byte, job string) []byte {
	b = append(b, `{"type":"end"`...)
	if job != "" {
		b = jsonstr.Append(append(b, `,"job":`...), job)
	}
	return append(b, "}\n"...)
}

// write writes encoded lines to the program's stdin; a timeout above zero
// bounds the write (when the pipe allows deadlines).
func (w *execWorker) write(b []byte, timeout time.Duration) error {
	in := w.p.Stdin()
	if d, ok := in.(interface{ SetWriteDeadline(time.Time) error }); ok && timeout > 0 {
		_ = d.SetWriteDeadline(time.Now().Add(timeout))
		defer func() { _ = d.SetWriteDeadline(time.Time{}) }()
	}
	_, err := in.Write(b)
	return err
}

// end ends the program and its group (see proc.Process.End) once; the
// reader is then drained so that it stops.
func (w *execWorker) end(grace time.Duration, why string) proc.Report {
	w.endOnce.Do(func() {
		w.report = w.p.End(grace, why)
		go func() {
			for range w.lines {
			}
		}()
	})
	return w.report
}

// idleTrouble says why an idle worker cannot serve another session: it
// exited, or wrote while no session was open (its next session would read
// it as its own). "" when it looks fit.
func (w *execWorker) idleTrouble() string {
	select {
	case <-w.p.Exited():
		return fmt.Sprintf("it exited between sessions (%v)", w.p.ExitError())
	default:
	}
	select {
	case got, ok := <-w.lines:
		switch {
		case !ok || got.err != nil:
			return "its output ended between sessions"
		default:
			return fmt.Sprintf("it wrote between sessions: %q", redact.Head(string(got.line), 200))
		}
	default:
	}
	return ""
}

// execPool keeps an exec agent's persistent programs for one run: up to
// size of them, each serving one session at a time. Programs that do not
// announce many sessions are started for each session and ended with it,
// as without a pool.
type execPool struct {
	agent *execAgent
	size  int

	mu         sync.Mutex
	idle       []*execWorker        // persistent programs waiting for a session, the most recent last
	live       map[*execWorker]bool // every program started and not yet ended
	starting   int                  // programs being started (they count toward size)
	persistent bool                 // a program announced many sessions: new ones start outside job directories
	closed     bool
	freed      chan struct{} // closed (and replaced) when a slot frees up
	notes      []string
	dropped    int // notes beyond maxPoolNotes
}

func newExecPool(a *execAgent, size int) *execPool {
	return &execPool{agent: a, size: max(1, size), live: map[*execWorker]bool{}, freed: make(chan struct{})}
}

// ForRun implements runner.RunScopedAgent: a run's sessions share a pool
// of up to concurrency programs, all ended when the run ends.
func (a *execAgent) ForRun(concurrency int) (runner.Agent, func() []string) {
	p := newExecPool(a, concurrency)
	return p, p.close
}

// NeedsDir is its agent's (RequireDir): the run asks the pool, which is
// what it runs.
func (p *execPool) NeedsDir() bool { return p.agent.needDir }

// errPoolClosed is a session asked for after its run ended.
var errPoolClosed = errors.New("exec agent: the run that owned its programs has ended")

// NewSession starts a session on an idle persistent program, or on a new
// program when none is idle and fewer than size are running; otherwise it
// waits for one to be free.
func (p *execPool) NewSession(ctx context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	for {
		w, reused, err := p.acquire(ctx, cfg)
		if err != nil {
			return nil, err
		}
		s := p.agent.newExecSession(w, p, cfg)
		s.reused = reused
		err = s.begin()
		if err == nil && ctx.Err() != nil {
			// The caller gave up meanwhile: nobody would close the session.
			err = context.Cause(ctx)
		}
		if err == nil {
			return s, nil
		}
		closeErr := s.Close()
		if !reused || ctx.Err() != nil {
			return nil, err
		}
		// A program kept from an earlier session that cannot take the start
		// line had died: nothing of this session reached it, so another
		// program may serve it.
		msg := fmt.Sprintf("exec agent: replaced a kept program that could not start a session: %v", err)
		if closeErr != nil {
			msg += "; " + closeErr.Error()
		}
		p.note(msg)
	}
}

// acquire returns a program for a session and whether it served one before.
func (p *execPool) acquire(ctx context.Context, cfg runner.SessionConfig) (*execWorker, bool, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, false, errPoolClosed
		}
		if n := len(p.idle); n > 0 {
			w := p.idle[n-1]
			p.idle = p.idle[:n-1]
			p.mu.Unlock()
			if why := w.idleTrouble(); why != "" {
				p.discard(w, why)
				continue
			}
			return w, true, nil
		}
		if len(p.live)+p.starting < p.size {
			p.starting++
			persistent := p.persistent
			p.mu.Unlock()
			// Once the program is known to serve many sessions, new ones
			// start in the runner's directory (a job's goes away with the
			// job) and learn each session's directory from its start line.
			dir := cfg.Dir
			if persistent {
				dir = ""
			}
			w, err := p.agent.startWorker(ctx, cfg, dir, !persistent)
			p.mu.Lock()
			p.starting--
			if err == nil && p.closed {
				p.mu.Unlock()
				w.end(0, "the run ended while it started")
				return nil, false, errPoolClosed
			}
			if err == nil {
				p.live[w] = true
			} else {
				p.wakeLocked()
			}
			p.mu.Unlock()
			return w, false, err
		}
		freed := p.freed
		p.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, false, fmt.Errorf("exec agent: waiting for a free program: %w", context.Cause(ctx))
		case <-freed:
		}
	}
}

func (p *execPool) wakeLocked() {
	close(p.freed)
	p.freed = make(chan struct{})
}

// learned records that the agent serves many sessions.
func (p *execPool) learned() {
	p.mu.Lock()
	p.persistent = true
	p.mu.Unlock()
}

// release keeps w for another session; false when the run has ended (the
// caller then ends it).
func (p *execPool) release(w *execWorker) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.idle = append(p.idle, w)
	p.wakeLocked()
	return true
}

// forget drops an ended program and frees its slot.
func (p *execPool) forget(w *execWorker) {
	p.mu.Lock()
	delete(p.live, w)
	p.wakeLocked()
	p.mu.Unlock()
}

// discard ends an idle program that cannot serve again and notes why.
func (p *execPool) discard(w *execWorker, why string) {
	rep := w.end(0, "it was replaced: "+why)
	p.forget(w)
	msg := fmt.Sprintf("exec agent: replaced a kept program (pid %d): %s", w.p.PID(), why)
	if m := rep.Message(); m != "" {
		msg += "; " + m
	}
	if t := w.stderr.tailSince(0); t != "" {
		msg += "; its stderr: " + t
	}
	p.note(msg)
}

func (p *execPool) note(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.notes) < maxPoolNotes {
		p.notes = append(p.notes, msg)
	} else {
		p.dropped++
	}
}

// close ends every program at the run's end: idle ones get their stdin
// closed and execCloseGrace to exit, any still serving a session (one its
// job abandoned) are killed at once. It returns the pool's notes: what it
// replaced, and what it had to kill.
func (p *execPool) close() []string {
	p.mu.Lock()
	p.closed = true
	idle := map[*execWorker]bool{}
	for _, w := range p.idle {
		idle[w] = true
	}
	all := make([]*execWorker, 0, len(p.live))
	for w := range p.live {
		all = append(all, w)
	}
	p.idle, p.live = nil, map[*execWorker]bool{}
	p.wakeLocked()
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			grace, why := execCloseGrace, fmt.Sprintf("it did not exit within %v of the run's end", execCloseGrace)
			if !idle[w] {
				grace, why = 0, "the run ended while its session was still open"
			}
			rep := w.end(grace, why)
			if rep.Exited && len(rep.Killed) > 0 {
				rep.Why = "the agent left them running when it exited"
			}
			if m := rep.Message(); m != "" {
				p.note("exec agent, at the run's end: " + m)
			}
		}()
	}
	wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	notes := p.notes
	if p.dropped > 0 {
		notes = append(notes, fmt.Sprintf("exec agent: %d more note(s) like these were left out", p.dropped))
	}
	return notes
}
