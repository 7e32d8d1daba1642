package github

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxRateLimitRetries bounds how often one request is retried after rate
// limit refusals, however short the waits.
const maxRateLimitRetries = 3

// secondaryLimitWait is GitHub's advice for a secondary rate limit that
// comes without retry-after or reset headers: wait at least a minute.
const secondaryLimitWait = time.Minute

// transport wraps the caller's RoundTripper. It waits out rate limits
// (honouring Retry-After and x-ratelimit-reset, bounded by maxWait and
// cancellable through the request context) and records each response's
// status and error body in the request's capture, because githubv4 drops
// GraphQL error types and HTTP statuses.
type transport struct {
	base    http.RoundTripper
	maxWait time.Duration
	logger  *slog.Logger
	sleep   func(ctx context.Context, d time.Duration) error
	now     func() time.Time
}

// capture receives what the transport saw of the last response of one
// Execute call.
type capture struct {
	mu      sync.Mutex
	status  int
	message string     // REST "message" field
	errors  []apiError // GraphQL errors
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func (c *capture) set(status int, message string, errs []apiError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status, c.message, c.errors = status, message, errs
}

func (c *capture) get() (int, string, []apiError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status, c.message, c.errors
}

type captureKey struct{}

func withCapture(ctx context.Context) (context.Context, *capture) {
	c := &capture{}
	return context.WithValue(ctx, captureKey{}, c), c
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RoundTrip sends req, retrying after rate-limit refusals.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(ctx)
			if req.Body != nil && req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		body, errs, message := t.inspect(resp)
		wait, reset, limited := t.rateLimit(resp, errs, message)
		if !limited {
			if c, ok := ctx.Value(captureKey{}).(*capture); ok {
				c.set(resp.StatusCode, message, errs)
			}
			if body != nil {
				resp.Body = io.NopCloser(bytes.NewReader(body))
			}
			return resp, nil
		}
		if body == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		}
		resp.Body.Close()
		// A body that cannot be replayed cannot be retried.
		replayable := req.Body == nil || req.Body == http.NoBody || req.GetBody != nil
		if attempt >= maxRateLimitRetries || wait > t.maxWait || !replayable {
			return nil, &RateLimitError{Status: resp.StatusCode, Reset: reset, Wait: wait, MaxWait: t.maxWait}
		}
		t.logger.LogAttrs(ctx, slog.LevelInfo, "github rate limited; waiting",
			slog.Int("status", resp.StatusCode), slog.String("path", req.URL.Path),
			slog.Duration("wait", wait), slog.Int("attempt", attempt+1))
		if err := t.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// inspect reads JSON bodies (GitHub's error and GraphQL bodies are small)
// and extracts the REST message and GraphQL errors. Other bodies (logs,
// diffs) are left unread; body is nil then.
func (t *transport) inspect(resp *http.Response) (body []byte, errs []apiError, message string) {
	if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		return nil, nil, ""
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		// Hand the partial body on; the decoder will report the problem.
		return b, nil, ""
	}
	var parsed struct {
		Message string          `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(b, &parsed) == nil {
		message = parsed.Message
		// REST validation errors put objects in "errors" too; only GraphQL
		// ones have a "message" per entry, which is all we read.
		_ = json.Unmarshal(parsed.Errors, &errs)
	}
	return b, errs, message
}

// rateLimit decides whether resp is a rate-limit refusal and how long to
// wait before retrying.
func (t *transport) rateLimit(resp *http.Response, errs []apiError, message string) (time.Duration, time.Time, bool) {
	now := t.now()
	h := resp.Header
	graphQLLimited := false
	for _, e := range errs {
		if e.Type == "RATE_LIMITED" {
			graphQLLimited = true
		}
	}
	switch {
	case resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests:
	case graphQLLimited:
	default:
		return 0, time.Time{}, false
	}
	if ra := h.Get("Retry-After"); ra != "" {
		if secs, err := strconv.Atoi(strings.TrimSpace(ra)); err == nil && secs >= 0 {
			d := time.Duration(secs) * time.Second
			return d, now.Add(d), true
		}
		if at, err := http.ParseTime(ra); err == nil {
			return max(at.Sub(now), 0), at, true
		}
	}
	if h.Get("X-Ratelimit-Remaining") == "0" {
		if secs, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
			reset := time.Unix(secs, 0)
			return max(reset.Sub(now), 0), reset, true
		}
	}
	if resp.StatusCode == http.StatusTooManyRequests || graphQLLimited ||
		strings.Contains(strings.ToLower(message), "rate limit") {
		return secondaryLimitWait, now.Add(secondaryLimitWait), true
	}
	// A 403 without rate-limit signs is a permission error.
	return 0, time.Time{}, false
}
