// Package cliagent holds what the coding-agent CLI agents (agent/opencode,
// and the others as they come) share: finding the program with an install
// hint, a configuration home per session beside the job's directory, the
// isolated environment, the system instructions from the agent and the
// scenario's character, and running the CLI once with its JSON-lines
// event stream read as it comes, the whole process group killed when the
// step's context ends.
package cliagent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agenteval/agenteval/internal/proc"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/scenario"
)

// MaxLineBytes bounds one event line of a CLI's stream (a tool's output
// travels inside one).
const MaxLineBytes = 8 << 20

// exitGrace is how long a CLI has to exit by itself once its event stream
// has ended.
const exitGrace = 5 * time.Second

// Program is a CLI an agent runs.
type Program struct {
	// Name is the program's name on PATH ("opencode").
	Name string
	// PathEnv names the environment variable that gives its path instead
	// ("AGENTEVAL_OPENCODE").
	PathEnv string
	// Install is the command that installs it.
	Install string
}

// Find returns the program's path: PathEnv's value when set (it must be
// an executable file), else the program found on PATH. When it is absent
// the error names the install command.
func (p Program) Find(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if path := getenv(p.PathEnv); path != "" {
		fi, err := os.Stat(path)
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s=%s is not an executable file; install %s with `%s` or fix the variable", p.PathEnv, path, p.Name, p.Install)
		}
		return path, nil
	}
	path, err := exec.LookPath(p.Name)
	if err != nil {
		return "", fmt.Errorf("the %s CLI is not installed (not on PATH): install it with `%s`, or set %s to its path", p.Name, p.Install, p.PathEnv)
	}
	return path, nil
}

// NewHome makes a session's configuration home: a fresh directory beside
// the job's directory dir (so inside the run's work folder, out of the
// agent's sight), which Remove deletes when the session ends.
func NewHome(dir string) (string, error) {
	if dir == "" {
		return "", errors.New("the session has no directory")
	}
	dir, err := filepath.Abs(dir) // the CLI runs elsewhere
	if err != nil {
		return "", fmt.Errorf("configuration home: %w", err)
	}
	home, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".home-")
	if err != nil {
		return "", fmt.Errorf("configuration home: %w", err)
	}
	for _, sub := range []string{".config", ".local/share", ".local/state", ".cache", "tmp"} {
		if err := os.MkdirAll(filepath.Join(home, sub), 0o755); err != nil {
			_ = os.RemoveAll(home)
			return "", fmt.Errorf("configuration home: %w", err)
		}
	}
	return home, nil
}

// Forward returns NAME=VALUE for each of names that getenv gives a value:
// what an agent read through runner.AgentOptions.Getenv (an API key, a
// base URL) reaches the CLI even when it is not the process's own
// environment.
func Forward(getenv func(string) string, names ...string) []string {
	var env []string
	for _, n := range names {
		if v := getenv(n); v != "" {
			env = append(env, n+"="+v)
		}
	}
	return env
}

// Env is the environment of a CLI run: the process's own without what
// locates a user's configuration or directory (HOME, XDG_*, TMPDIR, PWD and the variables
// whose name starts with one of drop), then extra (a suite agent's env),
// then HOME, the XDG directories and TMPDIR inside home, then set.
func Env(home string, drop []string, extra []string, set ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if dropped(name, drop) {
			continue
		}
		env = append(env, kv)
	}
	for _, kv := range extra {
		if name, _, _ := strings.Cut(kv, "="); !dropped(name, drop) {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local/share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local/state"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"TMPDIR="+filepath.Join(home, "tmp"))
	return append(env, set...)
}

func dropped(name string, drop []string) bool {
	if name == "HOME" || name == "TMPDIR" || name == "PWD" || name == "OLDPWD" || strings.HasPrefix(name, "XDG_") {
		return true
	}
	for _, p := range drop {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Instructions are a session's system instructions: the agent's (a suite
// agent's instructions), then the character's system prompts, name and
// bio, as the openai agent sends them.
func Instructions(agent string, c *scenario.Character) string {
	var b strings.Builder
	b.WriteString(strings.TrimSpace(agent))
	if c != nil {
		add := func(s string) {
			if s = strings.TrimSpace(s); s != "" {
				if b.Len() > 0 {
					b.WriteString("\n\n")
				}
				b.WriteString(s)
			}
		}
		add(c.System)
		add(c.SystemPrompt)
		if c.Name != "" {
			add("You are " + c.Name + ".")
		}
		for _, l := range c.Bio {
			add(l)
		}
	}
	return b.String()
}

// Run is one run of a CLI.
type Run struct {
	// Path, Args, Dir and Env are the command.
	Path string
	Args []string
	Dir  string
	Env  []string
	// Stdin is written to its standard input, which is then closed.
	Stdin string
	// Marker, when set, is put in the environment as SessionEnv: every
	// process of the run that is still alive once it ended, those that
	// left its process group included, is killed.
	Marker string
}

// SessionEnv is the environment variable that marks the processes of one
// CLI session (its value is the session's configuration home), so that
// what escaped the CLI's process group (a detached shell) ends with it.
const SessionEnv = "AGENTEVAL_CLI_SESSION"

// Stream runs r and hands each line of its standard output to event as it
// arrives, until the output ends or ctx does: then the whole process group
// is killed. The error says why the run failed: ctx's cause (with what was
// killed), event's error, an over-long line, or a non-zero exit with the
// tail of standard error; a run whose events were all read and which
// exited 0 returns nil.
func Stream(ctx context.Context, r Run, event func(line []byte) error) error {
	stderr := &tailBuffer{}
	env := r.Env
	if r.Dir != "" {
		// Programs that read PWD (Bun's) must find the directory they run
		// in, not ours: exec sets PWD only for a nil environment.
		dir, err := filepath.Abs(r.Dir)
		if err != nil {
			return err
		}
		env = append(slices.Clip(env), "PWD="+dir)
	}
	if r.Marker != "" {
		env = append(slices.Clip(env), SessionEnv+"="+r.Marker)
	}
	p, err := proc.Start(proc.Spec{Path: r.Path, Args: r.Args, Dir: r.Dir, Env: env, Stdin: true,
		StdoutPipe: true, Stderr: stderr, RunWork: proc.RunWork(ctx)})
	if err != nil {
		return fmt.Errorf("starting %s: %w", filepath.Base(r.Path), err)
	}
	go func() {
		_, _ = io.WriteString(p.Stdin(), r.Stdin)
		_ = p.Stdin().Close()
	}()
	done := make(chan error, 1)
	// gate keeps event from being called once Stream has returned (a
	// process that escaped every kill may still hold the output open).
	var gate sync.Mutex
	closed := false
	defer func() {
		gate.Lock()
		closed = true
		gate.Unlock()
	}()
	go func() {
		sc := bufio.NewScanner(p.Stdout())
		sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
		for sc.Scan() {
			line := sc.Bytes()
			if len(strings.TrimSpace(string(line))) == 0 || line[0] != '{' {
				// A banner or a log line, not an event: kept with stderr,
				// where a failure's reason is looked for.
				_, _ = stderr.Write(append(line, '\n'))
				continue
			}
			gate.Lock()
			var err error
			if !closed {
				err = event(line)
			}
			gate.Unlock()
			if err != nil {
				done <- err
				return
			}
		}
		done <- sc.Err()
	}()
	name := filepath.Base(r.Path)
	var rep proc.Report
	var why error
	var escaped []proc.Killed
	cancelled := false
	select {
	case err := <-done:
		if err != nil {
			rep = p.End(0, "its event stream broke: "+err.Error())
			why = err
			break
		}
		rep = p.End(exitGrace, name+" ended its event stream and did not exit")
		if code := rep.ExitCode; code != 0 {
			why = fmt.Errorf("exited with status %d; stderr: %s", code, stderr.tail())
		}
	case <-ctx.Done():
		rep = p.End(0, context.Cause(ctx).Error())
		if r.Marker != "" {
			escaped = proc.EndMarked(context.Background(), SessionEnv, r.Marker)
		}
		// Whatever still holds the output open is not waited for long:
		// the step is over (runner.Cooperative).
		t := time.NewTimer(exitGrace)
		select {
		case <-done:
		case <-t.C:
		}
		t.Stop()
		why = context.Cause(ctx)
		cancelled = true
	}
	if r.Marker != "" && !cancelled {
		escaped = proc.EndMarked(context.Background(), SessionEnv, r.Marker)
	}
	if why == nil {
		return nil
	}
	return fmt.Errorf("%s: %w%s", name, why, killed(rep, escaped))
}

// killed says what was killed: the process group, and what had left it.
func killed(rep proc.Report, escaped []proc.Killed) string {
	var parts []string
	if m := rep.Message(); m != "" {
		parts = append(parts, m)
	}
	if len(escaped) > 0 {
		names := make([]string, len(escaped))
		for i, k := range escaped {
			names[i] = fmt.Sprintf("%s (pid %d)", k.Name, k.PID)
		}
		parts = append(parts, "killed what had left its process group: "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > 8<<10 {
		b.buf = b.buf[len(b.buf)-8<<10:]
	}
	return len(p), nil
}

// tail is the last 500 bytes kept, trimmed; redact.Tail marks the cut so
// a secret it cuts is masked whole.
func (b *tailBuffer) tail() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return redact.Tail(strings.TrimSpace(string(b.buf)), 500)
}
