package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// Environment prepares the place a run happens. `local` is built in;
// hosts register others (a remote sandbox) under the name scenarios give in
// environment.type.
type Environment interface {
	// Prepare makes a workspace for one run. needDir says whether the
	// scenario needs a directory at all (virtual_fs, code steps, file or
	// command checks); an environment may make one anyway.
	Prepare(ctx context.Context, s *scenario.Scenario, jobID string, needDir bool) (Workspace, error)
}

// Workspace is one run's place.
type Workspace interface {
	// Dir is the run's directory, or "".
	Dir() string
	// RunCode runs a code step's snippet in the workspace.
	RunCode(ctx context.Context, lang, code string) (CodeResult, error)
	// Close removes what Prepare made (unless kept).
	Close() error
}

// CodeResult is what a code step printed and how it exited.
type CodeResult struct {
	Stdout, Stderr string
	ExitCode       int
	// Notes say what the reader of the result should know: output cut to
	// its bound, processes the step left running and that were killed.
	Notes []string
}

// Environments is a registry of environments by type name.
type Environments struct{ m map[string]Environment }

// NewEnvironments returns a registry holding the local environment (in
// baseDir, "" for the OS temp dir; keep leaves directories in place).
func NewEnvironments(baseDir string, keep bool) *Environments {
	return &Environments{m: map[string]Environment{"local": &LocalEnvironment{BaseDir: baseDir, Keep: keep}}}
}

// Register adds or replaces an environment.
func (e *Environments) Register(name string, env Environment) { e.m[name] = env }

// Lookup returns the environment for a type, with a clear error when none is registered.
func (e *Environments) Lookup(name string) (Environment, error) {
	if env, ok := e.m[name]; ok {
		return env, nil
	}
	names := make([]string, 0, len(e.m))
	for n := range e.m {
		names = append(names, n)
	}
	slices.Sort(names)
	if name == "e2b" {
		return nil, fmt.Errorf("environment type %q has no provider registered (registered: %s)", name, strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("unknown environment type %q (registered: %s)", name, strings.Join(names, ", "))
}

// LocalEnvironment runs in a fresh directory on this machine.
type LocalEnvironment struct {
	// BaseDir holds the run directories; "" means the OS temp dir.
	BaseDir string
	// Keep leaves run directories in place after the run.
	Keep bool
}

// Prepare makes a directory when needed and writes virtual_fs into it.
func (l *LocalEnvironment) Prepare(_ context.Context, s *scenario.Scenario, jobID string, needDir bool) (Workspace, error) {
	if !needDir {
		return &localWorkspace{}, nil
	}
	if l.BaseDir != "" {
		if err := os.MkdirAll(l.BaseDir, 0o755); err != nil {
			return nil, err
		}
	}
	dir, err := os.MkdirTemp(l.BaseDir, "agenteval-"+sanitize(jobID)+"-")
	if err != nil {
		return nil, fmt.Errorf("making the run directory: %w", err)
	}
	ws := &localWorkspace{dir: dir, keep: l.Keep}
	// One base for everything a scenario names: virtual_fs is written in the
	// working directory, where code steps, commands, file checks and the
	// agent start.
	if s.Environment.Setup != nil && s.Environment.Setup.WorkingDirectory != "" {
		wd, err := confined(dir, s.Environment.Setup.WorkingDirectory)
		if err != nil {
			_ = ws.Close()
			return nil, fmt.Errorf("environment.setup.workingDirectory: %w", err)
		}
		if err := os.MkdirAll(wd, 0o755); err != nil {
			_ = ws.Close()
			return nil, err
		}
		ws.work = wd
	}
	if s.Setup != nil {
		for name, content := range s.Setup.VirtualFS {
			p, err := confined(ws.Dir(), name)
			if err != nil {
				_ = ws.Close()
				return nil, fmt.Errorf("setup.virtual_fs: %w", err)
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				_ = ws.Close()
				return nil, fmt.Errorf("setup.virtual_fs[%q]: %w", name, err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				_ = ws.Close()
				return nil, fmt.Errorf("setup.virtual_fs[%q]: %w", name, err)
			}
		}
	}
	return ws, nil
}

// confined joins name under dir, refusing absolute paths and .. escapes.
func confined(dir, name string) (string, error) {
	if err := scenario.ConfinedPath(name); err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q leaves the run's directory", name)
	}
	return p, nil
}

func sanitize(s string) string {
	out := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, s)
	if len(out) > 60 {
		out = out[:60]
	}
	return out
}

type localWorkspace struct {
	dir, work string
	keep      bool
}

func (w *localWorkspace) Dir() string {
	if w.work != "" {
		return w.work
	}
	return w.dir
}

func (w *localWorkspace) Close() error {
	if w.dir == "" || w.keep {
		return nil
	}
	return os.RemoveAll(w.dir)
}

// interpreters maps a step's lang to the program and flag that run a snippet.
var interpreters = map[string][2]string{
	"": {"sh", "-c"}, "sh": {"sh", "-c"}, "shell": {"sh", "-c"}, "bash": {"bash", "-c"},
	"python": {"python3", "-c"}, "python3": {"python3", "-c"},
	"node": {"node", "-e"}, "javascript": {"node", "-e"}, "js": {"node", "-e"},
}

// ErrNoInterpreter is returned when a code step's interpreter is not installed.
var ErrNoInterpreter = errors.New("interpreter not found")

func (w *localWorkspace) RunCode(ctx context.Context, lang, code string) (CodeResult, error) {
	in, ok := interpreters[lang]
	if !ok {
		return CodeResult{}, fmt.Errorf("code step: unknown lang %q (want sh, bash, python3 or node)", lang)
	}
	if _, err := lookPath(in[0]); err != nil {
		return CodeResult{}, fmt.Errorf("code step: %s is needed for lang %q: %w", in[0], lang, ErrNoInterpreter)
	}
	return runCommand(ctx, w.Dir(), in[0], in[1], code)
}
