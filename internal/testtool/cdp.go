package testtool

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
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A minimal client of the Chrome DevTools Protocol, shared by the tests
// that load pages in a real browser (report's HTML, the viewer) over
// --remote-debugging-pipe (JSON messages ended by a NUL byte; Chromium
// reads commands on its fd 3 and writes on fd 4). The layout check needs
// it rather than --window-size because headless Chromium will not make a
// window narrower than 500 px; device metrics emulation sets any viewport.

// Browser is a headless Chromium driven over the DevTools protocol.
type Browser struct {
	cmd    *exec.Cmd
	w      io.WriteCloser
	mu     sync.Mutex
	nextID int
	calls  map[int]chan cdpMessage
	events chan cdpMessage
	done   chan struct{}
	err    error
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// StartChromium starts headless Chromium with a fresh profile, off the
// network, driven over a pipe. It is closed when the test ends.
func StartChromium(t testing.TB, bin string) *Browser {
	t.Helper()
	toChrome, chromeIn, err := os.Pipe()
	require.NoError(t, err)
	chromeOut, fromChrome, err := os.Pipe()
	require.NoError(t, err)
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe", "--user-data-dir="+t.TempDir(), "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, fromChrome} // fd 3: commands in, fd 4: messages out
	stderr := &limitedBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	ownGroup(cmd)
	require.NoError(t, cmd.Start())
	_ = toChrome.Close()
	_ = fromChrome.Close()
	b := &Browser{cmd: cmd, w: chromeIn, calls: map[int]chan cdpMessage{}, events: make(chan cdpMessage, 256), done: make(chan struct{})}
	go b.read(chromeOut)
	t.Cleanup(func() {
		_, _ = b.call(context.Background(), "", "Browser.close", nil)
		_ = chromeIn.Close()
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		select {
		case <-waited:
		case <-time.After(10 * time.Second):
			killGroup(cmd)
			<-waited
		}
		killGroup(cmd) // any helper process left behind
		_ = chromeOut.Close()
		if t.Failed() {
			var lines []string
			for _, l := range strings.Split(stderr.String(), "\n") {
				if l != "" && !strings.Contains(l, "dbus") {
					lines = append(lines, l)
				}
			}
			t.Logf("chromium stderr (dbus complaints left out):\n%s", strings.Join(lines, "\n"))
		}
	})
	return b
}

func (b *Browser) read(r io.Reader) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.err = fmt.Errorf("devtools pipe closed: %w", err)
			b.mu.Unlock()
			return
		}
		var m cdpMessage
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			continue
		}
		if m.ID != 0 {
			b.mu.Lock()
			ch := b.calls[m.ID]
			delete(b.calls, m.ID)
			b.mu.Unlock()
			if ch != nil {
				ch <- m
			}
			continue
		}
		select {
		case b.events <- m:
		default: // nobody waits for it
		}
	}
}

// call sends a command (to a page session when session is not empty) and
// returns its result.
func (b *Browser) call(ctx context.Context, session, method string, params any) (json.RawMessage, error) {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.calls[id] = ch
	b.mu.Unlock()
	p, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	if params == nil {
		p = nil
	}
	msg, err := json.Marshal(cdpMessage{ID: id, Method: method, Params: p, SessionID: session})
	if err != nil {
		return nil, err
	}
	if _, err := b.w.Write(append(msg, 0)); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		return m.Result, nil
	case <-b.done:
		return nil, fmt.Errorf("%s: %w", method, b.err)
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// Page is one tab.
type Page struct {
	b       *Browser
	session string
}

// NewPage opens a tab and attaches to it.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	res, err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"})
	if err != nil {
		return nil, err
	}
	var target struct{ TargetID string }
	if err := json.Unmarshal(res, &target); err != nil {
		return nil, err
	}
	res, err = b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true})
	if err != nil {
		return nil, err
	}
	var att struct{ SessionID string }
	if err := json.Unmarshal(res, &att); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: att.SessionID}
	if _, err := b.call(ctx, p.session, "Page.enable", nil); err != nil {
		return nil, err
	}
	return p, nil
}

// Load sets the viewport (a phone's when mobile) and loads url, waiting for
// its load event.
func (p *Page) Load(ctx context.Context, url string, width, height int, mobile bool) error {
	if _, err := p.b.call(ctx, p.session, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}); err != nil {
		return err
	}
	if _, err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}); err != nil {
		return err
	}
	for {
		select {
		case m := <-p.b.events:
			if m.SessionID == p.session && m.Method == "Page.loadEventFired" {
				return nil
			}
		case <-p.b.done:
			return p.b.err
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to load: %w", url, ctx.Err())
		}
	}
}

// Eval evaluates a script whose value is a string (or a promise of one)
// and returns it.
func (p *Page) Eval(ctx context.Context, script string) (string, error) {
	res, err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": script, "returnByValue": true, "awaitPromise": true})
	if err != nil {
		return "", err
	}
	var out struct {
		Result struct {
			Type  string
			Value any
		}
		ExceptionDetails *struct {
			Text      string
			Exception *struct{ Description string }
		}
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return "", err
	}
	if e := out.ExceptionDetails; e != nil {
		if e.Exception != nil {
			return "", errors.New(e.Exception.Description)
		}
		return "", errors.New(e.Text)
	}
	s, ok := out.Result.Value.(string)
	if !ok {
		return "", fmt.Errorf("script returned %s, not a string", out.Result.Type)
	}
	return s, nil
}

// WaitFor evaluates script (whose value is a string) until it is not
// empty, and returns it: for a page that renders after its scripts fetch.
// On ctx's end it says what the script last returned.
func (p *Page) WaitFor(ctx context.Context, script string) (string, error) {
	var last error
	for {
		out, err := p.Eval(ctx, script)
		if err == nil && out != "" {
			return out, nil
		}
		last = err
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %s: %w (last error: %v)", script, ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Screenshot captures a band of the page, from y down height CSS pixels,
// as PNG.
func (p *Page) Screenshot(ctx context.Context, y, width, height int) ([]byte, error) {
	res, err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{
		"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": y, "width": width, "height": height, "scale": 1}})
	if err != nil {
		return nil, err
	}
	var out struct{ Data []byte }
	err = json.Unmarshal(res, &out)
	return out.Data, err
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - len(l.buf); room > 0 {
		l.buf = append(l.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}
