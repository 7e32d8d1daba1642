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
	"strings"
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
