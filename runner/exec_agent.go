package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/proc"
)

// The exec agent protocol: the runner starts COMMAND (with sh -c) once per
// session, in the run's directory when there is one, and speaks JSON lines:
//
// Runner to agent, on stdin:
//
//	{"type":"start","job":"s/-/run-1","scenario":"s","character":{...},"plugins":["@x/y"],"dir":"/tmp/r1","seed":1}
//	{"type":"message","id":1,"text":"List open issues"}
//	{"type":"mock_result","id":7,"result":{...}}                      (answer to a mock call)
//	{"type":"mock_result","id":7,"error":{"code":"E","message":"..."}}
//
// Agent to runner, on stdout (anything on stderr is kept as a log):
//
//	{"type":"mock","id":7,"service":"github","method":"listIssues","args":[{"repo":"x"}]}
//	{"type":"action","name":"LIST_ISSUES","args":{...},"result":...,"error":""}
//	{"type":"reply","id":1,"text":"...","actions":[{"name":"...","args":{}}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}
//
// Every message gets exactly one reply with its id. Actions may come as
// separate "action" lines before the reply, in the reply, or both. A mock
// call whose service.method no mock answers gets an error with code
// "NO_MOCK".
//
// Bounds: one line the agent writes may hold at most MaxLineBytes (default
// DefaultMaxLineBytes, 4 MiB) before its newline, and the lines of one
// reply (its action lines and the reply line) at most MaxReplyBytes
// (default DefaultMaxReplyBytes, 8 MiB) together. Going over either fails
// the session with the reason: the runner never holds more than that of an
// agent's output. Stderr is kept as a log (its last 8 KiB).
//
// Processes: the program runs in its own process group. When the session
// ends the runner closes stdin and gives the program two seconds to exit;
// then, and in any case when a step timed out or the session broke, it
// kills the whole group, so nothing the agent started outlives its job.
// Close reports what it had to kill.

// Defaults of the exec protocol's bounds.
const (
	DefaultMaxLineBytes  = 4 << 20
	DefaultMaxReplyBytes = 8 << 20
)

// execCloseGrace is how long a session's program has to exit by itself
// once its stdin is closed.
const execCloseGrace = 2 * time.Second

// ExecAgent runs an external program as the agent, in any language.
type ExecAgent struct {
	command string
	// MaxLineBytes bounds one protocol line from the agent (0: DefaultMaxLineBytes).
	MaxLineBytes int
	// MaxReplyBytes bounds the lines of one reply together (0: DefaultMaxReplyBytes).
	MaxReplyBytes int
}

// NewExecAgent returns an agent that runs command with sh -c.
func NewExecAgent(command string) (*ExecAgent, error) {
	if strings.TrimSpace(command) == "" {
		return nil, errors.New("exec agent: give a command, as in exec:./my-agent or exec:python3 agent.py")
	}
	return &ExecAgent{command: command}, nil
}

type execLine struct {
	Type      string            `json:"type"`
	ID        int64             `json:"id,omitempty"`
	Job       string            `json:"job,omitempty"`
	Scenario  string            `json:"scenario,omitempty"`
	Character any               `json:"character,omitempty"`
	Plugins   []string          `json:"plugins,omitempty"`
	Dir       string            `json:"dir,omitempty"`
	Seed      int64             `json:"seed,omitempty"`
	Text      string            `json:"text,omitempty"`
	Service   string            `json:"service,omitempty"`
	Method    string            `json:"method,omitempty"`
	Args      json.RawMessage   `json:"args,omitempty"`
	Name      string            `json:"name,omitempty"`
	Result    json.RawMessage   `json:"result,omitempty"`
	Error     json.RawMessage   `json:"error,omitempty"`
	Actions   []evaluate.Action `json:"actions,omitempty"`
	Usage     *evaluate.Usage   `json:"usage,omitempty"`
}

// NewSession starts the program.
func (a *ExecAgent) NewSession(ctx context.Context, cfg SessionConfig) (Session, error) {
	maxLine, maxReply := a.MaxLineBytes, a.MaxReplyBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	if maxReply <= 0 {
		maxReply = DefaultMaxReplyBytes
	}
	stderr := &limitedBuffer{}
	p, err := proc.Start(proc.Spec{Path: "sh", Args: []string{"-c", a.command}, Dir: cfg.Dir,
		Env:   append(os.Environ(), "AGENTEVAL_JOB_ID="+cfg.JobID, "AGENTEVAL_DIR="+cfg.Dir),
		Stdin: true, StdoutPipe: true, Stderr: stderr})
	if err != nil {
		return nil, fmt.Errorf("exec agent: starting %q: %w", a.command, err)
	}
	s := &execSession{p: p, cfg: cfg, stderr: stderr, maxReply: maxReply, lines: make(chan execRead)}
	go s.readLines(bufio.NewReaderSize(p.Stdout(), 64<<10), maxLine)
	start := execLine{Type: "start", Job: cfg.JobID, Dir: cfg.Dir, Seed: cfg.Seed}
	if cfg.Scenario != nil {
		start.Scenario = cfg.Scenario.ID
	}
	if cfg.Character != nil {
		start.Character = cfg.Character
	}
	for _, p := range cfg.Plugins {
		start.Plugins = append(start.Plugins, p.Name)
	}
	if err := s.write(start); err != nil {
		err = s.describe(err)
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// execSession is one run of the program. One goroutine reads its stdout,
// a bounded line at a time, and hands each line over unbuffered: when
// nobody waits for a reply it reads no further ahead.
type execSession struct {
	p        *proc.Process
	cfg      SessionConfig
	stderr   *limitedBuffer
	maxReply int
	lines    chan execRead // closed after the read that ended the stream
	mu       sync.Mutex    // one message at a time
	nextID   int64
	state    sync.Mutex // guards closed and broken, which Close reads while a Send may be in flight
	closed   bool
	broken   error // set when a reply was abandoned or the stream broke; the session cannot go on
}

// execRead is one line of the agent's stdout, or why reading stopped.
type execRead struct {
	line []byte
	err  error
}

// errLineTooLong and errReplyTooLong are the protocol's bounds being exceeded.
var (
	errLineTooLong  = errors.New("line too long")
	errReplyTooLong = errors.New("reply too long")
)

func (s *execSession) readLines(r *bufio.Reader, maxLine int) {
	defer close(s.lines)
	for {
		line, err := readBoundedLine(r, maxLine)
		if len(line) > 0 && (err == nil || errors.Is(err, io.EOF)) {
			s.lines <- execRead{line: line}
		}
		if err != nil {
			s.lines <- execRead{err: err}
			return
		}
	}
}

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

func (s *execSession) write(l execLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = s.p.Stdin().Write(append(b, '\n'))
	return err
}

// describe adds the program's exit status and stderr tail to an error.
func (s *execSession) describe(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed) || strings.Contains(err.Error(), "broken pipe") {
		// The program is going away: give it a moment so its exit status and stderr can be reported.
		select {
		case <-s.p.Exited():
		case <-time.After(time.Second):
		}
	}
	select {
	case <-s.p.Exited():
		// What it wrote last on stderr is the explanation: let it arrive
		// (a child still holding stderr must not hold the error for long).
		s.p.WaitOutput(200 * time.Millisecond)
		return fmt.Errorf("exec agent exited (%v): %w; stderr: %s", s.p.ExitError(), err, s.stderr.tail())
	default:
		return fmt.Errorf("exec agent: %w", err)
	}
}

// Send writes the message and serves mock calls until the reply arrives.
func (s *execSession) Send(ctx context.Context, message string) (Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.Lock()
	closed, broken := s.closed, s.broken
	s.state.Unlock()
	switch {
	case closed:
		return Reply{}, errors.New("exec agent: the session is closed")
	case broken != nil:
		return Reply{}, fmt.Errorf("exec agent: session unusable after an earlier failure: %w", broken)
	}
	s.nextID++
	id := s.nextID
	if err := s.write(execLine{Type: "message", ID: id, Text: message}); err != nil {
		return Reply{}, s.fail(s.describe(err))
	}
	var reply Reply
	kept := 0
	for {
		var got execRead
		var ok bool
		select {
		case <-ctx.Done():
			// The reply is abandoned; what the agent writes next would be out of step.
			return Reply{}, s.fail(context.Cause(ctx))
		case got, ok = <-s.lines:
		}
		switch {
		case !ok:
			return Reply{}, s.fail(s.describe(fmt.Errorf("no reply to message %d: %w", id, io.EOF)))
		case got.err != nil && errors.Is(got.err, errLineTooLong):
			return Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d: %w", id, got.err))
		case got.err != nil:
			return Reply{}, s.fail(s.describe(fmt.Errorf("no reply to message %d: %w", id, got.err)))
		}
		if kept += len(got.line); kept > s.maxReply {
			return Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d: %w: its lines passed %d bytes (MaxReplyBytes)", id, errReplyTooLong, s.maxReply))
		}
		var l execLine
		if err := json.Unmarshal(got.line, &l); err != nil {
			return Reply{}, s.fail(fmt.Errorf("exec agent: line is not JSON (%v): %.200s", err, got.line))
		}
		switch l.Type {
		case "reply":
			if l.ID != 0 && l.ID != id {
				return Reply{}, s.fail(fmt.Errorf("exec agent: reply to message %d while waiting for %d", l.ID, id))
			}
			reply.Text = l.Text
			reply.Actions = append(reply.Actions, l.Actions...)
			if l.Usage != nil {
				reply.Usage = *l.Usage
			}
			return reply, nil
		case "action":
			a := evaluate.Action{Name: l.Name, End: time.Now()}
			a.Start = a.End
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
				return Reply{}, s.fail(s.describe(err))
			}
		case "log":
			// Logs are informational.
		default:
			return Reply{}, s.fail(fmt.Errorf("exec agent: unknown line type %q (want reply, action, mock or log)", l.Type))
		}
	}
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
		var me *MockError
		switch {
		case errors.As(err, &me):
			code, message = me.Code, me.Message
		case errors.Is(err, ErrNoMock):
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
	return s.write(out)
}

// Close ends the program: stdin closes and it has two seconds to exit
// (none when the session broke); then its whole process group is killed.
// The error says what had to be killed and why.
func (s *execSession) Close() error {
	s.state.Lock()
	closed, broken := s.closed, s.broken
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
	grace, why := execCloseGrace, fmt.Sprintf("the agent did not exit within %v of its session's end", execCloseGrace)
	if broken != nil {
		grace, why = 0, fmt.Sprintf("the session broke (%v)", broken)
	}
	rep := s.p.End(grace, why)
	if rep.Exited && len(rep.Killed) > 0 && broken == nil {
		rep.Why = "the agent left them running when it exited"
	}
	// The reader may be waiting to hand over a line nobody will take.
	go func() {
		for range s.lines {
		}
	}()
	if m := rep.Message(); m != "" {
		return fmt.Errorf("exec agent: %s", m)
	}
	return nil
}

// limitedBuffer keeps the last 8 KiB written, for error messages.
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 8<<10 {
		b.buf = b.buf[len(b.buf)-8<<10:]
	}
	return len(p), nil
}

func (b *limitedBuffer) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.TrimSpace(string(b.buf))
	if len(s) > 500 {
		s = "…" + s[len(s)-500:]
	}
	return s
}
