package evaluate

import (
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// Trace is the evidence one run leaves: what was said, what the agent did,
// what code printed, and how long it all took. Evaluators read it; they
// never talk to the agent.
type Trace struct {
	// ScenarioID is the scenario's id.
	ScenarioID string `json:"scenario_id"`
	// Dir is the run's working directory, or "" when the run has none.
	Dir string `json:"dir,omitempty"`
	// Steps are the steps run so far, in order.
	Steps []StepTrace `json:"steps"`
	// Started and Ended bound the run.
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
	// Usage totals the tokens the agent reported.
	Usage llm.Usage `json:"usage"`
}

// StepTrace is the evidence of one step.
type StepTrace struct {
	// Index is the step's position in the scenario's run list.
	Index int `json:"index"`
	// Name is the step's name.
	Name string `json:"name,omitempty"`
	// Kind is "input", "code" or "conversation".
	Kind string `json:"kind"`
	// Input is the message sent to the agent (the first user message of a conversation).
	Input string `json:"input,omitempty"`
	// Reply is the agent's reply (for a conversation, its last reply).
	Reply string `json:"reply,omitempty"`
	// Thought is the reasoning the agent reported with its reply, if any.
	Thought string `json:"thought,omitempty"`
	// EndReason is why the agent said its reply ended, if it said
	// (runner.Reply.EndReason).
	EndReason string `json:"end_reason,omitempty"`
	// Actions are the actions (tool calls) the agent made in this step, in order.
	Actions []results.Action `json:"actions,omitempty"`
	// Stdout, Stderr and ExitCode are a code step's output.
	Stdout   string `json:"stdout,omitempty"`
	Stderr   string `json:"stderr,omitempty"`
	ExitCode int    `json:"exit_code,omitempty"`
	// Turns is a conversation's transcript, user and assistant alternating.
	Turns []results.Turn `json:"turns,omitempty"`
	// TerminationReason says why a conversation ended.
	TerminationReason string `json:"termination_reason,omitempty"`
	// Started is when the step began.
	Started time.Time `json:"started"`
	// Duration is the agent's own time for the step (for code steps, the program's).
	Duration time.Duration `json:"duration"`
	// Usage is the tokens the agent reported for this step.
	Usage llm.Usage `json:"usage"`
	// Error is set when the step could not complete.
	Error string `json:"error,omitempty"`
}

// Transcript renders a conversation's turns as "role: text" lines.
func (s *StepTrace) Transcript() string {
	n := 0
	for _, t := range s.Turns {
		n += len(t.Role) + len(t.Text) + 3
	}
	b := make([]byte, 0, n)
	for _, t := range s.Turns {
		b = append(b, t.Role...)
		b = append(b, ": "...)
		b = append(b, t.Text...)
		b = append(b, '\n')
	}
	return string(b)
}
