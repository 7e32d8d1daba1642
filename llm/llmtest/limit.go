package llmtest

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Limit is a provider's rate limit for [Server.SetLimit] to emulate. Each
// bound that is set refuses a request beyond it with 429, an OpenAI-style
// rate_limit_exceeded error and a Retry-After header, before the request
// takes a scripted reply; refused requests are recorded by
// [Server.Requests] too.
type Limit struct {
	// MaxInFlight refuses a request while this many are being answered
	// (0: no bound), as a provider limiting concurrent requests does.
	MaxInFlight int
	// RetryAfter is the Retry-After a refusal for MaxInFlight carries
	// (default 1s; whole seconds are sent as whole seconds).
	RetryAfter time.Duration
	// Requests admits at most this many requests per Window (a fixed
	// window starting at the first request; 0: no bound), as a provider's
	// requests-per-minute limit does. A refusal for it asks the client to
	// retry when the window ends.
	Requests int
	Window   time.Duration
	// Headers sends, with every answer, x-ratelimit-limit-requests,
	// x-ratelimit-remaining-requests and x-ratelimit-reset-requests (as
	// OpenAI does: the reset as a duration such as "1.5s") for the
	// Requests window.
	Headers bool
}

// LimitStats counts what the emulated limit did (see [Server.LimitStats]).
type LimitStats struct {
	// Admitted requests were answered as scripted; Refused got 429.
	Admitted, Refused int
	// MaxInFlight is the most requests answered at once.
	MaxInFlight int
}

// limitState is a Server's emulated limit and its counts, under Server.mu.
type limitState struct {
	Limit
	stats       LimitStats
	inflight    int
	windowStart time.Time
	windowUsed  int
}

// SetLimit makes the server emulate a rate-limited provider; the zero
// Limit counts requests without refusing any.
func (s *Server) SetLimit(l Limit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.RetryAfter <= 0 {
		l.RetryAfter = time.Second
	}
	s.limit = &limitState{Limit: l}
}

// LimitStats returns the counts of the emulated limit so far.
func (s *Server) LimitStats() LimitStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limit == nil {
		return LimitStats{}
	}
	return s.limit.stats
}

// admit decides a request under the limit (under Server.mu): ok is false
// for a refusal, whose headers are set on h; done ends an admitted one.
func (l *limitState) admit(h http.Header, now time.Time) (ok bool, retryAfter time.Duration) {
	windowed := l.Requests > 0 && l.Window > 0
	if windowed && (l.windowStart.IsZero() || now.Sub(l.windowStart) >= l.Window) {
		l.windowStart, l.windowUsed = now, 0
	}
	switch {
	case l.MaxInFlight > 0 && l.inflight >= l.MaxInFlight:
		retryAfter = l.RetryAfter
	case windowed && l.windowUsed >= l.Requests:
		retryAfter = l.windowStart.Add(l.Window).Sub(now)
	default:
		ok = true
		l.inflight++
		l.stats.Admitted++
		l.stats.MaxInFlight = max(l.stats.MaxInFlight, l.inflight)
		if windowed {
			l.windowUsed++
		}
	}
	if !ok {
		l.stats.Refused++
	}
	if windowed && l.Headers {
		reset := l.windowStart.Add(l.Window).Sub(now)
		h.Set("X-Ratelimit-Limit-Requests", strconv.Itoa(l.Requests))
		h.Set("X-Ratelimit-Remaining-Requests", strconv.Itoa(l.Requests-l.windowUsed))
		h.Set("X-Ratelimit-Reset-Requests", fmt.Sprintf("%gs", math.Ceil(reset.Seconds()*1000)/1000))
	}
	return ok, retryAfter
}

// retryAfterHeader is d as a Retry-After value: whole seconds, rounded up.
func retryAfterHeader(d time.Duration) string {
	return strconv.Itoa(max(1, int(math.Ceil(d.Seconds()))))
}
