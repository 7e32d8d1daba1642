package runout

import (
	"fmt"
	"io"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// Steps prints finished jobs as `elizaos scenario run` prints a scenario:
// "▶️ RUNNING SCENARIO: NAME", each exchange with the agent and each code
// step as an "--- Execution Output ---" block (STDOUT, STDERR, lines
// prefixed "  | "), the "--- Evaluation Results ---" with one ✅ PASS or
// ❌ FAIL line each, and "SCENARIO STATUS: ✅ PASS" (or ❌ FAIL). The
// CLI's run prints it on stdout for a run of one job when stdout is a
// terminal (--steps auto), or for every job (--steps always).
type Steps struct {
	W io.Writer
	// Always prints every job; otherwise only a run's one job.
	Always bool
	// Color adds the colours the ElizaOS CLI prints in (a terminal).
	Color bool
}

// Job prints j when s says so; total is the number of jobs in the run
// (-1 when unknown).
func (s *Steps) Job(j *results.Job, total int64) {
	if s == nil || j == nil || (!s.Always && total != 1) {
		return
	}
	paint := func(code, text string) string {
		if !s.Color {
			return text
		}
		return "\033[" + code + "m" + text + "\033[0m"
	}
	var b strings.Builder
	name := j.ScenarioName
	if name == "" {
		name = j.Scenario
	}
	fmt.Fprintf(&b, "\n%s\n", paint("1;36", "▶️ RUNNING SCENARIO: "+name))
	if len(j.Params) > 0 || j.Run > 1 {
		fmt.Fprintf(&b, "%s\n", paint("90", "  "+j.ID))
	}
	b.WriteString("\n")
	block := func(stdout, stderr string) {
		b.WriteString(paint("1", "--- Execution Output ---") + "\n")
		for _, part := range []struct{ label, code, text string }{{"STDOUT:", "32", stdout}, {"STDERR:", "33", stderr}} {
			if strings.TrimSpace(part.text) == "" {
				continue
			}
			b.WriteString(paint(part.code, part.label) + "\n")
			for _, l := range strings.Split(strings.TrimSpace(part.text), "\n") {
				b.WriteString("  | " + l + "\n")
			}
		}
		b.WriteString(paint("1", "------------------------") + "\n\n")
	}
	// One block an exchange: what the user said, then the agent's replies
	// (and the actions it took) until the user speaks again.
	var reply []string
	flush := func() {
		if reply != nil {
			block(strings.Join(reply, "\n"), "")
			reply = nil
		}
	}
	for _, t := range j.Transcript {
		if t.Role != "assistant" {
			flush()
			continue
		}
		if t.Thought != "" {
			reply = append(reply, "[thought] "+t.Thought)
		}
		for _, a := range t.Actions {
			line := "[action " + a.Name + "]"
			if a.Error != "" {
				line += " failed: " + a.Error
			}
			reply = append(reply, line)
		}
		reply = append(reply, t.Text)
	}
	flush()
	for _, c := range j.CodeSteps {
		stderr := c.Stderr
		if c.ExitCode != 0 {
			stderr = strings.TrimSpace(stderr + fmt.Sprintf("\n(exit code %d)", c.ExitCode))
		}
		block(c.Stdout, stderr)
	}
	b.WriteString(paint("1", "--- Evaluation Results ---") + "\n")
	if len(j.Evaluations) == 0 && len(j.Checkpoints) == 0 {
		b.WriteString(paint("90", "  No evaluations were run.") + "\n")
	}
	steps := map[int]bool{}
	for _, e := range j.Evaluations {
		steps[e.Step] = true
	}
	for _, e := range j.Evaluations {
		msg := e.Message
		if len(steps) > 1 || e.Scope != results.ScopeStep {
			msg = e.Where() + ": " + msg
		}
		b.WriteString(status(e.Passed, paint) + ": " + msg + "\n")
	}
	for _, c := range j.Checkpoints {
		b.WriteString(status(c.Passed, paint) + ": checkpoint " + c.ID + " " + c.Description + "\n")
	}
	b.WriteString(paint("1", "------------------------") + "\n\n")
	if !j.Completed {
		b.WriteString(paint("31", "incomplete: "+j.Reason) + "\n")
	}
	b.WriteString(paint("1;36", "SCENARIO STATUS: ") + status(j.Passed, paint) + "\n")
	_, _ = io.WriteString(s.W, b.String())
}

func status(ok bool, paint func(code, text string) string) string {
	if ok {
		return paint("32", "✅ PASS")
	}
	return paint("31", "❌ FAIL")
}
