package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/evaluate"
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
// "NO_MOCK". When the session ends the runner closes stdin and waits up to
// two seconds before killing the process.

// ExecAgent runs an external program as the agent, in any language.
type ExecAgent struct {
	command string
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
	cmd := exec.Command("sh", "-c", a.command)
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), "AGENTEVAL_JOB_ID="+cfg.JobID, "AGENTEVAL_DIR="+cfg.Dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("exec agent: starting %q: %w", a.command, err)
	}
	s := &execSession{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 64<<10), cfg: cfg, stderr: &stderr, done: make(chan struct{})}
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()
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
		_ = s.Close()
		return nil, s.describe(err)
	}
	return s, nil
}

type execSession struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	out     *bufio.Reader
	cfg     SessionConfig
	stderr  *limitedBuffer
	mu      sync.Mutex // one message at a time
	nextID  int64
	done    chan struct{}
	waitErr error
	closed  bool
	broken  error // set when a reply was abandoned; the stream is then out of step
}

func (s *execSession) write(l execLine) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	_, err = s.stdin.Write(append(b, '\n'))
	return err
}

// describe adds the program's exit status and stderr tail to an error.
func (s *execSession) describe(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed) || strings.Contains(err.Error(), "broken pipe") {
		// The program is going away: give it a moment so its exit status and stderr can be reported.
		select {
		case <-s.done:
		case <-time.After(time.Second):
		}
	}
	select {
	case <-s.done:
		return fmt.Errorf("exec agent exited (%v): %w; stderr: %s", s.waitErr, err, s.stderr.tail())
	default:
		return fmt.Errorf("exec agent: %w", err)
	}
}

// Send writes the message and serves mock calls until the reply arrives.
func (s *execSession) Send(ctx context.Context, message string) (Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return Reply{}, fmt.Errorf("exec agent: session unusable after an earlier failure: %w", s.broken)
	}
	s.nextID++
	id := s.nextID
	if err := s.write(execLine{Type: "message", ID: id, Text: message}); err != nil {
		return Reply{}, s.describe(err)
	}
	type lineOrErr struct {
		line []byte
		err  error
	}
	var reply Reply
	for {
		ch := make(chan lineOrErr, 1)
		go func() {
			b, err := s.out.ReadBytes('\n')
			ch <- lineOrErr{b, err}
		}()
		var got lineOrErr
		select {
		case <-ctx.Done():
			// The reader goroutine is left to finish when the process dies at Close.
			s.broken = ctx.Err()
			return Reply{}, ctx.Err()
		case got = <-ch:
		}
		if got.err != nil && len(got.line) == 0 {
			return Reply{}, s.describe(fmt.Errorf("no reply to message %d: %w", id, got.err))
		}
		var l execLine
		if err := json.Unmarshal(got.line, &l); err != nil {
			return Reply{}, fmt.Errorf("exec agent: line is not JSON (%v): %.200s", err, got.line)
		}
		switch l.Type {
		case "reply":
			if l.ID != 0 && l.ID != id {
				return Reply{}, fmt.Errorf("exec agent: reply to message %d while waiting for %d", l.ID, id)
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
				return Reply{}, s.describe(err)
			}
		case "log":
			// Logs are informational.
		default:
			return Reply{}, fmt.Errorf("exec agent: unknown line type %q (want reply, action, mock or log)", l.Type)
		}
	}
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

// Close ends the program: stdin closes, then a kill after two seconds.
func (s *execSession) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	_ = s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
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
