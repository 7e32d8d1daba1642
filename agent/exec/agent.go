// Package exec is the agent that runs a program in any language and speaks
// the exec protocol with it (docs/exec-protocol.md): the agent type
// exec:COMMAND (Type, New), the pool that keeps programs announcing many
// sessions for a whole run, and Serve, which serves the protocol for an
// agent written in Go.
package exec

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Defaults of the exec protocol's bounds.
const (
	defaultMaxLineBytes  = 4 << 20
	defaultMaxReplyBytes = 8 << 20
)

// execCloseGrace is how long a session's program has to exit by itself
// once its stdin is closed.
const execCloseGrace = 2 * time.Second

// execAgent runs an external program as the agent, in any language: the
// runner starts COMMAND with sh -c and speaks JSON lines with it, on its
// stdin and stdout. The protocol, versioned, with its bounds and the life
// of the processes, is documented in one place: docs/exec-protocol.md.
//
// In short: the runner sends {"type":"start",...} and then one
// {"type":"message","id":N,"text":...} at a time; the agent answers each
// with {"type":"reply","id":N,"text":...}, and may first report
// {"type":"action",...} lines and ask {"type":"mock",...} calls, which the
// runner answers with {"type":"mock_result",...}. A program whose first
// line is {"type":"ready","sessions":"many"} is kept for many sessions,
// one at a time, each closed with {"type":"end","job":...}: within a run
// (runner.Run) up to Config.Concurrency such programs serve every session,
// and they are all ended when the run ends. A program that does not
// announce it is started for each session and ended with it. A program
// that breaks the protocol, exits or outlives a timeout is killed with its
// whole process group and replaced; only the session it was serving is
// lost, recorded with the reason and the tail of its stderr.
//
// One protocol line the agent writes may hold at most MaxLineBytes, and
// the lines of one reply at most MaxReplyBytes together.
//
// Examples: examples/agents/python and examples/agents/node are kits that
// make an agent in those languages a function; Serve serves the
// protocol for an Agent written in Go.
type execAgent struct {
	command string
	// Env are further environment variables (KEY=VALUE) of the agent's
	// programs, after the process's own (a suite agent's env, model and
	// instructions).
	Env []string
	// MaxLineBytes bounds one protocol line from the agent (0: defaultMaxLineBytes).
	MaxLineBytes int
	// MaxReplyBytes bounds the lines of one reply together (0: defaultMaxReplyBytes).
	MaxReplyBytes int
	// needDir gives every job a directory of its own (RequireDir).
	needDir bool
}

// NeedsDir tells the runner whether every job needs a directory of its
// own, where its program runs (RequireDir said so).
func (a *execAgent) NeedsDir() bool { return a.needDir }

// RequireDir makes every job get a directory in the run's work folder: an
// agent built on this one whose program keeps per-session files (the
// eliza agent's databases) keeps them there, inside the run. It is
// reached by an interface assertion, not named in the package's API.
func (a *execAgent) RequireDir() { a.needDir = true }

// newExecAgent returns an agent that runs command with sh -c.
func newExecAgent(command string) (*execAgent, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("exec agent: give a command, as in exec:./my-agent or exec:python3 agent.py")
	}
	return &execAgent{command: anchorWords(command)}, nil
}

// anchorWords makes absolute the words of command that name files relative
// to the directory agenteval runs in (./agent.sh, agent.py in "python3
// agent.py", bin/agent): the command runs in each job's own directory when
// the job has one, where those paths would name nothing. Only plain words
// are touched (no quotes, variables, globs or redirections), so what the
// shell would make of anything else is left to it.
func anchorWords(command string) string {
	var b strings.Builder
	rest := command
	for rest != "" {
		// Copy the blanks, then take one word up to the next blank.
		word := strings.TrimLeft(rest, " \t\n")
		b.WriteString(rest[:len(rest)-len(word)])
		end := strings.IndexAny(word, " \t\n")
		if end < 0 {
			end = len(word)
		}
		w := word[:end]
		rest = word[end:]
		if filepath.IsAbs(w) || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "~") ||
			strings.ContainsAny(w, "'\"\\$`*?[]{}()<>|&;=#!") {
			b.WriteString(w)
			continue
		}
		abs, err := filepath.Abs(w)
		if st, serr := os.Stat(w); err != nil || serr != nil || st.IsDir() {
			b.WriteString(w)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(abs, "'", `'\''`) + "'")
	}
	return b.String()
}

// New returns the agent that runs command with sh -c and speaks the exec
// protocol with it: opts.Env are further environment variables of its
// programs, opts.Instructions reach them as AGENTEVAL_INSTRUCTIONS and
// opts.EndpointLimits as AGENTEVAL_MAX_REQUESTS and
// AGENTEVAL_TOKENS_PER_MINUTE (see limitEnv). The
// agent implements runner.RunScopedAgent: within a run its programs are
// pooled (see the package doc).
func New(command string, opts runner.AgentOptions) (runner.Agent, error) {
	a, err := newExecAgent(command)
	if err != nil {
		return nil, err
	}
	a.Env = slices.Clone(opts.Env)
	a.Env = append(a.Env, limitEnv(opts.EndpointLimits)...)
	if opts.Instructions != "" {
		a.Env = append(a.Env, "AGENTEVAL_INSTRUCTIONS="+opts.Instructions)
	}
	return a, nil
}

// Type returns the agent type "exec" (exec:COMMAND builds New(COMMAND)),
// for a registry of agent types such as agenteval.Kit's.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "exec", Doc: "exec:COMMAND runs a program speaking the JSON-lines agent protocol",
		TakesEnv: true, TakesInstructions: true, New: New}
}

type execLine struct {
	Type       string                   `json:"type"`
	ID         int64                    `json:"id,omitempty"`
	Job        string                   `json:"job,omitempty"`
	Scenario   string                   `json:"scenario,omitempty"`
	Character  any                      `json:"character,omitempty"`
	Plugins    []string                 `json:"plugins,omitempty"`
	Mocks      []mockKey                `json:"mocks,omitempty"`
	PluginOpts map[string]pluginOptions `json:"plugin_options,omitempty"` // by plugin name, those with a version or config
	Dir        string                   `json:"dir,omitempty"`
	Seed       int64                    `json:"seed,omitempty"`
	Text       string                   `json:"text,omitempty"`
	Service    string                   `json:"service,omitempty"`
	Method     string                   `json:"method,omitempty"`
	Args       json.RawMessage          `json:"args,omitempty"`
	Name       string                   `json:"name,omitempty"`
	Result     json.RawMessage          `json:"result,omitempty"`
	Error      json.RawMessage          `json:"error,omitempty"`
	Actions    []results.Action         `json:"actions,omitempty"`
	Usage      *llm.Usage               `json:"usage,omitempty"`
	Protocol   int                      `json:"protocol,omitempty"`
	Sessions   string                   `json:"sessions,omitempty"`
	Message    string                   `json:"message,omitempty"`
	Traceback  string                   `json:"traceback,omitempty"`
	Thought    string                   `json:"thought,omitempty"`    // a reply's reasoning
	EndReason  string                   `json:"end_reason,omitempty"` // why a reply ended
	// DurationMS is how long an action took (an action line's).
	DurationMS float64 `json:"duration_ms,omitempty"`
}

// mockKey names a service method the scenario mocks, in a start line: a
// program that stands between its agent and real services (the eliza
// bridge) sends the calls of those methods as mock lines.
type mockKey struct {
	Service string `json:"service"`
	Method  string `json:"method"`
}

// pluginOptions is what a start line says of a plugin beyond its name.
type pluginOptions struct {
	Version string         `json:"version,omitempty"`
	Config  map[string]any `json:"config,omitempty"`
}

// NewSession starts the program for one session and ends it with the
// session. Within a run (runner.Run) an execAgent serves its sessions from
// a pool instead, which keeps programs that announce many sessions.
func (a *execAgent) NewSession(ctx context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	w, err := a.startWorker(ctx, cfg, cfg.Dir, true)
	if err != nil {
		return nil, err
	}
	s := a.newExecSession(w, nil, cfg)
	if err := s.begin(); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (a *execAgent) newExecSession(w *execWorker, pool *execPool, cfg runner.SessionConfig) *execSession {
	maxReply := a.MaxReplyBytes
	if maxReply <= 0 {
		maxReply = defaultMaxReplyBytes
	}
	return &execSession{w: w, pool: pool, cfg: cfg, maxReply: maxReply, mark: w.stderr.written()}
}

// execSession is one session on a program. The program's reader goroutine
// hands each line over unbuffered: when nobody waits for a reply it reads
// no further ahead.
type execSession struct {
	w         *execWorker
	pool      *execPool // nil: the program ends with the session
	cfg       runner.SessionConfig
	maxReply  int
	mark      int64         // stderr bytes the program wrote before the session
	reused    bool          // the program served earlier sessions
	heard     bool          // a line of this session was read
	restarted bool          // the session moved to another program once
	erred     atomic.Bool   // a Send returned an error (AgentLog reads it while a Send may hang)
	pending   []byte        // the start line, not yet written (a kept program gets it with the first message)
	startup   time.Duration // the program's start-up, read with its ready line, not yet taken (TakeStartup)
	mu        sync.Mutex    // one message at a time
	state     sync.Mutex    // guards closed and broken, which Close reads while a Send may be in flight
	closed    bool
	broken    error // set when a reply was abandoned or the stream broke; the session cannot go on
}

// execRead is one line of the agent's stdout, or why reading stopped.
type execRead struct {
	line []byte
	err  error
	at   time.Time // when the line was read off the program's stdout
}

// errLineTooLong and errReplyTooLong are the protocol's bounds being exceeded.
var (
	errLineTooLong  = errors.New("line too long")
	errReplyTooLong = errors.New("reply too long")
)

// readBoundedLine reads one line of at most max bytes (its newline
// excluded); a longer line is errLineTooLong, read no further.
func readBoundedLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		n := len(line) + len(frag)
		if err == nil {
			n-- // the newline
		}
		if n > max {
			return nil, fmt.Errorf("%w: the agent wrote more than %d bytes without a newline (MaxLineBytes)", errLineTooLong, max)
		}
		line = append(line, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// begin sends the start line.
func (s *execSession) begin() error {
	start := execLine{Type: "start", Protocol: execProtocolVersion, Job: s.cfg.JobID, Dir: s.cfg.Dir, Seed: s.cfg.Seed}
	if s.cfg.Scenario != nil {
		start.Scenario = s.cfg.Scenario.ID
		if setup := s.cfg.Scenario.Setup; setup != nil {
			for _, m := range setup.Mocks {
				k := mockKey{Service: m.Service, Method: m.Method}
				if !slices.Contains(start.Mocks, k) {
					start.Mocks = append(start.Mocks, k)
				}
			}
		}
	}
	if s.cfg.Character != nil {
		start.Character = s.cfg.Character
	}
	for _, p := range s.cfg.Plugins {
		start.Plugins = append(start.Plugins, p.Name)
		if p.Version != "" || len(p.Config) > 0 {
			if start.PluginOpts == nil {
				start.PluginOpts = map[string]pluginOptions{}
			}
			start.PluginOpts[p.Name] = pluginOptions{Version: p.Version, Config: p.Config}
		}
	}
	if s.reused {
		// A kept program is waiting for its next session: the start line
		// goes out with the first message, in one write (one wake-up of the
		// program instead of two).
		b, err := appendExecLine(nil, &start)
		s.pending = b
		return err
	}
	if err := s.w.writeLine(start, 0); err != nil {
		return s.fail(s.describe(err))
	}
	return nil
}

// stdoutGrace is how long a program whose stdout closed has to exit
// before the session takes the closed stream alone as its end: a program
// that exits closes it a moment before its exit status arrives.
const stdoutGrace = 100 * time.Millisecond

// streamClosed is the error of a session whose program's stdout ended
// while it waited for the reply to message id: the program exited (its
// status and stderr tail say why), or it closed stdout and runs on, which
// ends the session at once, since no reply can come.
func (s *execSession) streamClosed(id int64) error {
	p := s.w.p
	select {
	case <-p.Exited():
	case <-time.After(stdoutGrace):
		return fmt.Errorf("exec agent: the agent closed its stdout but is still running (pid %d): no reply to message %d can come; stderr: %s",
			p.PID(), id, s.w.stderr.tailSince(s.mark))
	}
	return s.describe(fmt.Errorf("no reply to message %d: %w", id, io.EOF))
}

// describe adds the program's exit status and stderr tail to an error.
func (s *execSession) describe(err error) error {
	p := s.w.p
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed) || strings.Contains(err.Error(), "broken pipe") {
		// The program is going away: give it a moment so its exit status and stderr can be reported.
		select {
		case <-p.Exited():
		case <-time.After(time.Second):
		}
	}
	select {
	case <-p.Exited():
		// What it wrote last on stderr is the explanation: let it arrive
		// (a child still holding stderr must not hold the error for long).
		p.WaitOutput(200 * time.Millisecond)
		return fmt.Errorf("exec agent exited (%v): %w; stderr: %s", p.ExitError(), err, s.w.stderr.tailSince(s.mark))
	default:
		return fmt.Errorf("exec agent: %w", err)
	}
}

// Send writes the message and serves mock calls until the reply arrives.
func (s *execSession) Send(ctx context.Context, message string) (runner.Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.Lock()
	closed, broken := s.closed, s.broken
	s.state.Unlock()
	switch {
	case closed:
		return runner.Reply{}, errors.New("exec agent: the session is closed")
	case broken != nil:
		return runner.Reply{}, fmt.Errorf("exec agent: session unusable after an earlier failure: %w", broken)
	}
	for {
		reply, err, gone := s.exchange(ctx, message)
		if !gone || !s.mayRestart() {
			if err != nil && gone {
				err = s.fail(err)
			}
			s.erred.Store(err != nil)
			return reply, err
		}
		if err := s.restart(ctx, err); err != nil {
			return runner.Reply{}, s.fail(err)
		}
	}
}

// mayRestart reports whether a session whose program went away may start
// again on another: only a program kept from earlier sessions that ended
// before answering anything of this one, and only once (see
// docs/exec-protocol.md, Failures).
func (s *execSession) mayRestart() bool {
	return s.pool != nil && s.reused && !s.heard && !s.restarted
}

// restart moves the session to another program of the pool after its kept
// program ended (why) before answering anything of it.
func (s *execSession) restart(ctx context.Context, why error) error {
	s.restarted = true
	old := s.w
	rep := old.end(0, "it ended before answering a session's first message")
	s.pool.forget(old)
	msg := fmt.Sprintf("exec agent: a kept program (pid %d) ended before answering anything of session %s (%v)", old.p.PID(), s.cfg.JobID, why)
	if m := rep.Message(); m != "" {
		msg += "; " + m
	}
	s.pool.note(msg + "; the session started again on another program")
	w, reused, err := s.pool.acquire(ctx, s.cfg)
	if err != nil {
		return err
	}
	s.state.Lock()
	closed := s.closed
	if !closed {
		s.w, s.mark, s.reused = w, w.stderr.written(), reused
	}
	s.state.Unlock()
	if closed {
		// Close ran meanwhile (the caller gave up): the new program is not the session's.
		w.end(0, "its session was closed while it started")
		s.pool.forget(w)
		return errors.New("exec agent: the session was closed")
	}
	return s.begin()
}

// exchange sends one message and serves mock calls until its reply. gone
// is true when the error is the program going away.
func (s *execSession) exchange(ctx context.Context, message string) (_ runner.Reply, _ error, gone bool) {
	w := s.w
	w.nextID++
	id := w.nextID
	b := appendMessageLine(s.pending, id, message)
	s.pending = nil
	if err := w.write(b, 0); err != nil {
		return runner.Reply{}, s.describe(err), true
	}
	var reply runner.Reply
	kept := 0
	for {
		var got execRead
		var ok bool
		select {
		case <-ctx.Done():
			// The reply is abandoned; what the agent writes next would be out of step.
			return runner.Reply{}, s.fail(context.Cause(ctx)), false
		case got, ok = <-w.lines:
		}
		switch {
		case !ok || errors.Is(got.err, io.EOF):
			return runner.Reply{}, s.streamClosed(id), true
		case got.err != nil && errors.Is(got.err, errLineTooLong):
			return runner.Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d: %w", id, got.err)), false
		case got.err != nil:
			return runner.Reply{}, s.describe(fmt.Errorf("no reply to message %d: %w", id, got.err)), true
		}
		s.heard = true
		if kept += len(got.line); kept > s.maxReply {
			return runner.Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d: %w: its lines passed %d bytes (MaxReplyBytes)", id, errReplyTooLong, s.maxReply)), false
		}
		var l execLine
		if err := json.Unmarshal(got.line, &l); err != nil {
			return runner.Reply{}, s.fail(fmt.Errorf("exec agent: line is not JSON (%v): %s", err, redact.Head(string(got.line), 200))), false
		}
		first := !w.spoke
		w.spoke = true
		switch l.Type {
		case "reply":
			if l.ID != 0 && l.ID != id {
				return runner.Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d while waiting for %d", l.ID, id)), false
			}
			reply.Text = l.Text
			reply.Thought, reply.EndReason = l.Thought, l.EndReason
			reply.Actions = append(reply.Actions, l.Actions...)
			if l.Usage != nil {
				// The runner checks every agent's usage (negative or
				// absurd counts fail the job with the reason).
				reply.Usage = *l.Usage
			}
			return reply, nil, false
		case "error":
			// The agent could not answer but is still in step: the session
			// fails, the program may serve others.
			if l.ID != 0 && l.ID != id {
				return runner.Reply{}, s.fail(fmt.Errorf("exec agent: error for message %d while waiting for %d", l.ID, id)), false
			}
			return runner.Reply{}, &agentError{msg: fmt.Sprintf("exec agent: the agent could not answer message %d: %s", id, redact.Head(l.Message, 2000)),
				traceback: l.Traceback}, false
		case "action":
			a := results.Action{Name: l.Name, End: time.Now()}
			a.Start = a.End
			if l.DurationMS > 0 && l.DurationMS < float64(24*time.Hour/time.Millisecond) {
				a.Start = a.End.Add(-time.Duration(l.DurationMS * float64(time.Millisecond)))
			}
			if len(l.Args) > 0 {
				_ = json.Unmarshal(l.Args, &a.Args)
			}
			if len(l.Result) > 0 {
				_ = json.Unmarshal(l.Result, &a.Result)
			}
			if len(l.Error) > 0 {
				var e string
				if json.Unmarshal(l.Error, &e) != nil {
					e = string(l.Error)
				}
				a.Error = e
			}
			reply.Actions = append(reply.Actions, a)
		case "mock":
			if err := s.answerMock(ctx, l); err != nil {
				return runner.Reply{}, s.fail(s.describe(err)), false
			}
		case "log":
			// Logs are informational.
		case "ready":
			if err := s.ready(l, first); err != nil {
				return runner.Reply{}, s.fail(err), false
			}
			if s.w.persistent {
				// The program's start-up, until it said it was ready: the
				// first of its many sessions is not charged with it.
				s.startup = got.at.Sub(s.w.started)
			}
		default:
			return runner.Reply{}, s.fail(fmt.Errorf("exec agent: unknown line type %q (want reply, error, action, mock or log)", l.Type)), false
		}
	}
}

// TakeStartup returns the time the session waited for its persistent
// program to start (from its start to its ready line), once; the runner
// leaves it out of the session's latency (results.Job.AgentStartupMS). It
// is called between Sends.
func (s *execSession) TakeStartup() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.startup
	s.startup = 0
	return d
}

// ready reads the program's announcement: "sessions":"many" makes it
// persistent.
func (s *execSession) ready(l execLine, first bool) error {
	if !first {
		return errors.New("exec agent: a ready line must be the program's first line")
	}
	if l.Protocol != 0 && l.Protocol != execProtocolVersion {
		return fmt.Errorf("exec agent: the program speaks version %d of the exec protocol; this runner speaks version %d", l.Protocol, execProtocolVersion)
	}
	switch l.Sessions {
	case "many":
		s.w.persistent = true
	case "", "one":
	default:
		return fmt.Errorf(`exec agent: ready line: sessions %q: want "many" or "one"`, l.Sessions)
	}
	return nil
}

// fail marks the session broken by err and returns err.
func (s *execSession) fail(err error) error {
	s.state.Lock()
	if s.broken == nil {
		s.broken = err
	}
	s.state.Unlock()
	return err
}

func (s *execSession) answerMock(ctx context.Context, l execLine) error {
	var args []any
	if len(l.Args) > 0 {
		if err := json.Unmarshal(l.Args, &args); err != nil {
			var one any
			if json.Unmarshal(l.Args, &one) == nil {
				args = []any{one}
			}
		}
	}
	res, err := s.cfg.Mocks.Call(ctx, l.Service, l.Method, args...)
	out := execLine{Type: "mock_result", ID: l.ID}
	if err != nil {
		code, message := "MOCK_ERROR", err.Error()
		var me *scenario.MockError
		switch {
		case errors.As(err, &me):
			code, message = me.Code, me.Message
		case errors.Is(err, runner.ErrNoMock):
			code = "NO_MOCK"
		}
		b, _ := json.Marshal(map[string]any{"code": code, "message": message})
		out.Error = b
	} else {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		out.Result = b
	}
	return s.w.writeLine(out, 0)
}

// Close ends the session. A persistent program is told so with an "end"
// line and, within a run, kept for the next session; any other program
// has its stdin closed and two seconds to exit (none when the session
// broke), and then its whole process group is killed. The error says what
// had to be killed and why, with the tail of the program's stderr when the
// session broke.
func (s *execSession) Close() error {
	s.state.Lock()
	closed, broken, w, mark := s.closed, s.broken, s.w, s.mark
	s.closed = true
	s.state.Unlock()
	if closed {
		return nil
	}
	if s.mu.TryLock() {
		s.mu.Unlock()
	} else if broken == nil {
		// A Send is still in flight: its caller gave up on the reply.
		broken = errors.New("a message was abandoned before its reply")
	}
	if broken == nil && s.pending != nil && s.pool != nil && s.pool.release(w) {
		return nil // no line of the session was written: the program never knew of it
	}
	if broken == nil && w.persistent {
		if s.pool != nil {
			s.pool.learned()
		}
		if err := w.write(appendEndLine(nil, s.cfg.JobID), execEndWriteTimeout); err != nil {
			broken = fmt.Errorf("writing the end of the session: %w", err)
		} else if s.pool != nil && !w.inJobDir && s.pool.release(w) {
			return nil
		}
	}
	grace, why := execCloseGrace, fmt.Sprintf("the agent did not exit within %v of its session's end", execCloseGrace)
	if broken != nil {
		grace, why = 0, fmt.Sprintf("the session broke (%v)", broken)
	}
	rep := w.end(grace, why)
	if s.pool != nil {
		s.pool.forget(w)
	}
	if rep.Exited && len(rep.Killed) > 0 && broken == nil {
		rep.Why = "the agent left them running when it exited"
	}
	m := rep.Message()
	if m == "" {
		return nil
	}
	if t := w.stderr.tailSince(mark); broken != nil && t != "" {
		m += "; its stderr: " + t
	}
	return fmt.Errorf("exec agent: %s", m)
}

// limitedBuffer keeps the last 8 KiB written, for error messages.
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
	n   int64 // bytes written in all
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n += int64(len(p))
	b.buf = append(b.buf, p...)
	if len(b.buf) > 8<<10 {
		b.buf = b.buf[len(b.buf)-8<<10:]
	}
	return len(p), nil
}

// written is how many bytes were written in all.
func (b *limitedBuffer) written() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

// tailSince is the last 500 bytes of what was written after the first
// mark bytes (of what is still kept), trimmed.
func (b *limitedBuffer) tailSince(mark int64) string {
	return b.tail(mark, 500)
}

// tail is the last n bytes of what was written after the first mark
// bytes (of what is still kept), trimmed.
func (b *limitedBuffer) tail(mark int64, n int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.buf
	if since := b.n - mark; since < int64(len(kept)) {
		kept = kept[int64(len(kept))-max(since, 0):]
	}
	// redact.Tail marks the cut, so a secret it cuts is masked whole.
	return redact.Tail(strings.TrimSpace(string(kept)), n)
}

// agentError is the agent's own report that it could not answer (an error
// line), with the traceback a kit sends beside the message.
type agentError struct {
	msg, traceback string
}

func (e *agentError) Error() string { return e.msg }

// Traceback is the exception's stack as the agent's kit formatted it.
func (e *agentError) Traceback() string { return e.traceback }

// AgentLog is what the program wrote on stderr during this session (its
// last 8 KiB), for the job's record. Output still on its way is given a
// moment to arrive: a kit writes a traceback just before its error line.
func (s *execSession) AgentLog() string {
	for i := 0; s.erred.Load() && i < 10; i++ {
		n := s.w.stderr.written()
		time.Sleep(5 * time.Millisecond)
		if s.w.stderr.written() == n {
			break
		}
	}
	return s.w.stderr.tail(s.mark, 8<<10)
}

// limitEnv tells the agent's programs the model endpoint's known limits
// (run's --max-requests, a suite model's max_requests and
// tokens_per_minute) as AGENTEVAL_MAX_REQUESTS and
// AGENTEVAL_TOKENS_PER_MINUTE: a program that calls a model itself, over
// Concurrency sessions at once, can keep its own calls under them.
func limitEnv(l llm.EndpointLimits) []string {
	var env []string
	if l.MaxRequests > 0 {
		env = append(env, "AGENTEVAL_MAX_REQUESTS="+strconv.Itoa(l.MaxRequests))
	}
	if l.TokensPerMinute > 0 {
		env = append(env, "AGENTEVAL_TOKENS_PER_MINUTE="+strconv.Itoa(l.TokensPerMinute))
	}
	return env
}
