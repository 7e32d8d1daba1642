package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/scenario"
)

// worker is what one of a run's job goroutines keeps from job to job: the
// trace's steps, the judgment's outcomes, the goroutine that runs agent
// calls, and the last scenario's compiled evaluations.
type worker struct {
	trace    evaluate.Trace
	outcomes []judge.Outcome
	// caller runs agent calls; nil until the first, and again after a
	// call was abandoned at its deadline.
	caller *caller
	// last is the scenario of the last job, with its compiled evaluations
	// and what this configuration cannot run of it.
	last       *scenario.Scenario
	compiled   *evaluate.Compiled
	compileErr error
	reasons    []string
	// inline is whether the current job's agent is Cooperative: its
	// calls then run on the worker's own goroutine, not on caller.
	inline bool
	// cause is the timeout cause of the last call's duration causeFor,
	// kept because steps repeat their timeout and the error is built once.
	causeFor time.Duration
	cause    error
	// startup totals the current attempt's Reply.Startup: time spent
	// waiting for the agent's program to start, left out of its durations.
	startup time.Duration
}

// end stops the worker's caller goroutine and waits for it.
func (w *worker) end() {
	if w.caller != nil {
		close(w.caller.req)
		<-w.caller.exited
		w.caller = nil
	}
}

// caller is a goroutine that runs agent calls for one worker, so that the
// worker can return at a call's deadline even when the agent ignores its
// context. It is kept from call to call (its stack stays grown, and no
// goroutine is started per call); a call abandoned at its deadline keeps
// its caller, and the worker starts a new one for its next call.
type caller struct {
	req    chan task
	done   chan struct{}
	exited chan struct{}
}

type task interface{ run() }

func newCaller() *caller {
	c := &caller{req: make(chan task), done: make(chan struct{}, 1), exited: make(chan struct{})}
	go c.loop()
	return c
}

func (c *caller) loop() {
	defer close(c.exited)
	for t := range c.req {
		t.run()
		c.done <- struct{}{}
	}
}

// call is one agent call: its context, the function, and what it
// returned. discard, when set, receives what an abandoned call returns
// once it returns (a session the runner no longer wants).
type call[T any] struct {
	ctx     context.Context
	fn      func(context.Context) (T, error)
	discard func(T)
	v       T
	err     error
	// mu guards returned (fn has returned) and abandoned (the runner gave
	// up on the call): of the two, the one set second discards.
	mu                  sync.Mutex
	returned, abandoned bool
}

func (c *call[T]) run() {
	defer func() {
		if p := recover(); p != nil {
			c.err = panicError(p)
		}
		c.mu.Lock()
		c.returned = true
		late := c.abandoned
		c.mu.Unlock()
		if late && c.discard != nil {
			c.discard(c.v) // the runner gave up first; this side discards
		}
	}()
	c.v, c.err = c.fn(c.ctx)
}

// abandon marks the call abandoned at its context's end. If fn returned
// meanwhile (at the same moment), this side discards what it returned.
func (c *call[T]) abandon() {
	c.mu.Lock()
	c.abandoned = true
	done := c.returned
	c.mu.Unlock()
	if done && c.discard != nil {
		c.discard(c.v)
	}
}

// callTimeout runs fn with a deadline d (its context's cause then wraps
// errTimeout) and returns at the deadline, or when ctx ends, even when fn
// ignores its context: the call is then abandoned on the worker's caller
// goroutine, which ends after it. A panic in fn comes back as an error.
// discard, when not nil, gets what fn returns after the call was abandoned
// (so a session opened too late is closed, not leaked); see ended.
func callTimeout[T any](ctx context.Context, w *worker, d time.Duration, fn func(context.Context) (T, error), discard func(T)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, context.Cause(ctx)
	}
	cctx, cancel := context.WithTimeoutCause(ctx, d, w.timeoutCause(d))
	defer cancel()
	if w.inline { // the agent returns at its context's end (Cooperative)
		return callInline(cctx, fn, discard)
	}
	c := &call[T]{ctx: cctx, fn: fn, discard: discard}
	if w.caller == nil {
		w.caller = newCaller()
	}
	cl := w.caller
	cl.req <- c
	select {
	case <-cl.done:
		if c.err != nil && cctx.Err() != nil {
			return ended(cctx, c.v, c.discard)
		}
		return c.v, c.err
	case <-cctx.Done():
	}
	// Abandoned: the call goes on, on cl, which ends after it.
	close(cl.req)
	w.caller = nil
	c.abandon()
	return zero, context.Cause(cctx)
}

// callInline runs fn on this goroutine with ctx (a call's deadline): what
// callTimeout does for a Cooperative agent, with the same panic recovery.
func callInline[T any](ctx context.Context, fn func(context.Context) (T, error), discard func(T)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			var zero T
			v, err = zero, fmt.Errorf("agent panicked: %v", p)
		}
	}()
	v, err = fn(ctx)
	if err != nil && ctx.Err() != nil {
		return ended(ctx, v, discard)
	}
	return v, err
}

// ended is what a call that returned with its context's end gives back
// with the context's cause: v (a step's partial reply), or nothing when
// discard takes v (a session opened too late is closed).
func ended[T any](ctx context.Context, v T, discard func(T)) (T, error) {
	if discard != nil {
		discard(v)
		var zero T
		v = zero
	}
	return v, context.Cause(ctx)
}

// timeoutCause is the cause of a call that ran out of its time d: one
// error for every call of the same time, not one built per call (a cheap
// job makes two calls, and the message was a tenth of their cost).
func (w *worker) timeoutCause(d time.Duration) error {
	if w.cause == nil || w.causeFor != d {
		w.cause, w.causeFor = fmt.Errorf("%v: %w", d, errTimeout), d
	}
	return w.cause
}
