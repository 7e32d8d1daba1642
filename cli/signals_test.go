//go:build unix

package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUntilSignalStopsABusyCommand: a command that ignores its cancelled
// context (validate, plan and report once did, busy or blocked) is ended
// within the grace after the signal.
func TestUntilSignalStopsABusyCommand(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int) // never sends: the command is stuck
	var stderr bytes.Buffer
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	code := untilSignal(ctx, func() {}, done, 200*time.Millisecond, &stderr)
	assert.Equal(t, exitFail, code)
	assert.Less(t, time.Since(start), time.Second)
	assert.Contains(t, stderr.String(), "interrupted")

	// A command that returns within the grace keeps its own code.
	ctx, cancel = context.WithCancel(context.Background())
	quick := make(chan int, 1)
	go func() { cancel(); time.Sleep(20 * time.Millisecond); quick <- exitUsage }()
	assert.Equal(t, exitUsage, untilSignal(ctx, func() {}, quick, time.Second, &stderr))
}

// TestEveryVerbStopsOnASignal: SIGINT and SIGTERM end each verb within a
// second while it is busy: blocked writing to a full stdout, waiting on
// a GitHub that never answers, or on an agent that never replies.
func TestEveryVerbStopsOnASignal(t *testing.T) {
	t.Parallel()
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(stop) }) // runs first: the handlers return, so Close need not wait
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	scen := write("s.scenario.yaml", "name: s\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hello\n    timeout: 60s\n    evaluations: [{type: string_contains, value: hello}]\njudgment: {strategy: all_pass}\n")
	values := strings.Repeat("a,", 2999) + "a"
	big := write("big.matrix.yaml", "name: big\ndescription: many jobs\nbase_scenario: s.scenario.yaml\nruns_per_combination: 1000\nmatrix:\n  - parameter: run[0].input\n    values: ["+values+"]\n")
	ghScen := write("leak-001.json", leakGitHubScenario)
	manifest := write("manifest.json", leakManifest)
	code, _, stderr := runCLI(t, "run", "--agent", "echo", "--runs", "3000", "--out", filepath.Join(dir, "r"), scen)
	require.Equal(t, exitOK, code, stderr)
	results := filepath.Join(dir, "r", "results.jsonl")
	// At scale: a folder of eight shards of the run, 24,000 records, for
	// the readers (report and compare read them all before writing).
	shards := filepath.Join(dir, "shards")
	b, err := os.ReadFile(results)
	require.NoError(t, err)
	for i := range 8 {
		d := filepath.Join(shards, fmt.Sprintf("s%d", i))
		require.NoError(t, os.MkdirAll(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, "results.jsonl"), b, 0o644))
	}
	// schema and types are left out: they print a page and end at once.
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"matrix", []string{"matrix", big}},
		{"validate", []string{"validate", "--format", "json", big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big}},
		{"plan", []string{"plan", "--agent", "echo", "--history", results, big}},
		{"report", []string{"report", "--format", "json", results, results, results, results, results, results, results, results}},
		{"report md", []string{"report", "--format", "md", shards}},
		{"report html", []string{"report", "--format", "html", shards}},
		{"report junit", []string{"report", "--format", "junit", shards}},
		{"report compare", []string{"report", "compare", "--format", "json", results, results}},
		{"report compare at scale", []string{"report", "compare", "--format", "md", shards, shards}},
		{"view", []string{"view", shards}},
		{"checkpoint", []string{"checkpoint", "--manifest", manifest, "--graphql-url", hang.URL + "/graphql", ghScen}},
		{"fixture status", []string{"fixture", "status", "--manifest", manifest, "--graphql-url", hang.URL + "/graphql"}},
		{"run", []string{"run", "--agent", "exec:sleep 60", "--out", filepath.Join(dir, "r2"), scen}},
	} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(tc.name+" "+sig.String(), func(t *testing.T) {
				t.Parallel()
				cmd := exec.Command(os.Args[0], tc.args...)
				cmd.Env = append(os.Environ(), "AGENTEVAL_TEST_MAIN=1", "GITHUB_TOKEN=token-for-the-fake")
				cmd.Dir = dir
				stdout, err := cmd.StdoutPipe() // never read: a command with much to say blocks on it
				require.NoError(t, err)
				defer stdout.Close()
				require.NoError(t, cmd.Start())
				time.Sleep(400 * time.Millisecond)
				sent := time.Now()
				require.NoError(t, cmd.Process.Signal(sig))
				exited := make(chan struct{})
				go func() { _ = cmd.Wait(); close(exited) }()
				select {
				case <-exited:
					assert.Less(t, time.Since(sent), loadScaled(1500*time.Millisecond), "load average %.1f", loadAverage())
				case <-time.After(loadScaled(10 * time.Second)):
					_ = cmd.Process.Kill()
					t.Fatalf("%v ignored %v", tc.args, sig)
				}
			})
		}
	}
}

// loadAverage is the machine's one-minute load average (0 when unknown).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var load float64
	if _, err := fmt.Sscan(string(b), &load); err != nil {
		return 0
	}
	return load
}

// loadScaled is d on a machine with a core for every runnable process,
// and proportionally more when more processes than cores wait to run: a
// signalled command exits within its grace of CPU time, but on a machine
// at load 12 on 2 cores it waits for a core six times as long (seen: 4.2 s
// for report --format md). Hangs are caught by the test's own bound, 10 s scaled alike.
func loadScaled(d time.Duration) time.Duration {
	if f := loadAverage() / float64(runtime.NumCPU()); f > 1 {
		return time.Duration(float64(d) * f)
	}
	return d
}
