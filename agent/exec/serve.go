package exec

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// Serve serves the exec agent protocol (docs/exec-protocol.md) on r
// and w with an in-process agent, so an agent written in Go runs under any
// runner as `--agent exec:PROGRAM`. It announces that it serves many
// sessions, so a runner keeps the program for a whole run: each start line
// opens a session of agent, each end line closes it. Mock calls the agent
// makes through runner.SessionConfig.Mocks travel to the runner and back; a
// message the agent fails to answer gets an error line, and the program
// goes on serving. It returns when r ends, closing any open session.
func Serve(ctx context.Context, r io.Reader, w io.Writer, agent runner.Agent) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64<<10), 16<<20)
	out := &lineWriter{enc: json.NewEncoder(w)}
	bridge := &mockBridge{out: out, pending: map[int64]chan execLine{}, inputEnded: make(chan struct{})}
	messages := make(chan execLine, 1)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done) // lets the reader stop when ServeExec returns early
	if err := out.write(execLine{Type: "ready", Sessions: "many", Protocol: execProtocolVersion}); err != nil {
		return err
	}
	go func() {
		defer close(messages)
		// A mock result can only arrive on the input: once it ends (the
		// runner exited or was killed), a pending mock call must fail, or
		// the agent would wait for it forever and the program outlive its
		// runner.
		defer close(bridge.inputEnded)
		for in.Scan() {
			var l execLine
			if err := json.Unmarshal(in.Bytes(), &l); err != nil {
				readErr <- fmt.Errorf("exec protocol: line is not JSON: %w", err)
				return
			}
			if l.Type == "mock_result" {
				bridge.deliver(l)
				continue
			}
			select {
			case messages <- l:
			case <-done:
				return
			}
		}
		readErr <- in.Err()
	}()
	var sess runner.Session
	var startErr error // why the open session could not start; its messages get it as their error
	open := false
	end := func() {
		if sess != nil {
			_ = sess.Close()
		}
		sess, startErr, open = nil, nil, false
	}
	defer end()
	for l := range messages {
		switch l.Type {
		case "start":
			end()
			open = true
			cfg := runner.SessionConfig{JobID: l.Job, Dir: l.Dir, Seed: l.Seed, Mocks: bridge}
			if sess, startErr = agent.NewSession(ctx, cfg); startErr != nil {
				sess = nil
			}
		case "end":
			end()
		case "message":
			var reply runner.Reply
			err := startErr
			switch {
			case !open:
				err = errors.New("message before start")
			case err != nil:
				err = fmt.Errorf("starting the session: %w", err)
			default:
				reply, err = sess.Send(ctx, l.Text)
			}
			line := execLine{Type: "error", ID: l.ID}
			if err != nil {
				line.Message = err.Error()
			} else {
				u := reply.Usage
				line = execLine{Type: "reply", ID: l.ID, Text: reply.Text, Actions: reply.Actions, Usage: &u}
			}
			if err := out.write(line); err != nil {
				return err
			}
		}
	}
	return <-readErr
}

type lineWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (w *lineWriter) write(l execLine) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(l)
}

// errInputEnded fails a mock call whose result can no longer arrive: the
// runner closed the protocol input (it exited or was killed).
var errInputEnded = errors.New("exec protocol: the input ended before the mock result came")

// mockBridge forwards mock calls to the runner over the protocol.
type mockBridge struct {
	out     *lineWriter
	next    atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan execLine
	// inputEnded is closed when the protocol input ends: no mock result
	// can come after it.
	inputEnded chan struct{}
}

func (b *mockBridge) deliver(l execLine) {
	b.mu.Lock()
	ch := b.pending[l.ID]
	delete(b.pending, l.ID)
	b.mu.Unlock()
	if ch != nil {
		ch <- l
	}
}

// Call sends a mock line and waits for the runner's mock_result.
func (b *mockBridge) Call(ctx context.Context, service, method string, args ...any) (any, error) {
	id := b.next.Add(1)
	ch := make(chan execLine, 1)
	b.mu.Lock()
	b.pending[id] = ch
	b.mu.Unlock()
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	if err := b.out.write(execLine{Type: "mock", ID: id, Service: service, Method: method, Args: raw}); err != nil {
		return nil, err
	}
	var l execLine
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case l = <-ch:
	case <-b.inputEnded:
		select {
		case l = <-ch: // delivered just before the input ended
		default:
			return nil, fmt.Errorf("%s.%s: %w", service, method, errInputEnded)
		}
	}
	if len(l.Error) > 0 {
		var e struct{ Code, Message string }
		_ = json.Unmarshal(l.Error, &e)
		if e.Code == "NO_MOCK" {
			return nil, fmt.Errorf("%s.%s: %w", service, method, runner.ErrNoMock)
		}
		return nil, &scenario.MockError{Code: e.Code, Message: e.Message}
	}
	var v any
	if len(l.Result) > 0 {
		if err := json.Unmarshal(l.Result, &v); err != nil {
			return nil, err
		}
	}
	return v, nil
}
