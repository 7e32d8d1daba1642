package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits holds the rate limiters of a run, one per endpoint: base URL, API
// key and model. Every model client built with the same Limits (the agent
// under test, the simulated user, the judge) shares the endpoint's limiter,
// so together they send no more than the provider accepts. Each limiter
// bounds the requests in flight by a window it learns: a 429 or 503 answer
// shrinks it (multiplicative decrease, to the requests the provider was
// still serving when it refused when that is fewer), each success grows it by
// about one request per window of successes (additive increase), up to
// the endpoint's configured MaxRequests. When the provider sends
// x-ratelimit-remaining-requests / -tokens with x-ratelimit-reset-*,
// requests are held back until the reset once what remains is spent,
// before a 429 happens; a configured TokensPerMinute paces by the tokens
// the endpoint's requests have been using. Requests wait their turn in
// arrival order.
//
// A Limits is safe for concurrent use; its zero value is not usable: call
// [NewLimits].
type Limits struct {
	mu       sync.Mutex
	byKey    map[endpointKey]*limiter
	defaults EndpointLimits

	waits, refused atomic.Int64
}

// EndpointLimits is what is known of an endpoint's limits before a run.
// Zero fields are unknown: the limiter learns from the provider's answers.
type EndpointLimits struct {
	// MaxRequests bounds the requests in flight at once.
	MaxRequests int
	// TokensPerMinute paces requests by the tokens (prompt and completion)
	// they use, estimated from the endpoint's recent answers.
	TokensPerMinute int
}

// validate reports a negative field.
func (e EndpointLimits) validate() error {
	switch {
	case e.MaxRequests < 0:
		return fmt.Errorf("max requests %d is negative", e.MaxRequests)
	case e.TokensPerMinute < 0:
		return fmt.Errorf("tokens per minute %d is negative", e.TokensPerMinute)
	}
	return nil
}

// ThrottleStats is how much a run's model calls were held back by their
// endpoints' limits, as [Limits.Stats] reports it.
type ThrottleStats struct {
	// Waits counts the times a call waited: for a turn under an
	// endpoint's bound or pace, or before retrying a refused request.
	Waits int64
	// Refused counts the 429 and 503 answers.
	Refused int64
	// Limit is the tightest bound on requests in flight among the
	// endpoints that have one (configured or learned); 0 when none has.
	Limit int
	// InFlight is how many requests are being answered now.
	InFlight int
	// Waiting is how many calls are waiting for their turn now.
	Waiting int
}

// NewLimits returns an empty set of limiters whose endpoints all start
// with the known limits of defaults (a run's --max-requests); a client's
// own (OpenAIConfig.MaxRequests, TokensPerMinute) tighten them for its
// endpoint. Negative fields count as zero.
func NewLimits(defaults EndpointLimits) *Limits {
	return &Limits{byKey: map[endpointKey]*limiter{}, defaults: defaults.tighten(EndpointLimits{})}
}

// tighten returns the tighter of e and o field by field, zero meaning
// unknown.
func (e EndpointLimits) tighten(o EndpointLimits) EndpointLimits {
	return EndpointLimits{MaxRequests: tighter(e.MaxRequests, o.MaxRequests), TokensPerMinute: tighter(e.TokensPerMinute, o.TokensPerMinute)}
}

// Stats reports how much the calls through l were throttled so far.
func (l *Limits) Stats() ThrottleStats {
	s := ThrottleStats{Waits: l.waits.Load(), Refused: l.refused.Load()}
	l.mu.Lock()
	lims := make([]*limiter, 0, len(l.byKey))
	for _, lim := range l.byKey {
		lims = append(lims, lim)
	}
	l.mu.Unlock()
	for _, lim := range lims {
		lim.mu.Lock()
		if b := lim.bound(); b < math.MaxInt && (s.Limit == 0 || b < s.Limit) {
			s.Limit = b
		}
		s.InFlight += lim.inflight
		s.Waiting += len(lim.queue)
		lim.mu.Unlock()
	}
	return s
}

// endpointKey names an endpoint; the key is hashed so that no secret is
// held where it is not needed.
type endpointKey struct{ base, key, model string }

// limiter returns the endpoint's limiter, made on first use; known limits
// tighten what an earlier client configured, never loosen it.
func (l *Limits) limiter(base, key, model string, known EndpointLimits) *limiter {
	h := ""
	if key != "" {
		sum := sha256.Sum256([]byte(key))
		h = hex.EncodeToString(sum[:8])
	}
	k := endpointKey{base: base, key: h, model: model}
	l.mu.Lock()
	defer l.mu.Unlock()
	lim := l.byKey[k]
	if lim == nil {
		lim = &limiter{owner: l, now: time.Now}
		l.byKey[k] = lim
	}
	known = known.tighten(l.defaults)
	lim.mu.Lock()
	lim.maxReq = tighter(lim.maxReq, known.MaxRequests)
	if tpm := tighter(int(lim.tpm), known.TokensPerMinute); float64(tpm) != lim.tpm {
		lim.tpm = float64(tpm)
		lim.bucket = lim.tpm
		lim.refilled = lim.now()
	}
	lim.mu.Unlock()
	return lim
}

// tighter is the smaller of two limits, 0 meaning none.
func tighter(a, b int) int {
	switch {
	case a <= 0 && b <= 0:
		return 0
	case a <= 0:
		return max(b, 0)
	case b <= 0:
		return a
	}
	return min(a, b)
}

// decrease is the multiplicative decrease of the window on a refusal: the
// least it shrinks by; what was in flight when the refused request was sent
// usually says more (see shrink).
const decrease = 0.9

// limiter is one endpoint's: see [Limits].
type limiter struct {
	owner *Limits
	now   func() time.Time

	mu     sync.Mutex
	maxReq int     // configured bound on requests in flight (0: none)
	window float64 // learned bound (0: none learned yet)
	// inflight counts the requests admitted and not yet answered.
	inflight int
	seq      uint64
	// decreasedAt is seq at the last decrease: refusals of requests sent
	// before it answer the window that was, and do not shrink it again.
	decreasedAt uint64
	queue       []*waiter
	timer       *time.Timer // wakes the queue when a pace ends
	// requests and tokens are what the provider's headers said remains.
	requests, tokens budget
	// tpm, bucket and refilled pace by a configured tokens-per-minute.
	tpm, bucket float64
	refilled    time.Time
	// tokensPerRequest is a running estimate of a request's tokens.
	tokensPerRequest float64
}

// budget is what an x-ratelimit-remaining-* / -reset-* pair said, with
// x-ratelimit-limit-* when sent: when the reset comes, the budget is the
// limit again for as long as the longest reset seen (a provider's window),
// until an answer says otherwise.
type budget struct {
	valid     bool
	remaining float64
	reset     time.Time
	limit     float64
	period    time.Duration
	// after is the sequence number of the request whose answer said it:
	// requests sent after it count against remaining.
	after uint64
}

type waiter struct {
	ready   chan struct{}
	granted *permit
}

// permit is one admitted request.
type permit struct {
	seq      uint64
	inflight int // requests in flight when it was sent, itself included
	tokens   float64
}

// bound is the number of requests that may be in flight now.
func (l *limiter) bound() int {
	b := math.MaxInt
	if l.maxReq > 0 {
		b = l.maxReq
	}
	if l.window > 0 {
		b = min(b, max(1, int(l.window)))
	}
	return b
}

// pace is how long to wait before the next request may be sent, by what
// the provider said remains and by the configured tokens per minute.
func (l *limiter) pace(now time.Time) time.Duration {
	var d time.Duration
	est := l.estimate()
	check := func(b *budget, unit float64) {
		if !b.valid {
			return
		}
		if !now.Before(b.reset) {
			if b.limit <= 0 || b.period <= 0 {
				b.valid = false // a new window whose budget is unknown until the next answer
				return
			}
			b.remaining, b.after = b.limit, l.seq
			for !now.Before(b.reset) {
				b.reset = b.reset.Add(b.period)
			}
		}
		if b.remaining-float64(l.seq-b.after)*unit < unit {
			d = max(d, b.reset.Sub(now))
		}
	}
	check(&l.requests, 1)
	check(&l.tokens, est)
	if l.tpm > 0 {
		l.refill(now)
		if need := min(est, l.tpm) - l.bucket; need > 0 {
			d = max(d, time.Duration(need/l.tpm*float64(time.Minute)))
		}
	}
	return d
}

func (l *limiter) refill(now time.Time) {
	l.bucket = min(l.tpm, l.bucket+now.Sub(l.refilled).Minutes()*l.tpm)
	l.refilled = now
}

// estimate is the tokens the next request is expected to use.
func (l *limiter) estimate() float64 { return max(l.tokensPerRequest, 1) }

// admit takes a turn (under mu).
func (l *limiter) admit() *permit {
	l.inflight++
	l.seq++
	p := &permit{seq: l.seq, inflight: l.inflight, tokens: l.estimate()}
	if l.tpm > 0 {
		l.bucket -= p.tokens
	}
	return p
}

// canAdmit reports whether a request may be sent now (under mu); when
// only a pace holds it back, wake is when to look again.
func (l *limiter) canAdmit(now time.Time) (ok bool, wake time.Duration) {
	if l.inflight >= l.bound() {
		return false, 0
	}
	if d := l.pace(now); d > 0 {
		return false, d
	}
	return true, 0
}

// dispatch admits waiting requests, in arrival order, while there is room
// (under mu), and arms a timer when a pace holds the queue back.
func (l *limiter) dispatch() {
	for len(l.queue) > 0 {
		ok, wake := l.canAdmit(l.now())
		if !ok {
			if wake > 0 && l.timer == nil {
				l.timer = time.AfterFunc(wake, func() {
					l.mu.Lock()
					defer l.mu.Unlock()
					l.timer = nil
					l.dispatch()
				})
			}
			return
		}
		w := l.queue[0]
		l.queue = l.queue[1:]
		w.granted = l.admit()
		close(w.ready)
	}
}

// acquire waits for the request's turn; hook, when set, is told when the
// caller starts and stops waiting.
func (l *limiter) acquire(ctx context.Context, hook func(bool)) (*permit, error) {
	l.mu.Lock()
	if len(l.queue) == 0 {
		if ok, _ := l.canAdmit(l.now()); ok {
			p := l.admit()
			l.mu.Unlock()
			return p, nil
		}
	}
	w := &waiter{ready: make(chan struct{})}
	l.queue = append(l.queue, w)
	l.dispatch()
	l.mu.Unlock()
	l.owner.waits.Add(1)
	if hook != nil {
		hook(true)
		defer hook(false)
	}
	select {
	case <-w.ready:
		return w.granted, nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile: give the turn back
		l.finish(w.granted)
		l.dispatch()
	default:
		if i := slices.Index(l.queue, w); i >= 0 {
			l.queue = slices.Delete(l.queue, i, i+1)
		}
	}
	return nil, fmt.Errorf("waiting for a turn under the endpoint's rate limit: %w", context.Cause(ctx))
}

// finish ends p's turn (under mu).
func (l *limiter) finish(p *permit) {
	l.inflight--
}

// release ends p's turn with the answer it got (resp nil when none came)
// and adapts the limits to it. queued reports a refusal that the lowered
// window explains: p was sent with more requests in flight than the window
// now allows, so its retry needs no wait of its own; waiting its turn in
// the queue holds it until the provider has room (a retry after a fixed
// Retry-After would leave the provider idle meanwhile). A request refused
// when it was alone in flight is not queued:
// the limit is not on requests in flight, and the retry waits as the
// provider asked.
func (l *limiter) release(p *permit, resp *http.Response) (queued bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.finish(p)
	if resp != nil {
		now := l.now()
		switch {
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
			l.owner.refused.Add(1)
			level := l.refusedAt()
			l.shrink(p, level)
			queued = level > 1 && float64(level) > l.window
		case resp.StatusCode < 300:
			l.grow(p)
		}
		l.observe(p, resp.Header, now)
	}
	l.dispatch()
	return queued
}

// refusedAt is how many requests the provider held when it refused one,
// that one included (called once it is finished): what is in flight now
// that its refusal came back, not what was in flight when it was sent.
// Requests sent together reach the provider in any order, so one sent
// early may be refused for ones sent after it (at a run's start, when
// --concurrency requests leave at once, counting at sending took the
// window down to the first few), and one sent late counted the refused
// ones still on their way back. A refusal comes back at once, while the
// requests the provider serves are still in flight.
func (l *limiter) refusedAt() int {
	return l.inflight + 1
}

// shrink is the multiplicative decrease after p was refused with level
// requests in flight (refusedAt). The provider was still serving the
// others (it refused p for them), so the window drops to that many, and
// at least by a tenth, once per window: the requests sent before the last
// decrease were refused under the old window, and only lower it further
// to what they saw in flight.
func (l *limiter) shrink(p *permit, level int) {
	seen := float64(level - 1)
	if p.seq <= l.decreasedAt {
		l.window = max(1, min(l.window, seen))
		return
	}
	w := float64(level)
	if l.window > 0 {
		w = min(w, l.window)
	}
	if l.maxReq > 0 {
		w = min(w, float64(l.maxReq))
	}
	l.window = max(1, min(seen, decrease*w))
	l.decreasedAt = l.seq
}

// grow is the additive increase after p succeeded: one request per window
// of successes, while the window is what holds requests back.
func (l *limiter) grow(p *permit) {
	if l.window <= 0 || float64(p.inflight) < l.window-1 {
		return
	}
	l.window += 1 / l.window
	if l.maxReq > 0 {
		l.window = min(l.window, float64(l.maxReq))
	}
}

// observe reads the provider's x-ratelimit-remaining-* and -reset-*
// headers (OpenAI, Groq and others send them), keeping the freshest.
func (l *limiter) observe(p *permit, h http.Header, now time.Time) {
	for _, b := range []struct {
		kind string
		into *budget
	}{{"requests", &l.requests}, {"tokens", &l.tokens}} {
		rem, err := strconv.ParseFloat(strings.TrimSpace(h.Get("X-Ratelimit-Remaining-"+b.kind)), 64)
		if err != nil || rem < 0 {
			continue
		}
		reset, ok := parseReset(h.Get("X-Ratelimit-Reset-"+b.kind), now)
		if !ok || !reset.After(now) {
			continue
		}
		if cur := b.into; cur.valid && now.Before(cur.reset) && !reset.After(cur.reset.Add(cur.period/2)) &&
			rem-float64(l.seq-p.seq) > cur.remaining-float64(l.seq-cur.after) {
			// The same window, and an answer that leaves more: answers
			// come back out of order, so the one that leaves the least
			// is the one that counted the most requests.
			continue
		}
		limit, _ := strconv.ParseFloat(strings.TrimSpace(h.Get("X-Ratelimit-Limit-"+b.kind)), 64)
		period := max(b.into.period, reset.Sub(now))
		*b.into = budget{valid: true, remaining: rem, reset: reset, after: p.seq, limit: max(limit, 0), period: period}
	}
}

// parseReset reads a reset as providers send it: a Go-style duration
// ("1s", "6m0s", "20ms"), seconds ("12", "0.5") or an RFC 3339 time.
func parseReset(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	if d, err := time.ParseDuration(v); err == nil {
		return now.Add(d), true
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 1e9 {
		return now.Add(time.Duration(s * float64(time.Second))), true
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// settle records the tokens p's request used, for the token pace.
func (l *limiter) settle(p *permit, tokens int) {
	if tokens <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := float64(tokens)
	if l.tokensPerRequest == 0 {
		l.tokensPerRequest = t
	} else {
		l.tokensPerRequest = 0.8*l.tokensPerRequest + 0.2*t
	}
	if l.tpm > 0 {
		l.bucket -= t - p.tokens
	}
}
