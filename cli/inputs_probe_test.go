//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInputsThatAreNotFilesAreRefused: /dev/zero as a matrix's
// base_scenario took 24 GB; a suite path, --manifest, --seed-file,
// --prices or a results file at /dev/zero ran out of memory; plan
// --history on a FIFO never ended and a FIFO in a validated folder
// blocked. Each is refused at once, naming the path and what it is.
func TestInputsThatAreNotFilesAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, syscall.Mkfifo(p, 0o644))
		return p
	}
	zero := func(name string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink("/dev/zero", p))
		return p
	}
	scen := write("ok.scenario.yaml", `name: ok
description: fine
environment: {type: local}
run:
  - input: hello
    evaluations: [{type: string_contains, value: hello}]
judgment: {strategy: all_pass}
`)
	zero("zero.scenario.yaml")
	matrix := write("m.matrix.yaml", `name: m
description: base at /dev/zero
base_scenario: zero.scenario.yaml
matrix:
  - parameter: run[0].input
    values: [a, b]
`)
	fifo("folder/pipe.scenario.yaml")
	write("folder/ok.scenario.yaml", "name: ok2\ndescription: fine\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations: [{type: string_contains, value: hi}]\njudgment: {strategy: all_pass}\n")
	suite := write("s.suite.yaml", `name: s
agents: [{name: echo, agent: echo}]
scenarios: {paths: [pipe2.scenario.yaml]}
`)
	fifo("pipe2.scenario.yaml")
	for _, tc := range []struct {
		name string
		args []string
		path string
	}{
		{"matrix base_scenario /dev/zero", []string{"validate", matrix}, "zero.scenario.yaml"},
		{"matrix expand", []string{"matrix", matrix}, "zero.scenario.yaml"},
		{"FIFO in a validated folder", []string{"validate", filepath.Join(dir, "folder")}, "pipe.scenario.yaml"},
		{"scenario argument /dev/zero", []string{"validate", filepath.Join(dir, "zero.scenario.yaml")}, "zero.scenario.yaml"},
		{"suite path FIFO", []string{"run", "--suite", suite, "--out", filepath.Join(dir, "o1")}, "pipe2.scenario.yaml"},
		{"--manifest /dev/zero", []string{"checkpoint", "--manifest", zero("manifest.json"), scen}, "manifest.json"},
		{"--seed-file FIFO", []string{"fixture", "seed", "--dry-run", "--seed-file", fifo("seed.yaml")}, "seed.yaml"},
		{"--prices /dev/zero", []string{"plan", "--agent", "echo", "--prices", zero("prices.yaml"), scen}, "prices.yaml"},
		{"plan --history FIFO", []string{"plan", "--agent", "echo", "--history", fifo("history.jsonl"), scen}, "history.jsonl"},
		{"report of a FIFO", []string{"report", fifo("results.jsonl")}, "results.jsonl"},
		{"report of /dev/zero", []string{"report", zero("zero-results.jsonl")}, "zero-results.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string {
				if k == "GITHUB_TOKEN" {
					return "token-for-the-dry-run"
				}
				return ""
			}}
			start := time.Now()
			code := mainWith(ctx, env, tc.args)
			assert.Less(t, time.Since(start), 5*time.Second, "refused at once")
			assert.NotEqual(t, exitOK, code)
			out := stdout.String() + stderr.String()
			assert.Contains(t, out, tc.path, out)
			assert.Contains(t, out, "not a regular file", out)
		})
	}
}
