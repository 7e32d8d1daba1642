package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// maxEvidencePart bounds each part of a job's evidence in a report: a
// crash's traceback, a code step's stdout or stderr, the agent's log.
const maxEvidencePart = 4 << 10

// evidenceText is what a job that did not pass leaves to look at, as
// plain text: the agent's traceback, each code step's exit code and
// output, each failed tool call with its arguments, why the agent's last
// reply ended (as a coding-agent CLI reports it), and the agent's log.
// Empty when the record keeps none of them.
func evidenceText(j *results.Job) string {
	var b strings.Builder
	if j.Crash != "" {
		fmt.Fprintf(&b, "crash:\n%s\n", redact.Tail(strings.TrimRight(j.Crash, "\n"), maxEvidencePart))
	}
	for _, c := range j.CodeSteps {
		fmt.Fprintf(&b, "code step %d: exit code %d in %s\n", c.Step, c.ExitCode, ms(c.DurationMS))
		for _, o := range []struct{ name, text string }{{"stdout", c.Stdout}, {"stderr", c.Stderr}} {
			if t := strings.TrimRight(o.text, "\n"); t != "" {
				fmt.Fprintf(&b, "%s:\n%s\n", o.name, redact.Tail(t, maxEvidencePart))
			}
		}
	}
	for _, t := range j.Transcript {
		for _, a := range t.Actions {
			if a.Error == "" {
				continue
			}
			args, _ := json.Marshal(a.Args)
			fmt.Fprintf(&b, "failed tool call %s %s: %s\n", a.Name, redact.Head(string(args), 300), redact.Head(a.Error, 500))
		}
	}
	if r := lastEndReason(j); r != "" {
		fmt.Fprintf(&b, "the agent's last reply ended: %s\n", redact.Head(r, 100))
	}
	if j.AgentLog != "" && j.Crash == "" {
		fmt.Fprintf(&b, "agent log (last lines):\n%s\n", redact.Tail(strings.TrimRight(j.AgentLog, "\n"), maxEvidencePart))
	}
	return b.String()
}

// transcriptText is a job's transcript as plain text: one "role: text"
// block a message, the agent's thought, why its reply ended, what it
// spent (tokens, the cost the agent reported) and each tool call on a
// line of its own.
func transcriptText(j *results.Job, maxTurn int) string {
	var b strings.Builder
	for _, t := range j.Transcript {
		fmt.Fprintf(&b, "%s: %s\n", t.Role, clip(t.Text, maxTurn))
		if t.Thought != "" {
			fmt.Fprintf(&b, "  thought: %s\n", redact.Head(t.Thought, 500))
		}
		if t.EndReason != "" {
			fmt.Fprintf(&b, "  ended: %s\n", redact.Head(t.EndReason, 100))
		}
		if u := t.Usage; u.TotalTokens > 0 || u.CostUSD > 0 {
			fmt.Fprintf(&b, "  usage: %d tokens", u.TotalTokens)
			if u.CostUSD > 0 {
				fmt.Fprintf(&b, ", %s reported", usdText(u.CostUSD))
			}
			b.WriteByte('\n')
		}
		for _, a := range t.Actions {
			fmt.Fprintf(&b, "  tool call %s", a.Name)
			if len(a.Args) > 0 {
				args, _ := json.Marshal(a.Args)
				fmt.Fprintf(&b, " %s", redact.Head(string(args), 300))
			}
			if a.Error != "" {
				fmt.Fprintf(&b, " failed: %s", redact.Head(a.Error, 500))
			} else if a.Result != nil {
				res, _ := json.Marshal(a.Result)
				fmt.Fprintf(&b, " -> %s", redact.Head(string(res), 300))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// lastEndReason is why the transcript's last assistant turn ended, as the
// agent reported it ("" when it did not).
func lastEndReason(j *results.Job) string {
	for i := len(j.Transcript) - 1; i >= 0; i-- {
		if t := j.Transcript[i]; t.Role == "assistant" {
			return t.EndReason
		}
	}
	return ""
}
