package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `agenteval view DIR` serves the runs under DIR on a loopback port, says
// where, answers the API, and stops cleanly when its context ends (what
// SIGINT does through Main).
func TestViewServesARunAndStopsOnInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	scen := filepath.Join(dir, "fails.scenario.yaml")
	require.NoError(t, os.WriteFile(scen, []byte(`name: fails
description: a check the echo agent fails
environment: {type: local}
run:
  - input: hello
    evaluations: [{type: string_contains, value: goodbye}]
judgment: {strategy: all_pass}
`), 0o644))
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--runs", "2", "--out", out, scen)
	require.Equal(t, exitFail, code, stderr)
	assert.Contains(t, stderr, "why they did not pass: agenteval report "+out+" (grouped by reason), or agenteval view "+out)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var errb strings.Builder
	env := &cliEnv{stdout: pw, stderr: &errb, stdin: strings.NewReader(""), getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- mainWith(ctx, env, []string{"view", dir}); _ = pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err, errb.String())
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	require.NotEmpty(t, url, line)
	res, err := http.Get(url + "api/runs")
	require.NoError(t, err)
	var runs []struct {
		Recorded, Failed int
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&runs))
	res.Body.Close()
	require.Len(t, runs, 1)
	assert.Equal(t, 2, runs[0].Recorded)
	assert.Equal(t, 2, runs[0].Failed)
	cancel()
	select {
	case code := <-done:
		assert.Equal(t, exitOK, code, errb.String())
	case <-time.After(10 * time.Second):
		t.Fatal("view did not stop when interrupted")
	}
	_, err = http.Get(url + "api/runs")
	assert.Error(t, err, "the port is closed")
}

func TestViewRefusesAFolderWithoutResults(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, "view", t.TempDir())
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "agenteval view: no results file (results.jsonl) under")
}

// `view --open` opens the page with the desktop's opener when there is a
// display (a stand-in xdg-open on PATH records what it was given), and
// otherwise starts nothing and says to open the URL by hand.
func TestViewOpensTheBrowserWhenThereIsOne(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("xdg-open is the Linux opener")
	}
	dir := t.TempDir()
	writeViewResults(t, filepath.Join(dir, "out"))
	bin, got := filepath.Join(dir, "bin"), filepath.Join(dir, "opened")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+got+"\n"), 0o755))
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"display", map[string]string{"DISPLAY": ":99", "PATH": bin}, "opened http://127.0.0.1:"},
		{"no display", map[string]string{"PATH": bin}, "no browser opened (no display: DISPLAY and WAYLAND_DISPLAY are unset): open http://127.0.0.1:"},
		{"no opener", map[string]string{"DISPLAY": ":99", "PATH": t.TempDir()}, "no browser opened (xdg-open is not on PATH)"},
	} {
		_ = os.Remove(got)
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		var errb syncBuffer
		env := &cliEnv{stdout: pw, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return tc.env[k] }}
		done := make(chan int, 1)
		go func() {
			done <- mainWith(ctx, env, []string{"view", "--open", "--addr", "127.0.0.1:0", dir})
			_ = pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		require.NoError(t, err, errb.String())
		go func() { _, _ = io.Copy(io.Discard, pr) }()
		url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
		require.NotEmpty(t, url, line)
		require.Eventually(t, func() bool { return strings.Contains(errb.String(), tc.want) }, 10*time.Second, 20*time.Millisecond, "%s: %s", tc.name, errb.String())
		if tc.name == "display" {
			require.Eventually(t, func() bool { b, _ := os.ReadFile(got); return string(b) == url }, 10*time.Second, 20*time.Millisecond, "xdg-open got the URL")
		} else {
			_, err := os.Stat(got)
			assert.ErrorIs(t, err, os.ErrNotExist, "%s: nothing was started", tc.name)
		}
		cancel()
		assert.Equal(t, exitOK, <-done)
	}
}

// writeViewResults writes a one-job results file under dir.
func writeViewResults(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(
		`{"record":"plan","run_id":"r1","started":"2026-11-29T00:00:00Z","total_jobs":1,"shard_jobs":1,"agent":"echo","sources":["a.scenario.yaml"],"version":2}`+"\n"+
			`{"record":"job","id":"a/-/run-1","index":0,"scenario":"a","combination":"-","run":1,"attempts":1,"completed":true,"passed":true,"reason":"ok","started":"2026-11-29T00:00:00Z","duration_ms":1,"usage":{}}`+"\n"), 0o644))
}

// syncBuffer is a strings.Builder safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
