package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/confine"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// EnvironmentType is a place runs happen, named by environment.type in
// files: a plugin value, registered in Registries.Environments. `local` (a fresh
// directory on this machine) is built in; e2b is registered without a
// provider, as the format documents it: files may name it, and its jobs
// are recorded incomplete unless a host supplies one (Environments.Replace)
// or Config.EnvFallback stands in.
type EnvironmentType struct {
	// Name is the type as written in files.
	Name string
	// Doc says where runs happen.
	Doc string
	// Prepare makes a workspace for one run; nil means the type has no
	// provider here.
	Prepare func(ctx context.Context, req WorkspaceRequest) (Workspace, error)
}

// WorkspaceRequest is what a workspace is prepared for.
type WorkspaceRequest struct {
	// JobID names the run.
	JobID string
	// Scenario is the scenario about to run (read-only).
	Scenario *scenario.Scenario
	// NeedDir says whether the scenario needs a directory at all
	// (virtual_fs, code steps, file or command checks); an environment may
	// make one anyway.
	NeedDir bool
	// BaseDir is where a local run directory goes (Config.WorkDir; "" for
	// the OS temp dir), and Keep leaves it in place afterwards.
	BaseDir string
	Keep    bool
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

// newEnvironments returns a registry holding the environment types of the
// agent scenario format: local, with its provider, and e2b, without one.
func newEnvironments() *registry.Registry[*EnvironmentType] {
	r := registry.New("environment type", func(t *EnvironmentType) string { return t.Name }, nil)
	err := r.Register(
		&EnvironmentType{Name: "local", Doc: "a fresh directory on this machine, made only when the scenario needs one", Prepare: prepareLocal},
		&EnvironmentType{Name: "e2b", Doc: "an E2B cloud sandbox; no provider here unless the host program registers one (or --env-fallback local)"},
	)
	if err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}

// provider returns the environment type that runs name, with a clear error
// when it is unknown or has no provider.
func provider(envs *registry.Registry[*EnvironmentType], name string) (*EnvironmentType, error) {
	t, ok := envs.Lookup(name)
	if ok && t.Prepare != nil {
		return t, nil
	}
	var provided []string
	for _, e := range envs.All() {
		if e.Prepare != nil {
			provided = append(provided, e.Name)
		}
	}
	slices.Sort(provided)
	if ok {
		return nil, fmt.Errorf("environment type %q has no provider registered (registered: %s)", name, strings.Join(provided, ", "))
	}
	return nil, fmt.Errorf("unknown environment type %q (registered: %s)", name, strings.Join(provided, ", "))
}

// prepareLocal makes a directory when needed and writes virtual_fs into it.
func prepareLocal(_ context.Context, req WorkspaceRequest) (Workspace, error) {
	s := req.Scenario
	if !req.NeedDir {
		return noDirWorkspace, nil
	}
	if req.BaseDir != "" {
		if err := os.MkdirAll(req.BaseDir, 0o755); err != nil {
			return nil, err
		}
	}
	dir, err := os.MkdirTemp(req.BaseDir, "agenteval-"+sanitize(req.JobID)+"-")
	if err != nil {
		return nil, fmt.Errorf("making the run directory: %w", err)
	}
	ws := &localWorkspace{dir: dir, keep: req.Keep}
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
	if err := confine.Path(name); err != nil {
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

// noDirWorkspace is every local workspace without a directory: it holds
// nothing, so one value serves all runs.
var noDirWorkspace = &localWorkspace{}

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

// errNoInterpreter is returned when a code step's interpreter is not installed.
var errNoInterpreter = errors.New("interpreter not found")

func (w *localWorkspace) RunCode(ctx context.Context, lang, code string) (CodeResult, error) {
	in, ok := interpreters[lang]
	if !ok {
		return CodeResult{}, fmt.Errorf("code step: unknown lang %q (want sh, bash, python3 or node)", lang)
	}
	if _, err := lookPath(in[0]); err != nil {
		return CodeResult{}, fmt.Errorf("code step: %s is needed for lang %q: %w", in[0], lang, errNoInterpreter)
	}
	return runCommand(ctx, w.Dir(), in[0], in[1], code)
}
