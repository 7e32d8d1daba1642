package runner

import (
	"context"
	"errors"
	"hash/fnv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJobSeedIsFNV1a keeps the inline hash equal to hash/fnv's FNV-1a over
// the seed's bytes, the id and the attempt: seeds of recorded runs repeat.
func TestJobSeedIsFNV1a(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		seed    int64
		id      string
		attempt int
	}{{0, "", 0}, {42, "echo/-/run-1", 1}, {-7, "matrix/ab12/run-300", 3}, {1 << 62, "ünï/-/run-9", 257}} {
		h := fnv.New64a()
		var b [8]byte
		for i := range 8 {
			b[i] = byte(c.seed >> (8 * i))
		}
		h.Write(b[:])
		h.Write([]byte(c.id))
		h.Write([]byte{byte(c.attempt)})
		assert.Equal(t, int64(h.Sum64()>>1), jobSeed(c.seed, c.id, c.attempt), "%+v", c)
	}
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	var w worker
	defer w.end()
	ctx := t.Context()

	// A call that returns: its value, one caller goroutine kept for the next.
	v, err := callTimeout(ctx, &w, time.Minute, func(ctx context.Context) (int, error) {
		d, ok := ctx.Deadline()
		assert.True(t, ok)
		assert.WithinDuration(t, time.Now().Add(time.Minute), d, 10*time.Second)
		return 7, nil
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, v)
	first := w.caller
	require.NotNil(t, first)
	_, _ = callTimeout(ctx, &w, time.Minute, func(context.Context) (int, error) { return 0, nil }, nil)
	assert.Same(t, first, w.caller, "the caller is kept from call to call")

	// A call that ignores its context is abandoned at its deadline.
	release := make(chan struct{})
	defer close(release)
	start := time.Now()
	_, err = callTimeout(ctx, &w, 20*time.Millisecond, func(context.Context) (int, error) { <-release; return 1, nil }, nil)
	require.ErrorIs(t, err, errTimeout)
	assert.Contains(t, err.Error(), "20ms: timed out")
	assert.Less(t, time.Since(start), time.Minute)
	assert.Nil(t, w.caller, "the abandoned call keeps its caller")

	// A call that watches its context ends with the timeout as cause.
	seen := make(chan error, 1)
	_, err = callTimeout(ctx, &w, 20*time.Millisecond, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		seen <- context.Cause(ctx)
		return 0, ctx.Err()
	}, nil)
	require.ErrorIs(t, err, errTimeout)
	require.ErrorIs(t, <-seen, errTimeout)

	// An error with the context still alive is the call's own.
	boom := errors.New("boom")
	_, err = callTimeout(ctx, &w, time.Minute, func(context.Context) (int, error) { return 0, boom }, nil)
	assert.Same(t, boom, err)

	// A panic is an error; the caller survives it.
	_, err = callTimeout(ctx, &w, time.Minute, func(context.Context) (int, error) { panic("bang") }, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "agent panicked: bang")
	v, err = callTimeout(ctx, &w, time.Minute, func(context.Context) (int, error) { return 3, nil }, nil)
	require.NoError(t, err)
	assert.Equal(t, 3, v)

	// The parent's end wins, with its cause.
	cause := errors.New("run cancelled")
	pctx, cancel := context.WithCancelCause(ctx)
	go func() { time.Sleep(10 * time.Millisecond); cancel(cause) }()
	_, err = callTimeout(pctx, &w, time.Minute, func(context.Context) (int, error) { <-release; return 0, nil }, nil)
	assert.Same(t, cause, err)
	_, err = callTimeout(pctx, &w, time.Minute, func(context.Context) (int, error) { return 0, nil }, nil)
	assert.Same(t, cause, err, "a call after the parent ended does not start")

	// A context kept past its call is cancelled.
	var kept context.Context
	_, err = callTimeout(ctx, &w, time.Minute, func(ctx context.Context) (int, error) { kept = ctx; return 0, nil }, nil)
	require.NoError(t, err)
	<-kept.Done()
	assert.ErrorIs(t, kept.Err(), context.Canceled)
}

// TestCallCtxAfterAbandon: an agent that looks at its context only after
// the runner gave up on the call finds it timed out.
func TestCallCtxAfterAbandon(t *testing.T) {
	t.Parallel()
	var w worker
	defer w.end()
	got := make(chan error, 1)
	proceed := make(chan struct{})
	_, err := callTimeout(t.Context(), &w, 10*time.Millisecond, func(ctx context.Context) (int, error) {
		<-proceed
		<-ctx.Done()
		got <- context.Cause(ctx)
		return 0, nil
	}, nil)
	require.ErrorIs(t, err, errTimeout)
	close(proceed)
	assert.ErrorIs(t, <-got, errTimeout)
}

// TestAnAbandonedCallsResultIsDiscardedOnce: what a call returns after the
// runner gave up on it goes to discard, exactly once, whether it returns
// long after the deadline or at the same moment.
func TestAnAbandonedCallsResultIsDiscardedOnce(t *testing.T) {
	t.Parallel()
	for _, late := range []time.Duration{0, 5 * time.Millisecond, 50 * time.Millisecond} {
		var w worker
		var discarded atomic.Int64
		got := make(chan int, 4)
		_, err := callTimeout(t.Context(), &w, 5*time.Millisecond, func(context.Context) (int, error) {
			time.Sleep(late)
			return 7, nil
		}, func(v int) { discarded.Add(1); got <- v })
		if err == nil {
			continue // returned in time (late 0): nothing to discard
		}
		select {
		case v := <-got:
			assert.Equal(t, 7, v)
		case <-time.After(5 * time.Second):
			t.Fatalf("late %v: the abandoned call's result was never discarded", late)
		}
		time.Sleep(20 * time.Millisecond)
		assert.EqualValues(t, 1, discarded.Load(), "late %v", late)
		w.end()
	}
}

// TestACallEndedWithItsContextDiscardsWhatItReturned: a call that returns a
// value with its context's error (cancelled while it ran) has the value
// discarded once, whichever way the runner saw the end.
func TestACallEndedWithItsContextDiscardsWhatItReturned(t *testing.T) {
	t.Parallel()
	for range 20 {
		var w worker
		var discarded atomic.Int64
		ctx, cancel := context.WithCancel(t.Context())
		started := make(chan struct{})
		go func() { <-started; cancel() }()
		_, err := callTimeout(ctx, &w, time.Minute, func(ctx context.Context) (int, error) {
			close(started)
			<-ctx.Done()
			return 7, ctx.Err()
		}, func(v int) { assert.Equal(t, 7, v); discarded.Add(1) })
		require.Error(t, err)
		require.Eventually(t, func() bool { return discarded.Load() == 1 }, 5*time.Second, time.Millisecond)
		time.Sleep(5 * time.Millisecond)
		assert.EqualValues(t, 1, discarded.Load())
		w.end()
	}
}

// TestCooperativeAgentCalledInline: a Cooperative agent's calls run on the
// job's own goroutine (no caller goroutine is started), keep their
// deadline and its cause, and a panic comes back as an error; a job of an
// agent that is not cooperative uses the caller.
func TestCooperativeAgentCalledInline(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	w := worker{inline: true}
	defer w.end()
	v, err := callTimeout(ctx, &w, time.Minute, func(ctx context.Context) (int, error) {
		_, ok := ctx.Deadline()
		assert.True(t, ok, "the call has its deadline")
		return 7, nil
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, 7, v)
	assert.Nil(t, w.caller, "no caller goroutine for a cooperative agent")

	var discarded []int
	_, err = callTimeout(ctx, &w, 20*time.Millisecond, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 3, ctx.Err()
	}, func(v int) { discarded = append(discarded, v) })
	require.ErrorIs(t, err, errTimeout)
	assert.Contains(t, err.Error(), "20ms: timed out")
	assert.Equal(t, []int{3}, discarded, "what a call returns with its context's end is discarded")

	_, err = callTimeout(ctx, &w, time.Minute, func(context.Context) (int, error) { panic("oops") }, nil)
	require.ErrorContains(t, err, "agent panicked: oops")

	assert.True(t, cooperative(echoLike{}))
	assert.False(t, cooperative(AgentFunc(func(context.Context, SessionConfig, string) (Reply, error) { return Reply{}, nil })))
	assert.False(t, cooperative(echoLike{no: true}), "an agent may say it is not")
}

// echoLike is a Cooperative agent (unless no).
type echoLike struct{ no bool }

func (e echoLike) Cooperative() bool { return !e.no }
func (echoLike) NewSession(context.Context, SessionConfig) (Session, error) {
	return nil, errors.New("unused")
}
