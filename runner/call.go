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

// worker is what one of a run's job goroutines keeps from job to job, so
// that a job allocates little beyond what it hands on (its result, the
// agent's session and mocks): the trace's steps, the judgment's outcomes,
// the goroutine and timer that guard agent calls, and the last scenario's
// compiled evaluations.
type worker struct {
	trace    evaluate.Trace
	outcomes []judge.Outcome
	// caller runs guarded agent calls; nil until the first, and again
	// after a call was abandoned at its deadline.
	caller *caller
	timer  *time.Timer
	// last is the scenario of the last job, with its compiled evaluations
	// and what this configuration cannot run of it.
	last       *scenario.Scenario
	compiled   *evaluate.Compiled
	compileErr error
	reasons    []string
}

// end stops the worker's caller goroutine and waits for it.
func (w *worker) end() {
	if w.caller != nil {
		close(w.caller.req)
		<-w.caller.exited
		w.caller = nil
	}
	if w.timer != nil {
		w.timer.Stop()
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

// instantAgent and instantSession mark the runner's own agents whose
// NewSession and Send return at once and never look at their context
// (echo): the runner calls them inline, with no deadline and no guard.
type instantAgent interface {
	Agent
	instant()
}

type instantSession interface {
	Session
	instant()
}

// call is one guarded agent call: its context, the function, and what it
// returned; one allocation. discard, when set, receives what an abandoned
// call returns once it returns (a session the runner no longer wants).
type call[T any] struct {
	ctx     callCtx
	fn      func(context.Context) (T, error)
	discard func(T)
	v       T
	err     error
	// returned is set, under ctx.mu, when fn has returned.
	returned bool
}

func (c *call[T]) run() {
	defer func() {
		if p := recover(); p != nil {
			c.err = fmt.Errorf("agent panicked: %v", p)
		}
		c.ctx.mu.Lock()
		c.returned = true
		late := c.ctx.abandoned
		c.ctx.mu.Unlock()
		if late && c.discard != nil {
			c.discard(c.v) // the runner gave up first; this side discards
		}
	}()
	c.v, c.err = c.fn(&c.ctx)
}

// abandon marks the call abandoned (at its deadline, or with its parent):
// its context is then left to end on its own, with the timeout (due now)
// or the parent's cause, rather than be cancelled by end. If fn returned meanwhile (at the same
// moment as the deadline), this side discards what it returned. Of run's
// end and abandon, the one that comes second discards: exactly once.
func (c *call[T]) abandon() {
	c.ctx.mu.Lock()
	c.ctx.abandoned = true
	done := c.returned
	c.ctx.mu.Unlock()
	if done && c.discard != nil {
		c.discard(c.v)
	}
}

// callTimeout runs fn with a deadline d and returns at the deadline even
// when fn ignores its context (the call is then abandoned, on the
// worker's caller goroutine). A panic in fn comes back as an error. fn's
// context is a callCtx: a timer and a channel are made for it only when
// fn asks for them. discard, when not nil, gets what fn returns after the
// call was abandoned (so a session opened too late is closed, not leaked).
func callTimeout[T any](ctx context.Context, w *worker, d time.Duration, fn func(context.Context) (T, error), discard func(T)) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, context.Cause(ctx)
	}
	c := &call[T]{fn: fn, discard: discard}
	c.ctx.init(ctx, d)
	defer c.ctx.end()
	if w.caller == nil {
		w.caller = newCaller()
	}
	if w.timer == nil {
		w.timer = time.NewTimer(d)
	} else {
		w.timer.Reset(d)
	}
	cl := w.caller
	cl.req <- c
	var err error
	select {
	case <-cl.done:
		w.timer.Stop()
		if c.err != nil && c.ctx.Err() != nil {
			if c.discard != nil {
				c.discard(c.v) // returned with the context's end: not used
			}
			return zero, context.Cause(&c.ctx)
		}
		return c.v, c.err
	case <-w.timer.C:
		err = timeoutCause(d)
	case <-ctx.Done():
		w.timer.Stop()
		err = context.Cause(ctx)
	}
	// Abandoned: the call goes on, on cl, which ends after it; c belongs
	// to it from now on but for its context, which ends now.
	close(cl.req)
	w.caller = nil
	c.abandon()
	return zero, err
}

// callInstant runs fn of an instant agent inline; a panic comes back as
// an error.
func callInstant[T any](ctx context.Context, fn func(context.Context) (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("agent panicked: %v", p)
		}
	}()
	if err := ctx.Err(); err != nil {
		return v, context.Cause(ctx)
	}
	return fn(ctx)
}

// callCtx is the context of one agent call: ctx with a deadline d from
// now, whose cause is a timeout error. Most agents in process never look
// at Done, Err or Value; the context.WithDeadlineCause behind them (a
// timer, a channel, a registration with the parent) is made on the first
// such look, and never otherwise.
type callCtx struct {
	parent   context.Context
	deadline time.Time // now+d, or the parent's when sooner
	own      time.Time // now+d
	d        time.Duration
	mu       sync.Mutex
	real     context.Context
	cancel   context.CancelFunc
	// ended: the call is over; abandoned: the runner gave up on it.
	ended, abandoned bool
}

func (c *callCtx) init(parent context.Context, d time.Duration) {
	own := time.Now().Add(d)
	c.parent, c.deadline, c.own, c.d = parent, own, own, d
	if pd, ok := parent.Deadline(); ok && pd.Before(own) {
		c.deadline = pd
	}
}

// timeoutCause is the cause of a call that ran out of its time d.
func timeoutCause(d time.Duration) error { return fmt.Errorf("%v: %w", d, errTimeout) }

func (c *callCtx) ctx() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.real == nil {
		c.real, c.cancel = context.WithDeadlineCause(c.parent, c.own, timeoutCause(c.d))
		if c.ended && !c.abandoned {
			c.cancel() // asked after the call: cancelled, as a context.WithTimeout would be by then
		}
	}
	return c.real
}

// Deadline implements context.Context.
func (c *callCtx) Deadline() (time.Time, bool) { return c.deadline, true }

// Done implements context.Context.
func (c *callCtx) Done() <-chan struct{} { return c.ctx().Done() }

// Err implements context.Context.
func (c *callCtx) Err() error { return c.ctx().Err() }

// Value implements context.Context; context.Cause finds the real
// context's cause through it.
func (c *callCtx) Value(key any) any { return c.ctx().Value(key) }

// String names the context as context's own do.
func (c *callCtx) String() string { return fmt.Sprintf("runner.callCtx(%v)", c.d) }

// end cancels the context once the call is over.
func (c *callCtx) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	if c.cancel != nil && !c.abandoned {
		c.cancel()
	}
}
