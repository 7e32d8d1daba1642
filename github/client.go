package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/shurcooL/githubv4"

	"github.com/agenteval/agenteval/internal/httpretry"
	"github.com/agenteval/agenteval/redact"
)

// GitHub's endpoints.
const (
	// DefaultGraphQLURL is GitHub's GraphQL endpoint.
	DefaultGraphQLURL = "https://api.github.com/graphql"
	// defaultRESTURL is GitHub's REST API root.
	defaultRESTURL = "https://api.github.com"
)

// secondaryLimitWait is GitHub's advice for a secondary rate limit that
// comes without retry-after or reset headers: wait at least a minute.
const secondaryLimitWait = time.Minute

// maxPeek bounds how much of a JSON answer is read to look for a rate limit.
const maxPeek = 8 << 20

// Config configures a Client. The zero value talks to api.github.com
// without a token, with the default retries.
type Config struct {
	// Token is sent as a bearer token with every request ("" sends none).
	// It never appears in errors or logs.
	Token string
	// GraphQLURL is the GraphQL endpoint (DefaultGraphQLURL when empty;
	// https://HOST/api/graphql for GitHub Enterprise Server).
	GraphQLURL string
	// RESTURL is the REST API root; empty derives it from GraphQLURL
	// (HOST/api/v3 for GitHub Enterprise Server, defaultRESTURL for GitHub).
	RESTURL string
	// Transport sends the requests (nil: http.DefaultTransport); the client
	// adds the token and the retries around it.
	Transport http.RoundTripper
	// Timeout bounds each attempt of a request (0: none).
	Timeout time.Duration
	// MaxAttempts bounds the tries of one request, the first included
	// (default 5).
	MaxAttempts int
	// BaseDelay is the first backoff, doubled on each retry with jitter
	// (default 500ms).
	BaseDelay time.Duration
	// MaxWait bounds every wait: a rate limit resetting later than this is
	// not waited for, the request fails with an *Error of kind ErrRateLimited (default 1m;
	// negative: never wait for a rate limit).
	MaxWait time.Duration
	// Logger receives retries (Info) and task runs (Debug); nil discards them.
	Logger *slog.Logger

	// sleep and now replace the clock in tests.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
}

// Client is one connection to GitHub: the endpoints, the token and the
// retries every request of the executor and the manager goes through. It
// is safe for concurrent use.
type Client struct {
	http       *http.Client
	gql        *githubv4.Client
	graphqlURL string
	rest       string
	logger     *slog.Logger
	maxWait    time.Duration
}

// NewClient returns a client configured by cfg.
func NewClient(cfg Config) *Client {
	if cfg.GraphQLURL == "" {
		cfg.GraphQLURL = DefaultGraphQLURL
	}
	rest := strings.TrimRight(cfg.RESTURL, "/")
	if rest == "" {
		rest = rESTURLFor(cfg.GraphQLURL)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	maxWait := cfg.MaxWait
	switch {
	case maxWait == 0:
		maxWait = time.Minute
	case maxWait < 0:
		maxWait = -1
	}
	now := cfg.now
	if now == nil {
		now = time.Now
	}
	base := cfg.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c := &Client{graphqlURL: cfg.GraphQLURL, rest: rest, logger: logger, maxWait: max(maxWait, 0)}
	retry := &httpretry.Transport{Base: bearer{token: cfg.Token, next: bounded{next: base}}, Policy: httpretry.Policy{
		Attempts:       cfg.MaxAttempts,
		Base:           cfg.BaseDelay,
		MaxWait:        maxWait,
		AttemptTimeout: cfg.Timeout,
		Classify:       func(resp *http.Response, err error) httpretry.Verdict { return classify(resp, err, now) },
		Limited: func(resp *http.Response, v httpretry.Verdict, wait time.Duration) error {
			return &Error{Kind: ErrRateLimited, Status: resp.StatusCode, Reset: now().Add(wait), Wait: wait, MaxWait: c.maxWait}
		},
		OnRetry: func(attempt int, wait time.Duration, reason error) {
			logger.LogAttrs(context.Background(), slog.LevelInfo, "github request failed; retrying",
				slog.String("reason", reason.Error()), slog.Duration("wait", wait), slog.Int("attempt", attempt))
		},
		Sleep: cfg.sleep,
		Now:   now,
	}}
	c.http = &http.Client{Transport: retry}
	c.gql = githubv4.NewEnterpriseClient(cfg.GraphQLURL, c.http)
	return c
}

// rESTURLFor derives the REST API root from a GraphQL endpoint:
// https://HOST/api/v3 for GitHub Enterprise Server's https://HOST/api/graphql,
// the endpoint's root for one ending in /graphql (githubtest), and
// defaultRESTURL for GitHub's and anything else.
func rESTURLFor(graphqlURL string) string {
	u := strings.TrimRight(graphqlURL, "/")
	if u == "" || u == DefaultGraphQLURL {
		return defaultRESTURL
	}
	if base, ok := strings.CutSuffix(u, "/api/graphql"); ok {
		return base + "/api/v3"
	}
	if base, ok := strings.CutSuffix(u, "/graphql"); ok {
		return base
	}
	return defaultRESTURL
}

// bearer adds the token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

// RoundTrip sends a copy of r carrying the Authorization header.
func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.token == "" {
		return b.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "bearer "+b.token)
	return b.next.RoundTrip(r)
}

// retryReason is why an attempt is repeated, for logs (never a URL's query
// or a header).
type retryReason struct {
	status  int
	path    string
	limited bool
}

func (r retryReason) Error() string {
	switch {
	case r.status == 0:
		return "network error"
	case r.limited:
		return fmt.Sprintf("rate limited (HTTP %d) on %s", r.status, r.path)
	}
	return fmt.Sprintf("HTTP %d on %s", r.status, r.path)
}

// classify says whether GitHub's answer is worth repeating: network errors,
// 500, 502, 503 and 504, and rate limits: 403 or 429 with Retry-After or
// x-ratelimit-remaining: 0, a 403 whose message speaks of a (secondary)
// rate limit, a 429, and a GraphQL answer whose errors have type
// RATE_LIMITED. A 403 without such signs is a permission error.
func classify(resp *http.Response, err error, now func() time.Time) httpretry.Verdict {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return httpretry.Verdict{}
		}
		return httpretry.Verdict{Retry: true, Reason: retryReason{}}
	}
	reason := retryReason{status: resp.StatusCode, path: resp.Request.URL.Path}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return httpretry.Verdict{Retry: true, Reason: reason}
	case http.StatusForbidden, http.StatusTooManyRequests:
		reason.limited = true
		if after, ok := httpretry.RetryAfter(resp.Header, now()); ok {
			return httpretry.Verdict{Retry: true, Limited: true, After: after, Reason: reason}
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			return httpretry.Verdict{Retry: true, Limited: true, Reason: reason}
		}
		if resp.Header.Get("X-Ratelimit-Remaining") == "0" {
			return httpretry.Verdict{Retry: true, Limited: true, Reason: reason}
		}
		if message, _ := peekJSON(resp); strings.Contains(strings.ToLower(message), "rate limit") {
			return httpretry.Verdict{Retry: true, Limited: true, After: secondaryLimitWait, Reason: reason}
		}
	case http.StatusOK:
		if _, errs := peekJSON(resp); rateLimited(errs) {
			reason.limited = true
			after, _ := httpretry.RetryAfter(resp.Header, now())
			return httpretry.Verdict{Retry: true, Limited: true, After: after, Reason: reason}
		}
	}
	return httpretry.Verdict{}
}

// peekJSON reads a JSON answer's REST message and GraphQL errors, leaving
// the body readable from the start; other answers (logs, diffs) are not read.
func peekJSON(resp *http.Response) (message string, errs []apiError) {
	if !strings.Contains(resp.Header.Get("Content-Type"), "json") {
		return "", nil
	}
	data, err := httpretry.Peek(resp, maxPeek)
	if err != nil {
		return "", nil
	}
	return parseErrors(data)
}

// parseErrors reads a REST message and GraphQL errors from a JSON body.
func parseErrors(data []byte) (message string, errs []apiError) {
	var parsed struct {
		Message string          `json:"message"`
		Errors  json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(data, &parsed) == nil {
		message = redact.Head(parsed.Message, maxMessageBytes)
		// REST validation errors put objects in "errors" too; only GraphQL
		// ones have a "message" per entry, which is all we read.
		_ = json.Unmarshal(parsed.Errors, &errs)
		for i := range errs {
			errs[i].Message = redact.Head(errs[i].Message, maxMessageBytes)
			errs[i].Type = redact.Head(errs[i].Type, 100)
		}
	}
	return message, errs
}

func rateLimited(errs []apiError) bool {
	for _, e := range errs {
		if e.Type == "RATE_LIMITED" {
			return true
		}
	}
	return false
}

// apiError is one GraphQL error as GitHub sends it.
type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}
