package environment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/internal/confine"
	"github.com/agenteval/agenteval/internal/proc"
)

// prepareLocal makes a directory when needed and writes virtual_fs into it.
func prepareLocal(_ context.Context, req Request) (Workspace, error) {
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
	if _, err := exec.LookPath(in[0]); err != nil {
		return CodeResult{}, fmt.Errorf("code step: %s is needed for lang %q: %w", in[0], lang, errNoInterpreter)
	}
	return runCommand(ctx, w.Dir(), in[0], in[1], code)
}

// maxCodeOutput is how much of each of a code step's stdout and stderr is
// kept; the rest is read and dropped, and the step's result says so.
const maxCodeOutput = 1 << 20

// runCommand runs name flag arg in dir, in its own process group: when ctx
// ends the whole group is killed, and when the command exits whatever it
// left running is killed too, so that nothing outlives the step.
func runCommand(ctx context.Context, dir, name, flag, arg string) (CodeResult, error) {
	stdout, stderr := newHeadBuffer(maxCodeOutput), newHeadBuffer(maxCodeOutput)
	rep, err := proc.Run(ctx, proc.Spec{Path: name, Args: []string{flag, arg}, Dir: dir, Stdout: stdout, Stderr: stderr})
	res := CodeResult{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: rep.ExitCode}
	if err != nil {
		return res, fmt.Errorf("code step: starting %s: %w", name, err)
	}
	for _, b := range []struct {
		name string
		buf  *headBuffer
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if b.buf.dropped > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("code step %s: kept the first %d bytes of %d", b.name, maxCodeOutput, maxCodeOutput+b.buf.dropped))
		}
	}
	if ctx.Err() != nil && !rep.Exited {
		return res, fmt.Errorf("%w; %s", context.Cause(ctx), rep.Message())
	}
	if m := rep.Message(); m != "" {
		res.Notes = append(res.Notes, "code step: "+m)
	}
	return res, nil
}

// headBuffer keeps the first max bytes written and counts the rest; it
// never fails, so the writer is never blocked on its output.
type headBuffer struct {
	buf     []byte
	max     int
	dropped int64
}

func newHeadBuffer(max int) *headBuffer { return &headBuffer{max: max} }

func (h *headBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if room := h.max - len(h.buf); room > 0 {
		k := min(room, len(p))
		h.buf = append(h.buf, p[:k]...)
		p = p[k:]
	}
	h.dropped += int64(len(p))
	return n, nil
}

func (h *headBuffer) String() string { return string(h.buf) }
