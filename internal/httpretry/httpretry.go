// Package httpretry is the one HTTP retry agenteval has: the model client
// (llm) and the GitHub client (github) both send through its Transport. A
// request is repeated when its Classify says the failure is transient, after
// a wait that is the server's own (Retry-After, retry-after-ms,
// x-ratelimit-reset) or an exponential backoff with jitter, bounded, and
// cancellable through the request's context.
package httpretry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verdict is what Classify says about one attempt.
type Verdict struct {
	// Retry says the attempt failed in a way worth repeating.
	Retry bool
	// After is how long the server asked to wait (0 when it did not say).
	After time.Duration
	// Limited marks a rate limit: one the Transport will not wait out is
	// returned as Policy.Limited's error instead of the response.
	Limited bool
	// Reason says why the attempt failed: OnRetry gets it, and the error
	// of a request cancelled while waiting to retry wraps it.
	Reason error
}

// Policy says which attempts are repeated and how long to wait. The zero
// value retries network errors, 429 and 5xx five times in all.
type Policy struct {
	// Attempts bounds the tries of one request, the first included
	// (default 5); 1 disables retries.
	Attempts int
	// Base is the first backoff (default 500ms); each retry doubles it, up
	// to MaxWait, with "equal jitter" (half fixed, half random) so that
	// clients limited together do not retry in lockstep.
	Base time.Duration
	// MaxWait bounds every wait (default 1m). A server asking for longer
	// is not waited for: the attempt is the last, unless ClampWait, which
	// waits MaxWait instead (a model endpoint's Retry-After is advice; a
	// GitHub rate limit's reset is not).
	MaxWait   time.Duration
	ClampWait bool
	// AttemptTimeout bounds each attempt, its body included (0: none).
	AttemptTimeout time.Duration
	// Classify judges an attempt (err is the transport's, resp nil then).
	// It may read resp.Body if it leaves an equal one in its place. Nil
	// means Transient.
	Classify func(resp *http.Response, err error) Verdict
	// Limited returns the error for a rate limit given up on: wait is what
	// the server asked for (0 when the attempts ran out). Nil returns the
	// last response.
	Limited func(resp *http.Response, v Verdict, wait time.Duration) error
	// OnRetry, when set, is told of each retry before its wait.
	OnRetry func(attempt int, wait time.Duration, reason error)
	// Sleep and Now replace the clock in tests.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
}

func (p Policy) withDefaults() Policy {
	if p.Attempts <= 0 {
		p.Attempts = 5
	}
	if p.Base <= 0 {
		p.Base = 500 * time.Millisecond
	}
	if p.MaxWait == 0 {
		p.MaxWait = time.Minute
	}
	if p.Classify == nil {
		p.Classify = Transient
	}
	if p.Sleep == nil {
		p.Sleep = Sleep
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	return p
}

// Transport sends requests through Base, repeating them by Policy. A request
// whose body cannot be replayed (no GetBody) is sent once.
type Transport struct {
	// Base sends each attempt; nil means http.DefaultTransport.
	Base   http.RoundTripper
	Policy Policy
}

type counterKey struct{}

// WithAttempts returns a context that counts the attempts of requests
// made with it: n() reports how many were sent.
func WithAttempts(ctx context.Context) (context.Context, func() int) {
	c := new(int)
	return context.WithValue(ctx, counterKey{}, c), func() int { return *c }
}

// RoundTrip sends req until an attempt is not to be retried, the attempts
// run out or req's context ends.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	p := t.Policy.withDefaults()
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	ctx := req.Context()
	count, _ := ctx.Value(counterKey{}).(*int)
	replayable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
	for attempt := 1; ; attempt++ {
		r, err := replay(req, attempt)
		if err != nil {
			return nil, err
		}
		if count != nil {
			*count = attempt
		}
		resp, cancel, err := p.send(base, r)
		if err != nil && ctx.Err() != nil {
			cancel()
			return nil, err // the caller gave up: no verdict, no retry
		}
		v := p.Classify(resp, err)
		if !v.Retry || !replayable {
			return finish(resp, err, cancel)
		}
		wait, ok := p.wait(attempt, v)
		last := attempt >= p.Attempts || !ok
		if last {
			if v.Limited && p.Limited != nil {
				drain(resp, cancel)
				if ok {
					wait = 0 // the attempts ran out
				}
				return nil, p.Limited(resp, v, wait)
			}
			return finish(resp, err, cancel)
		}
		drain(resp, cancel)
		if p.OnRetry != nil {
			p.OnRetry(attempt, wait, v.Reason)
		}
		if err := p.Sleep(ctx, wait); err != nil {
			if v.Reason != nil {
				return nil, fmt.Errorf("%w while waiting to retry (last error: %w)", err, v.Reason)
			}
			return nil, err
		}
	}
}

// send makes one attempt, under AttemptTimeout when set; cancel ends the
// attempt's context once its body is closed.
func (p Policy) send(base http.RoundTripper, r *http.Request) (*http.Response, func(), error) {
	if p.AttemptTimeout <= 0 {
		resp, err := base.RoundTrip(r)
		return resp, func() {}, err
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), p.AttemptTimeout,
		fmt.Errorf("attempt timed out after %s: %w", p.AttemptTimeout, context.DeadlineExceeded))
	resp, err := base.RoundTrip(r.WithContext(ctx))
	if err != nil && ctx.Err() != nil && r.Context().Err() == nil {
		err = context.Cause(ctx)
	}
	return resp, cancel, err
}

// wait is the wait before the retry after attempt: the server's when it
// asked (bounded by MaxWait), else the backoff. ok is false when the
// server asked for longer than MaxWait and the policy does not clamp.
func (p Policy) wait(attempt int, v Verdict) (time.Duration, bool) {
	d := Backoff(attempt, p.Base, max(p.MaxWait, p.Base))
	if v.After <= 0 {
		return d, true
	}
	if p.MaxWait < 0 || v.After > p.MaxWait {
		if !p.ClampWait || p.MaxWait < 0 {
			return v.After, false
		}
		return max(d, p.MaxWait), true
	}
	return max(d, v.After), true
}

// replay returns the request for attempt: req itself first, then a clone
// with a fresh body.
func replay(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 {
		return req, nil
	}
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	return r, nil
}

// finish returns an attempt's outcome, its context ending with its body.
func finish(resp *http.Response, err error, cancel func()) (*http.Response, error) {
	if err != nil || resp == nil {
		cancel()
		return resp, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// drain discards what is left of a response that will not be returned, so
// its connection is reused.
func drain(resp *http.Response, cancel func()) {
	if resp != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
	}
	cancel()
}

// Transient is the default Classify: network errors, 429 and 5xx are worth
// repeating, after the server's Retry-After when it gives one.
func Transient(resp *http.Response, err error) Verdict {
	if err != nil {
		return Verdict{Retry: !errors.Is(err, context.Canceled), Reason: err}
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		after, _ := RetryAfter(resp.Header, time.Now())
		return Verdict{Retry: true, After: after, Limited: resp.StatusCode == http.StatusTooManyRequests,
			Reason: fmt.Errorf("HTTP %d", resp.StatusCode)}
	}
	return Verdict{}
}

// Backoff is the wait before retry number attempt (1-based): exponential
// from base, capped at max, with equal jitter: half fixed, half random, so
// no client retries at once and many do not retry together.
func Backoff(attempt int, base, max time.Duration) time.Duration {
	d := base
	for i := 1; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max || d <= 0 {
		d = max
	}
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + rand.N(half+1)
}

// RetryAfter reads how long the server asked to wait: retry-after-ms
// (milliseconds, as OpenAI sends it) first, then Retry-After (seconds or an
// HTTP date), then GitHub's x-ratelimit-remaining: 0 with x-ratelimit-reset
// (Unix seconds). ok is false when none is present and readable.
func RetryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil {
			if secs >= 0 {
				return time.Duration(secs * float64(time.Second)), true
			}
		} else if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	if h.Get("X-Ratelimit-Remaining") == "0" {
		if secs, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(secs, 0).Sub(now), 0), true
		}
	}
	return 0, false
}

// Sleep waits d, or until ctx is done (returning its error).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Peek reads up to limit bytes of resp's body and leaves an equal body in
// its place, for a Classify that looks inside.
func Peek(resp *http.Response, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit))
	rest := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(data), rest), rest}
	return data, err
}
