package evaluate

import (
	"context"

	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/results"
)

// Input is what an evaluator sees: the trace so far and which step (and
// turn) it is judging, plus what the runner allows.
type Input struct {
	// Trace is the evidence; Trace.Steps[Step] is the step under evaluation.
	Trace *Trace
	// Step indexes Trace.Steps.
	Step int
	// Turn is the index in Steps[Step].Turns of the assistant turn under
	// evaluation for results.ScopeTurn, and -1 otherwise.
	Turn int
	// Scope is when the evaluation runs; empty means results.ScopeStep (and Turn
	// -1), so Input{Trace: t} judges the first step of t.
	Scope results.Scope
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
// start); a check that judged and found a failure returns a results.Evaluation with
// Passed false and a message a person can act on. The results.Evaluation's Details
// must be its own (built per call, sharing no map or slice with the
// evaluator or another result): the host that receives it may change it.
type Evaluator interface {
	Evaluate(ctx context.Context, in Input) (results.Evaluation, error)
}
