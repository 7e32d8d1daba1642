package evaluate

import (
	"context"

	"github.com/agenteval/agenteval/results"
)

// Needs says what an evaluator needs from the run beyond the trace, so a
// runner makes a directory, or warns about a missing judge, only when a
// scenario asks for it. An evaluator says what it needs with a method
// Needs() Needs; one without needs nothing beyond the trace.
type Needs struct {
	// Dir: the evaluator reads the run's directory.
	Dir bool
	// Commands: the evaluator runs commands (only with Env.AllowCommands).
	Commands bool
	// Judge: the evaluator asks Env.Judge.
	Judge bool
}

// Or returns the needs of both.
func (n Needs) or(o Needs) Needs {
	return Needs{Dir: n.Dir || o.Dir, Commands: n.Commands || o.Commands, Judge: n.Judge || o.Judge}
}

// needer is implemented by evaluators that need more than the trace.
type needer interface {
	Needs() Needs
}

// needsOf returns ev's needs: none unless it has a Needs method.
func needsOf(ev Evaluator) Needs {
	if n, ok := ev.(needer); ok {
		return n.Needs()
	}
	return Needs{}
}

// EvaluatorFunc adapts a function to [Evaluator].
type EvaluatorFunc func(ctx context.Context, in Input) (results.Evaluation, error)

// Evaluate calls f.
func (f EvaluatorFunc) Evaluate(ctx context.Context, in Input) (results.Evaluation, error) {
	return f(ctx, in)
}
