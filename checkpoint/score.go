package checkpoint

import (
	"context"
	"errors"
	"runtime/debug"
	"sync"
	"time"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/scenario"
)

// Result is the verdict on one checkpoint.
type Result struct {
	// ID, Description and Task are the checkpoint's.
	ID          string `json:"id"`
	Description string `json:"description"`
	Task        string `json:"task"`
	// Passed is true when the task ran and its data met the condition.
	Passed bool `json:"passed"`
	// Actual is the data the task returned (nil when it failed).
	Actual any `json:"actual"`
	// Expected says what the condition wants, in words: "count >= 2",
	// `state == "closed"`.
	Expected string `json:"expected"`
	// Message says what was observed and, on failure, why the checkpoint
	// failed: "count is 1, want >= 2 (result.items: [...])".
	Message string `json:"message,omitempty"`
	// Error is Err's text, for reports.
	Error string `json:"error,omitempty"`
	// Err is set when the checkpoint could not be decided: the task failed
	// or something panicked (an *Error), the condition is malformed
	// (ErrInvalidCondition, ErrUnknownType, ErrUnknownScorer) or a custom
	// scorer failed. Passed is then false.
	Err error `json:"-"`
	// Weight is the checkpoint's weight (1 unless the checkpoint sets one).
	Weight float64 `json:"weight"`
	// Critical is the checkpoint's critical flag.
	Critical bool `json:"critical,omitempty"`
	// Duration is how long the task and the check took.
	Duration time.Duration `json:"duration_ns"`
}

// Report is the verdict on a list of checkpoints.
type Report struct {
	// Passed is true when there was at least one checkpoint and every one
	// passed. Zero checkpoints is not a pass: nothing was shown to hold.
	Passed bool `json:"passed"`
	// PassedCount is how many checkpoints passed.
	PassedCount int `json:"passed_count"`
	// Total is the number of checkpoints.
	Total int `json:"total"`
	// Results holds one result per checkpoint, in the checkpoints' order.
	Results []Result `json:"results"`
}

var errNoExecutor = errors.New("checkpoint: Checker.Executor is nil")

// Checker scores checkpoints: it runs each checkpoint's task with Executor
// and tests the data with the condition types of Conditions.
type Checker struct {
	// Executor runs the tasks; required.
	Executor Executor
	// Conditions holds the condition types (with their custom scorers); nil
	// means NewRegistry(NewScorers()): the built-ins, no custom scorers.
	Conditions *registry.Registry[*ConditionType]
	// Concurrency is how many checkpoints run at once; 0 or 1 runs them one
	// after another, in order.
	Concurrency int
}

// Score runs every checkpoint (a failure does not stop the others) and
// returns their results in order. A malformed condition is found before its
// task runs, so no request is spent on it. Once ctx is done, checkpoints not
// yet started fail with ctx's error. A panic in the executor, a condition or
// a custom scorer fails only its checkpoint, with an *Error whose Panic is set.
func (c Checker) Score(ctx context.Context, checkpoints []scenario.Checkpoint) Report {
	reg := c.Conditions
	if reg == nil {
		reg = NewRegistry(NewScorers())
	}
	results := make([]Result, len(checkpoints))
	if n := min(c.Concurrency, len(checkpoints)); n > 1 {
		var wg sync.WaitGroup
		sem := make(chan struct{}, n)
		for i := range checkpoints {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				results[i] = c.scoreOne(ctx, reg, &checkpoints[i])
			})
		}
		wg.Wait()
	} else {
		for i := range checkpoints {
			results[i] = c.scoreOne(ctx, reg, &checkpoints[i])
		}
	}
	rep := Report{Total: len(results), Results: results}
	for _, r := range results {
		if r.Passed {
			rep.PassedCount++
		}
	}
	rep.Passed = rep.Total > 0 && rep.PassedCount == rep.Total
	return rep
}

// scoreOne runs one checkpoint's task and checks its data.
func (c Checker) scoreOne(ctx context.Context, reg *registry.Registry[*ConditionType], cp *scenario.Checkpoint) (res Result) {
	start := time.Now()
	res = Result{
		ID:          cp.ID,
		Description: cp.Description,
		Task:        cp.Task,
		Expected:    describe(reg, cp.Condition),
		Weight:      1,
		Critical:    cp.Critical,
	}
	if cp.Weight != nil {
		res.Weight = *cp.Weight
	}
	defer func() {
		if v := recover(); v != nil {
			res.Passed, res.Err = false, newPanicError(cp.Task, v, debug.Stack())
		}
		if res.Err != nil {
			res.Passed, res.Error = false, res.Err.Error()
		}
		res.Duration = time.Since(start)
	}()
	if err := validate(reg, cp.Condition); err != nil {
		res.Err = err
		return res
	}
	if err := ctx.Err(); err != nil {
		res.Err = err
		return res
	}
	if c.Executor == nil {
		res.Err = errNoExecutor
		return res
	}
	data, err := c.Executor.Execute(ctx, cp.Task, cp.Input)
	if err != nil {
		res.Err = &Error{Task: cp.Task, Err: err}
		return res
	}
	res.Actual = data
	t, _ := reg.Lookup(cp.Condition.Type) // validated above
	res.Passed, res.Message, res.Err = decide(ctx, t, data, cp.Condition, cp.Task)
	return res
}
