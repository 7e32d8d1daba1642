package runner

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/agenteval/agenteval/internal/proc"
)

var lookPath = exec.LookPath

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
