package cliagent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/scenario"
)

func TestFindNamesTheInstall(t *testing.T) {
	p := Program{Name: "no-such-cli-h29", PathEnv: "AGENTEVAL_NO_SUCH", Install: "npm install -g no-such@1"}
	_, err := p.Find(func(string) string { return "" })
	require.ErrorContains(t, err, "install it with `npm install -g no-such@1`, or set AGENTEVAL_NO_SUCH")
	dir := t.TempDir()
	_, err = p.Find(func(string) string { return dir })
	require.ErrorContains(t, err, "AGENTEVAL_NO_SUCH="+dir+" is not an executable file")
	bin := filepath.Join(dir, "cli")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	got, err := p.Find(func(string) string { return bin })
	require.NoError(t, err)
	assert.Equal(t, bin, got)
}

// TestHomeAndEnv: the home is a fresh directory beside the job's, and the
// environment points every configuration folder into it, without the
// user's own.
func TestHomeAndEnv(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/users/config")
	t.Setenv("OPENCODE_CONFIG", "/users/opencode.json")
	work := t.TempDir()
	dir := filepath.Join(work, "job")
	require.NoError(t, os.Mkdir(dir, 0o755))
	home, err := NewHome(dir)
	require.NoError(t, err)
	assert.Equal(t, work, filepath.Dir(home))
	assert.True(t, strings.HasPrefix(filepath.Base(home), "job.home-"))
	env := Env(home, []string{"OPENCODE_"}, []string{"A=1", "HOME=/elsewhere"}, "B=2")
	get := func(k string) (string, bool) {
		v, ok := "", false
		for _, kv := range env {
			if name, val, _ := strings.Cut(kv, "="); name == k {
				v, ok = val, true // the last wins, as exec keeps it
			}
		}
		return v, ok
	}
	for k, want := range map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"TMPDIR": filepath.Join(home, "tmp"), "A": "1", "B": "2"} {
		got, _ := get(k)
		assert.Equal(t, want, got, k)
	}
	_, ok := get("OPENCODE_CONFIG")
	assert.False(t, ok, "the user's OPENCODE_ variables are not passed")
	for _, kv := range env {
		assert.NotContains(t, kv, "/users/")
	}
	_, err = NewHome("")
	require.Error(t, err)
}

func TestInstructions(t *testing.T) {
	assert.Equal(t, "", Instructions("", nil))
	c := &scenario.Character{Name: "Ada", System: "Be brief.", Bio: []string{"A helper."}}
	assert.Equal(t, "Use tools.\n\nBe brief.\n\nYou are Ada.\n\nA helper.", Instructions("Use tools.", c))
}

// TestStream: events reach the callback in order, other lines are kept
// for the error, a failed exit says its status and stderr, and ctx's end
// kills the process.
func TestStream(t *testing.T) {
	sh := testtool.Need(t, "bash")
	dir := t.TempDir()
	var lines []string
	collect := func(b []byte) error { lines = append(lines, string(b)); return nil }
	err := Stream(context.Background(), Run{Path: sh, Args: []string{"-c", `read -r m; echo banner; echo "{\"got\":\"$m\",\"pwd\":\"$PWD\"}"; echo '{"n":2}'`}, Dir: dir, Stdin: "hi\n"}, collect)
	require.NoError(t, err)
	assert.Equal(t, []string{`{"got":"hi","pwd":"` + dir + `"}`, `{"n":2}`}, lines)

	err = Stream(context.Background(), Run{Path: sh, Args: []string{"-c", `echo 'not json: bad model'; echo oops >&2; exit 3`}, Dir: dir}, collect)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exited with status 3")
	assert.Contains(t, err.Error(), "not json: bad model")
	assert.Contains(t, err.Error(), "oops")

	err = Stream(context.Background(), Run{Path: sh, Args: []string{"-c", `echo '{}'`}, Dir: dir}, func([]byte) error { return errors.New("bad event") })
	require.ErrorContains(t, err, "bad event")

	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("step timed out"))
	err = Stream(ctx, Run{Path: sh, Args: []string{"-c", `sleep 30`}, Dir: dir, Marker: dir}, collect)
	require.ErrorContains(t, err, "step timed out")
}
