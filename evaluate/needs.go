package evaluate

import "context"

// Needs says what an evaluator needs from the run beyond the trace, so a
// runner makes a directory, or warns about a missing judge, only when a
// scenario asks for it.
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

// Needer is implemented by evaluators that need more than the trace.
type Needer interface {
	Needs() Needs
}

// NeedsOf returns ev's needs: none unless it implements [Needer].
func NeedsOf(ev Evaluator) Needs {
	if n, ok := ev.(Needer); ok {
		return n.Needs()
	}
	return Needs{}
}

// EvaluatorFunc adapts a function to [Evaluator].
type EvaluatorFunc func(ctx context.Context, in Input) (Result, error)

// Evaluate calls f.
func (f EvaluatorFunc) Evaluate(ctx context.Context, in Input) (Result, error) { return f(ctx, in) }
