package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/httpretry"
	"github.com/agenteval/agenteval/internal/throttle"
	"github.com/agenteval/agenteval/redact"
)

// Defaults of [OpenAIConfig].
const (
	defaultOpenAIBaseURL = "https://api.openai.com/v1"
	defaultAPIKeyEnv     = "OPENAI_API_KEY"
	// baseURLEnv names the environment variable that supplies the base URL
	// when OpenAIConfig.BaseURL is empty, as in OpenAI's own SDKs.
	baseURLEnv        = "OPENAI_BASE_URL"
	defaultTimeout    = 60 * time.Second
	defaultBackoff    = 500 * time.Millisecond
	defaultMaxBackoff = 30 * time.Second
	// defaultRetryDeadline is how long a call keeps retrying (429, 5xx,
	// transport errors) when OpenAIConfig.RetryDeadline is zero: generous,
	// so that a rate limit slows a run down instead of losing its jobs
	// while the provider keeps answering.
	defaultRetryDeadline = 10 * time.Minute
)

// maxErrorBody bounds how much of an error response is read, so a proxy that
// answers with a large HTML page cannot balloon memory or error messages.
// maxResponseBody bounds a successful one for the same reason; no chat
// completion comes near it.
const (
	maxErrorBody    = 64 << 10
	maxResponseBody = 32 << 20
)

// OpenAIConfig configures [NewOpenAI]. Only Model is required.
type OpenAIConfig struct {
	// BaseURL is the API root, for example "http://localhost:11434/v1".
	// Empty means $OPENAI_BASE_URL, else defaultOpenAIBaseURL.
	BaseURL string
	// APIKey is sent as a bearer token. Empty means the environment
	// variable named by APIKeyEnv; if that is empty too, no Authorization
	// header is sent (local servers often need none).
	APIKey string
	// APIKeyEnv names the variable the key is read from (default
	// OPENAI_API_KEY).
	APIKeyEnv string
	// Model is the model name sent with every request.
	Model string
	// Timeout bounds each HTTP attempt, not the whole call with its retries;
	// the caller's context bounds that. Zero means defaultTimeout.
	Timeout time.Duration
	// MaxRetries bounds how many times a failed attempt is repeated (429,
	// 408, 5xx, transport errors, attempt timeouts). Zero means no bound
	// on the count: retries are bounded by RetryDeadline instead. A
	// negative value disables retries, for callers that want to fail fast.
	MaxRetries int
	// RetryDeadline bounds the time a call spends retrying: no retry is
	// made whose wait would end later than RetryDeadline after the call's
	// first attempt. Zero means 10 minutes; the
	// caller's context can end the call sooner.
	RetryDeadline time.Duration
	// Backoff is the first retry's base wait; later waits double, up to
	// MaxBackoff. A server's Retry-After is honoured when it is longer,
	// but never beyond MaxBackoff, so that one header cannot stall a
	// whole evaluation. Each wait is drawn uniformly between zero and
	// that ("full jitter"): clients refused together do not come back
	// together, and the retry then waits its turn under the endpoint's
	// limiter (see Limits). Zero means defaultBackoff / defaultMaxBackoff.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// HTTPClient sends the requests; nil means a client without its own
	// timeout (Timeout applies per attempt through the context).
	HTTPClient *http.Client
	// Limits holds the rate limiters this model shares with the other
	// model clients of a run (see [Limits]): every client built with the
	// same Limits and the same base URL, key and model waits its turn
	// under one adaptive limit. Nil gives the model limiters of its own.
	Limits *Limits
	// MaxRequests bounds the requests in flight at once to this model's
	// endpoint, across every client sharing its Limits, so that a wide
	// evaluation run queues here instead of drawing a storm of 429s. Zero
	// means no configured bound: the limiter still learns one from 429
	// and 503 answers.
	MaxRequests int
	// TokensPerMinute, when the provider's token rate limit is known,
	// paces requests to stay under it. Zero means unknown (the provider's
	// x-ratelimit-*-tokens headers still pace when it sends them).
	TokensPerMinute int
	// OnRetry, when set, is called before each retry wait with the number
	// of the attempt that failed (from 1), the wait and the error, so that
	// a runner can show retries instead of looking stuck. It must be safe
	// for concurrent use.
	OnRetry func(attempt int, wait time.Duration, err error)
}

// openAI is the [Model] NewOpenAI returns.
type openAI struct {
	endpoint string
	key      string
	model    string
	// client sends through the one retry transport (internal/httpretry),
	// which waits out 429, 408, 5xx, transport errors and attempt timeouts.
	client *http.Client
	// base is the API root; with key and model it names the endpoint's
	// limiter in limits, which known configures.
	base   string
	limits *Limits
	known  EndpointLimits
	// secrets masks the key in every error text: providers echo parts of
	// a bad key back ("Incorrect API key provided: sk-...") and transport
	// errors can quote request details.
	secrets *redact.Redactor
}

// NewOpenAI returns a [Model] served by the OpenAI-compatible
// chat-completions endpoint cfg describes. It is safe for concurrent use,
// names itself by cfg.Model (a [Namer]: the judge keys its cache on the
// name), and retries temporary failures; its errors are an [*APIError]
// (possibly wrapped) when the endpoint answered with an error, and wrap
// ctx.Err() when the caller gave up. NewOpenAI reads the environment once,
// here, so later changes to it do not affect the model.
func NewOpenAI(cfg OpenAIConfig) (Model, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm: OpenAIConfig.Model is required")
	}
	base := cfg.BaseURL
	if base == "" {
		base = os.Getenv(baseURLEnv)
	}
	if base == "" {
		base = defaultOpenAIBaseURL
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("llm: base URL %q must start with http:// or https://", base)
	}
	key := cfg.APIKey
	if key == "" {
		env := cfg.APIKeyEnv
		if env == "" {
			env = defaultAPIKeyEnv
		}
		key = os.Getenv(env)
	}
	known := EndpointLimits{MaxRequests: cfg.MaxRequests, TokensPerMinute: cfg.TokensPerMinute}
	if err := known.validate(); err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	limits := cfg.Limits
	if limits == nil {
		limits = NewLimits(EndpointLimits{})
	}
	base = strings.TrimRight(base, "/")
	m := &openAI{
		endpoint: base + "/chat/completions",
		key:      key,
		model:    cfg.Model,
		secrets:  redact.New(key),
		base:     base,
		limits:   limits,
		known:    known,
	}
	attempts := 0 // no bound on the count: the deadline bounds retrying
	switch {
	case cfg.MaxRetries > 0:
		attempts = 1 + cfg.MaxRetries
	case cfg.MaxRetries < 0:
		attempts = 1
	}
	backoff := orDefault(cfg.Backoff, defaultBackoff)
	client := http.Client{}
	if cfg.HTTPClient != nil {
		client = *cfg.HTTPClient
	}
	next := client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	client.Transport = &httpretry.Transport{Base: next, Policy: httpretry.Policy{
		Attempts: attempts,
		Deadline: orDefault(cfg.RetryDeadline, defaultRetryDeadline),
		Base:     backoff,
		// A server's Retry-After is honoured up to MaxBackoff, never
		// beyond it, so that one header cannot stall a whole evaluation.
		MaxWait:        max(orDefault(cfg.MaxBackoff, defaultMaxBackoff), backoff),
		ClampWait:      true,
		AttemptTimeout: orDefault(cfg.Timeout, defaultTimeout),
		Classify:       m.classify,
		OnRetry:        cfg.OnRetry,
		FullJitter:     true,
		Gate:           gate,
		Sleep:          m.sleep,
	}}
	m.client = &client
	return m, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// call is what a Complete call shares with its attempts through its
// context: the endpoint's limiter and the turn it holds.
type call struct {
	limiter *limiter
	hook    func(bool)
	permit  *permit
}

type callKey struct{}

// gate waits for each attempt's turn under the endpoint's limiter, outside
// the attempt's timeout, and tells the limiter how the attempt went.
func gate(r *http.Request) (func(*http.Response, httpretry.Verdict) bool, error) {
	c, _ := r.Context().Value(callKey{}).(*call)
	if c == nil {
		return nil, nil
	}
	p, err := c.limiter.acquire(r.Context(), c.hook)
	if err != nil {
		return nil, err
	}
	c.permit = p
	return func(resp *http.Response, _ httpretry.Verdict) bool { return c.limiter.release(p, resp) }, nil
}

// sleep is the wait before a retry, counted as a throttle wait and told
// to the caller's throttle hook.
func (m *openAI) sleep(ctx context.Context, d time.Duration) error {
	m.limits.waits.Add(1)
	if hook := throttle.Hook(ctx); hook != nil {
		hook(true)
		defer hook(false)
	}
	return httpretry.Sleep(ctx, d)
}

// classify reads every answer whole within its attempt (so a timeout while
// reading is retried like one while waiting) and judges it: 429, 408 and
// 5xx are temporary, after the server's Retry-After; so are transport
// errors and attempt timeouts.
func (m *openAI) classify(resp *http.Response, err error) httpretry.Verdict {
	if err != nil {
		return httpretry.Verdict{Retry: true, Reason: m.maskErr(err)}
	}
	limit := int64(maxResponseBody)
	if resp.StatusCode != http.StatusOK {
		limit = maxErrorBody
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, limit))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return httpretry.Verdict{Retry: true, Reason: m.maskErr(rerr)}
	}
	if resp.StatusCode == http.StatusOK || !retryableStatus(resp.StatusCode) {
		return httpretry.Verdict{}
	}
	after, _ := httpretry.RetryAfter(resp.Header, time.Now())
	return httpretry.Verdict{Retry: true, After: after, Reason: m.apiError(resp.StatusCode, body)}
}

// Name returns the configured model name; the judge keys its cache on it.
func (m *openAI) Name() string { return m.model }

// Complete sends req, retrying temporary failures. The returned error is an
// [*APIError] (possibly wrapped) when the endpoint answered with an error,
// and wraps ctx.Err() when the caller gave up.
func (m *openAI) Complete(ctx context.Context, req Request) (Response, error) {
	resp, err := m.complete(ctx, req)
	if err != nil {
		noteFailure(ctx, err) // the job's record says why its evaluation got no answer
	}
	return resp, err
}

func (m *openAI) complete(ctx context.Context, req Request) (Response, error) {
	body, err := json.Marshal(toWire(m.model, req))
	if err != nil {
		return Response{}, fmt.Errorf("llm: encode request: %w", err)
	}
	ctx, attempts := httpretry.WithAttempts(ctx)
	model := m.model
	if req.Model != "" {
		model = req.Model
	}
	c := &call{limiter: m.limits.limiter(m.base, m.key, model, m.known), hook: throttle.Hook(ctx)}
	ctx = context.WithValue(ctx, callKey{}, c)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, m.endpoint, bytes.NewReader(body))
	if err != nil {
		return Response{}, fmt.Errorf("llm: build request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if m.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+m.key)
	}
	resp, err := m.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return Response{}, fmt.Errorf("llm: %w", m.maskErr(unwrapURL(err)))
		}
		return Response{}, m.gaveUp(attempts(), m.maskErr(unwrapURL(err)))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return Response{}, m.gaveUp(attempts(), m.apiError(resp.StatusCode, raw))
	}
	var w wireResponse
	if err := json.NewDecoder(resp.Body).Decode(&w); err != nil {
		// A 200 with a body that is not a chat completion is a broken
		// proxy or endpoint, not a transient state.
		return Response{}, fmt.Errorf("llm: decode response from %s: %w", m.endpoint, err)
	}
	out, err := fromWire(w)
	if err == nil && c.permit != nil {
		c.limiter.settle(c.permit, out.Usage.TotalTokens)
	}
	return out, err
}

// gaveUp reports the last error of a call that took attempts tries.
func (m *openAI) gaveUp(attempts int, err error) error {
	if attempts <= 1 {
		if _, isAPI := err.(*APIError); isAPI {
			return err
		}
		return fmt.Errorf("llm: %w", err)
	}
	return fmt.Errorf("llm: gave up after %d attempts: %w", attempts, err)
}

// unwrapURL drops the *url.Error http.Client adds (its text repeats the
// method and endpoint), keeping what it wraps.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// maskErr is err with the key masked in its text, still unwrapping to err.
func (m *openAI) maskErr(err error) error {
	if m.key == "" {
		return err
	}
	return &maskedError{text: m.secrets.String(err.Error()), err: err}
}

type maskedError struct {
	text string
	err  error
}

func (e *maskedError) Error() string { return e.text }
func (e *maskedError) Unwrap() error { return e.err }

func (m *openAI) apiError(status int, raw []byte) *APIError {
	e := &APIError{StatusCode: status}
	var body wireErrorBody
	if json.Unmarshal(raw, &body) == nil && body.Error != nil {
		e.Type = body.Error.Type
		e.Message = body.Error.Message
		switch c := body.Error.Code.(type) {
		case string:
			e.Code = c
		case float64:
			e.Code = fmt.Sprint(c)
		}
	} else {
		e.Message = strings.TrimSpace(string(raw))
		e.Message = redact.Head(strings.ToValidUTF8(e.Message, ""), 300)
	}
	e.Message = m.secrets.String(e.Message)
	return e
}
