package evaluate

import (
	"context"
	"errors"
	"fmt"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Check is one compiled evaluation of a scenario.
type Check struct {
	// Scope is when it runs: after its step, after each turn of its
	// conversation step, or when that conversation ends.
	Scope results.Scope
	// Step is the index of its step in the scenario's run list.
	Step int
	// Index is its position in that step's evaluations, turn_evaluations or
	// final_evaluations, by Scope.
	Index int
	// Evaluation is the evaluation as the file gave it.
	Evaluation scenario.Evaluation
	// Path is where the evaluation is written, as in diagnostics:
	// run[0].evaluations[1].
	Path scenario.Path
	// Evaluator is built from it by [Build]: its Results carry the
	// evaluation's identity and it recovers panics.
	Evaluator Evaluator
	// Needs is what Evaluator needs from a run beyond the trace.
	Needs Needs
}

func checkPath(s results.Scope, step, index int) scenario.Path {
	p := scenario.Path{}.Key("run").Index(step)
	switch s {
	case results.ScopeTurn:
		p = p.Key("conversation").Key("turn_evaluations")
	case results.ScopeFinal:
		p = p.Key("conversation").Key("final_evaluations")
	default:
		p = p.Key("evaluations")
	}
	return p.Index(index)
}

// Compiled is a scenario's evaluations, each built once. It is immutable and
// safe for concurrent use by many runs of the scenario.
type Compiled struct {
	steps []compiledStep
	needs Needs
}

type compiledStep struct {
	step, turn, final []*Check
}

// compileError reports an evaluation that could not be built.
type compileError struct {
	// Scope, Step and Index locate the evaluation (see [Check]).
	Scope results.Scope
	Step  int
	Index int
	// Type is its evaluation type.
	Type string
	// Err is the cause, a *registry.Error or the kind's validation error.
	Err error
}

// Error names the evaluation and the cause.
func (e *compileError) Error() string {
	return fmt.Sprintf("%s: %v", checkPath(e.Scope, e.Step, e.Index), e.Err)
}

// Unwrap returns the cause.
func (e *compileError) Unwrap() error { return e.Err }

// Compile builds every evaluation of s with the kinds reg holds. It reports
// every evaluation that cannot be built, joined, each with its path
// (run[0].evaluations[1]: ...) and wrapping its cause (a *registry.Error
// for an unknown type, else the kind's validation error).
func Compile(reg *registry.Registry[*Kind], s *scenario.Scenario) (*Compiled, error) {
	if s == nil {
		return nil, errors.New("evaluate: Compile of a nil scenario")
	}
	c := &Compiled{steps: make([]compiledStep, len(s.Run))}
	var errs []error
	build := func(scope results.Scope, step int, evs []scenario.Evaluation) []*Check {
		checks := make([]*Check, 0, len(evs))
		for i, e := range evs {
			// The judgment's weights fill in what the evaluation left
			// unweighted; e is a copy, the scenario stays as loaded.
			e.Weight = s.Judgment.EvaluationWeight(&e)
			ev, err := Build(reg, e)
			if err != nil {
				errs = append(errs, &compileError{Scope: scope, Step: step, Index: i, Type: e.Type, Err: err})
				continue
			}
			needs := needsOf(ev)
			c.needs = c.needs.or(needs)
			checks = append(checks, &Check{Scope: scope, Step: step, Index: i, Path: checkPath(scope, step, i), Evaluation: e, Evaluator: ev, Needs: needs})
		}
		return checks
	}
	for i, st := range s.Run {
		c.steps[i].step = build(results.ScopeStep, i, st.Evaluations)
		if cv := st.Conversation; cv != nil {
			c.steps[i].turn = build(results.ScopeTurn, i, cv.TurnEvaluations)
			c.steps[i].final = build(results.ScopeFinal, i, cv.FinalEvaluations)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// Needs returns what the scenario's evaluations need from a run.
func (c *Compiled) Needs() Needs { return c.needs }

// Checks returns the evaluations of one step and scope, in file order; nil
// when there are none.
func (c *Compiled) Checks(scope results.Scope, step int) []*Check {
	if step < 0 || step >= len(c.steps) {
		return nil
	}
	switch scope {
	case results.ScopeStep:
		return c.steps[step].step
	case results.ScopeTurn:
		return c.steps[step].turn
	case results.ScopeFinal:
		return c.steps[step].final
	}
	return nil
}

// Evaluate runs the evaluations of in.Scope for the step in.Step (which is
// both the index in in.Trace.Steps and in the scenario's run list) and
// returns one results.Evaluation each, in file order. It never fails as a whole: an
// evaluation that cannot judge yields a results.Evaluation with Error set, and a
// panicking evaluator is recovered the same way.
func (c *Compiled) Evaluate(ctx context.Context, in Input) []results.Evaluation {
	in = in.normalized()
	checks := c.Checks(in.Scope, in.Step)
	if len(checks) == 0 {
		return nil
	}
	out := make([]results.Evaluation, len(checks))
	for i, ch := range checks {
		out[i], _ = ch.Evaluator.Evaluate(ctx, in)
	}
	return out
}
