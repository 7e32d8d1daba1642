package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// The bounds of a job's evidence in its record: each transcript message,
// each tool call's result (encoded), each code step's stdout and stderr,
// the agent's log and a crash's traceback; and how many messages a
// transcript keeps (the first and last halves, the middle counted).
const (
	maxTurnText     = 16 << 10
	maxActionResult = 8 << 10
	maxStepOutput   = 16 << 10
	maxAgentLog     = 8 << 10
	maxCrash        = 16 << 10
	maxTurns        = 400
)

// The values of Config.Transcripts.
const (
	transcriptsAll     = "all"
	transcriptsFailing = "failing"
	transcriptsNone    = "none"
)

// checkTranscripts refuses a Config.Transcripts the runner does not know.
func checkTranscripts(v string) error {
	switch v {
	case "", transcriptsAll, transcriptsFailing, transcriptsNone:
		return nil
	}
	return fmt.Errorf("runner: Transcripts %q: want all, failing or none", v)
}

// keepEvidence puts what the attempt leaves to look at into its record, as
// Config.Transcripts says: the transcript with its tool calls, each code
// step's output and the agent's log, each cut to its bound.
func (r *run) keepEvidence(res *results.Job, trace *evaluate.Trace, sess Session) {
	switch r.cfg.Transcripts {
	case transcriptsNone:
		return
	case transcriptsFailing:
		if res.Passed {
			return
		}
	}
	var cut bool
	res.Transcript, cut = boundTranscript(transcriptOf(trace))
	if cut {
		res.Notes = append(res.Notes, fmt.Sprintf("transcript: messages over %d bytes, tool results over %d bytes or messages past %d were cut", maxTurnText, maxActionResult, maxTurns))
	}
	for _, st := range trace.Steps {
		if st.Kind != "code" {
			continue
		}
		cs := results.CodeStep{Step: st.Index, ExitCode: st.ExitCode, DurationMS: float64(st.Duration) / float64(time.Millisecond),
			Stdout: redact.Head(st.Stdout, maxStepOutput), Stderr: redact.Head(st.Stderr, maxStepOutput)}
		if len(cs.Stdout) < len(st.Stdout) || len(cs.Stderr) < len(st.Stderr) {
			res.Notes = append(res.Notes, fmt.Sprintf("step %d: the record keeps the first %d bytes of its stdout and stderr", st.Index, maxStepOutput))
		}
		res.CodeSteps = append(res.CodeSteps, cs)
	}
	if l, ok := sess.(interface{ AgentLog() string }); ok {
		res.AgentLog = redact.Tail(l.AgentLog(), maxAgentLog)
	}
}

// boundTranscript cuts each message and tool result to its bound and keeps
// at most maxTurns messages (the first and the last, the middle replaced by
// one message saying how many were left out). It copies what it changes:
// the turns' actions belong to the trace.
func boundTranscript(ts []results.Turn) ([]results.Turn, bool) {
	cut := false
	if len(ts) > maxTurns {
		half := maxTurns / 2
		left := len(ts) - 2*half
		out := make([]results.Turn, 0, maxTurns+1)
		out = append(out, ts[:half]...)
		out = append(out, results.Turn{Role: "note", Text: fmt.Sprintf("%d messages left out", left), At: ts[half].At})
		ts = append(out, ts[len(ts)-half:]...)
		cut = true
	}
	for i := range ts {
		t := &ts[i]
		if len(t.Text) > maxTurnText {
			t.Text = redact.Head(t.Text, maxTurnText)
			cut = true
		}
		copied := false
		for k := range t.Actions {
			if t.Actions[k].Result == nil {
				continue
			}
			b, err := json.Marshal(t.Actions[k].Result)
			if err == nil && len(b) <= maxActionResult {
				continue
			}
			if !copied {
				t.Actions = append([]results.Action(nil), t.Actions...)
				copied = true
			}
			t.Actions[k].Result = redact.Head(string(b), maxActionResult)
			cut = true
		}
	}
	return ts, cut
}

// crashError is an agent's panic, with the stack of the goroutine that
// panicked.
type crashError struct {
	msg   string
	stack string
}

func (e *crashError) Error() string     { return e.msg }
func (e *crashError) Traceback() string { return e.stack }

// panicError makes a recovered panic an error that keeps its stack.
func panicError(p any) error {
	return &crashError{msg: fmt.Sprintf("agent panicked: %v", p), stack: fmt.Sprintf("panic: %v\n\n%s", p, debug.Stack())}
}

// crashOf returns the traceback an agent's error carries (a Go agent's
// panic, a kit agent's exception), cut to its bound, or "".
func crashOf(err error) string {
	var tb interface{ Traceback() string }
	if errors.As(err, &tb) {
		return redact.Tail(tb.Traceback(), maxCrash)
	}
	return ""
}
