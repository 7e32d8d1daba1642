package evaluate

import (
	"context"

	"github.com/agenteval/agenteval/judge"
)

// Scope says when an evaluation runs.
type Scope string

const (
	// ScopeStep evaluations run once after their step.
	ScopeStep Scope = "step"
	// ScopeTurn evaluations run after every agent turn of a conversation.
	ScopeTurn Scope = "turn"
	// ScopeFinal evaluations run once when a conversation ends.
	ScopeFinal Scope = "final"
)

// Input is what an evaluator sees: the trace so far and which step (and
// turn) it is judging, plus what the runner allows.
type Input struct {
	// Trace is the evidence; Trace.Steps[Step] is the step under evaluation.
	Trace *Trace
	// Step indexes Trace.Steps.
	Step int
	// Turn is the index in Steps[Step].Turns of the assistant turn under
	// evaluation for ScopeTurn, and -1 otherwise.
	Turn int
	// Scope is when the evaluation runs; empty means ScopeStep (and Turn
	// -1), so Input{Trace: t} judges the first step of t.
	Scope Scope
	// Env carries what the runner provides and allows.
	Env *Env
}

// StepTrace returns the step under evaluation.
func (in Input) StepTrace() *StepTrace { return &in.Trace.Steps[in.Step] }

// Env is what the runner provides to evaluators.
type Env struct {
	// AllowCommands lets command_exit_code_is run commands.
	AllowCommands bool
	// Judge answers llm_judge and model-based checks; nil when no model is configured.
	Judge *judge.Judge
}

// Evaluator checks one thing about a trace. Evaluate returns an error only
// when it could not judge at all (a model call failed, a command could not
// start); a check that judged and found a failure returns a Result with
// Passed false and a message a person can act on.
type Evaluator interface {
	Evaluate(ctx context.Context, in Input) (Result, error)
}

// Result is one evaluation's outcome.
type Result struct {
	// Type is the evaluation type.
	Type string `json:"type"`
	// Description is the evaluation's description from the file.
	Description string `json:"description,omitempty"`
	// Scope, Step and Turn say which evaluation of the scenario this is.
	Scope Scope `json:"scope"`
	Step  int   `json:"step"`
	Turn  int   `json:"turn"`
	// Passed is the verdict of this evaluation.
	Passed bool `json:"passed"`
	// Score is in [0,1]; 1 for a pass of a pass/fail check.
	Score float64 `json:"score"`
	// Message explains the outcome.
	Message string `json:"message"`
	// Details holds machine-readable evidence.
	Details map[string]any `json:"details,omitempty"`
	// Weight and Critical come from the file and feed the judgment.
	Weight   float64 `json:"weight"`
	Critical bool    `json:"critical,omitempty"`
	// Error is set when the evaluation could not judge.
	Error string `json:"error,omitempty"`
}
