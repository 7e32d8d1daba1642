package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"

	"github.com/agenteval/agenteval/results"
)

// panicError is returned when an evaluator panics. The run that triggered it
// fails that evaluation (its results.Evaluation's details hold the stack as
// panic_stack); the process goes on.
type panicError struct {
	// Type is the evaluation type whose evaluator panicked.
	Type string
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// Error names the type and the panic value.
func (e *panicError) Error() string {
	return fmt.Sprintf("evaluator %s panicked: %v", e.Type, e.Value)
}

// errBadInput is wrapped by errors about an Input that names no step or
// turn of its trace; it is a bug in the caller, not in the agent.
var errBadInput = errors.New("evaluate: bad input")

// described wraps an evaluator with what the file says about it, so every
// results.Evaluation carries it, and makes the evaluator safe to call: the Input is
// checked first and a panic is recovered.
type described struct {
	ev          Evaluator
	typ         string
	description string
	weight      float64
	critical    bool
}

// Needs reports the wrapped evaluator's needs.
func (d *described) Needs() Needs { return needsOf(d.ev) }

// Evaluate runs the wrapped evaluator. On error the results.Evaluation is still
// complete: Passed false, Score 0, Error and Message set.
func (d *described) Evaluate(ctx context.Context, in Input) (r results.Evaluation, err error) {
	in = in.normalized()
	defer func() {
		if v := recover(); v != nil {
			pe := &panicError{Type: d.typ, Value: v, Stack: debug.Stack()}
			err = pe
			// The stack goes with the results.Evaluation, which is all a runner
			// records, so the bug can be found from the results file.
			r = results.Evaluation{Details: map[string]any{"panic_stack": string(pe.Stack)}}
		}
		d.finish(&r, in, err)
	}()
	if err := in.check(); err != nil {
		return results.Evaluation{}, err
	}
	return d.ev.Evaluate(ctx, in)
}

// normalized reads the zero Scope as results.ScopeStep, whose Turn is -1.
func (in Input) normalized() Input {
	if in.Scope == "" {
		in.Scope, in.Turn = results.ScopeStep, -1
	}
	return in
}

// finish fills the results.Evaluation's identity and keeps Score in [0,1]; in is
// normalized. It works in place: a results.Evaluation is a large value.
func (d *described) finish(r *results.Evaluation, in Input, err error) {
	r.Type, r.Description = d.typ, d.description
	r.Scope, r.Step, r.Turn = in.Scope, in.Step, in.Turn
	r.Weight, r.Critical = d.weight, d.critical
	if err != nil {
		r.Passed, r.Score = false, 0
		r.Error = err.Error()
		if r.Message == "" {
			r.Message = fmt.Sprintf("%s reached no verdict: %v", d.typ, err)
		}
		return
	}
	switch {
	case math.IsNaN(r.Score) || r.Score < 0:
		r.Score = 0
	case r.Score > 1:
		r.Score = 1
	}
}

// check reports an Input that does not point at a step (and, for
// results.ScopeTurn, an assistant turn) of its trace, so evaluators need not.
func (in Input) check() error {
	switch {
	case in.Trace == nil:
		return fmt.Errorf("%w: no trace", errBadInput)
	case in.Step < 0 || in.Step >= len(in.Trace.Steps):
		return fmt.Errorf("%w: step %d is not in a trace of %d steps", errBadInput, in.Step, len(in.Trace.Steps))
	}
	switch in.Scope {
	case results.ScopeStep, results.ScopeFinal:
	case results.ScopeTurn:
		turns := in.Trace.Steps[in.Step].Turns
		if in.Turn < 0 || in.Turn >= len(turns) {
			return fmt.Errorf("%w: turn %d is not in a conversation of %d turns", errBadInput, in.Turn, len(turns))
		}
		if turns[in.Turn].Role != roleAssistant {
			return fmt.Errorf("%w: turn %d is a %s turn; turn evaluations judge assistant turns", errBadInput, in.Turn, turns[in.Turn].Role)
		}
	default:
		return fmt.Errorf("%w: unknown scope %q", errBadInput, in.Scope)
	}
	return nil
}
