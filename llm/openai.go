package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/agenteval/agenteval/redact"
)

// Defaults of [OpenAIConfig].
const (
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	DefaultAPIKeyEnv     = "OPENAI_API_KEY"
	// BaseURLEnv names the environment variable that supplies the base URL
	// when OpenAIConfig.BaseURL is empty, as in OpenAI's own SDKs.
	BaseURLEnv        = "OPENAI_BASE_URL"
	DefaultTimeout    = 60 * time.Second
	DefaultMaxRetries = 3
	DefaultBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second
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
	// Empty means $OPENAI_BASE_URL, else DefaultOpenAIBaseURL.
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
	// the caller's context bounds that. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is repeated (429, 408,
	// 5xx, transport errors, attempt timeouts). Zero means DefaultMaxRetries;
	// a negative value disables retries, for callers that want to fail fast.
	MaxRetries int
	// Backoff is the first retry's base wait; later waits double, up to
	// MaxBackoff, with jitter. A server's Retry-After is honoured when it is
	// longer, but never beyond MaxBackoff, so that one header cannot stall a
	// whole evaluation. Zero means DefaultBackoff / DefaultMaxBackoff.
	Backoff    time.Duration
	MaxBackoff time.Duration
	// HTTPClient sends the requests; nil means a client without its own
	// timeout (Timeout applies per attempt through the context).
	HTTPClient *http.Client
	// MaxConcurrent bounds the requests this model has in flight at once,
	// across all its callers, so that a wide evaluation run queues here
	// instead of drawing a storm of 429s. Zero means no bound.
	MaxConcurrent int
	// OnRetry, when set, is called before each retry wait with the number
	// of the attempt that failed (from 1), the wait and the error, so that
	// a runner can show retries instead of looking stuck. It must be safe
	// for concurrent use.
	OnRetry func(attempt int, wait time.Duration, err error)
}

// OpenAI is a [Model] served by an OpenAI-compatible chat-completions
// endpoint. It is safe for concurrent use.
type OpenAI struct {
	endpoint   string
	key        string
	model      string
	timeout    time.Duration
	maxRetries int
	backoff    time.Duration
	maxBackoff time.Duration
	client     *http.Client
	slots      chan struct{} // nil when MaxConcurrent is 0
	// secrets masks the key in every error text: providers echo parts of
	// a bad key back ("Incorrect API key provided: sk-...") and transport
	// errors can quote request details.
	secrets *redact.Redactor
	onRetry func(attempt int, wait time.Duration, err error)
}

// NewOpenAI returns a model for the endpoint cfg describes. It reads the
// environment once, here, so later changes to it do not affect the model.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm: OpenAIConfig.Model is required")
	}
	base := cfg.BaseURL
	if base == "" {
		base = os.Getenv(BaseURLEnv)
	}
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("llm: base URL %q must start with http:// or https://", base)
	}
	key := cfg.APIKey
	if key == "" {
		env := cfg.APIKeyEnv
		if env == "" {
			env = DefaultAPIKeyEnv
		}
		key = os.Getenv(env)
	}
	m := &OpenAI{
		endpoint:   strings.TrimRight(base, "/") + "/chat/completions",
		key:        key,
		model:      cfg.Model,
		timeout:    orDefault(cfg.Timeout, DefaultTimeout),
		maxRetries: cfg.MaxRetries,
		backoff:    orDefault(cfg.Backoff, DefaultBackoff),
		maxBackoff: orDefault(cfg.MaxBackoff, DefaultMaxBackoff),
		client:     cfg.HTTPClient,
		secrets:    redact.New(key),
	}
	switch {
	case m.maxRetries == 0:
		m.maxRetries = DefaultMaxRetries
	case m.maxRetries < 0:
		m.maxRetries = 0
	}
	if m.maxBackoff < m.backoff {
		m.maxBackoff = m.backoff
	}
	if m.client == nil {
		m.client = &http.Client{}
	}
	if cfg.MaxConcurrent < 0 {
		return nil, fmt.Errorf("llm: MaxConcurrent %d is negative", cfg.MaxConcurrent)
	}
	if cfg.MaxConcurrent > 0 {
		m.slots = make(chan struct{}, cfg.MaxConcurrent)
	}
	m.onRetry = cfg.OnRetry
	return m, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Name returns the configured model name; the judge keys its cache on it.
func (m *OpenAI) Name() string { return m.model }

// Complete sends req, retrying temporary failures. The returned error is an
// [*APIError] (possibly wrapped) when the endpoint answered with an error,
// and wraps ctx.Err() when the caller gave up.
func (m *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	body, err := json.Marshal(toWire(m.model, req))
	if err != nil {
		return Response{}, fmt.Errorf("llm: encode request: %w", err)
	}
	var lastErr error
	attempt := 1
	for ; ; attempt++ {
		resp, wait, err := m.attempt(ctx, body)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			return Response{}, fmt.Errorf("llm: %w (last error: %w)", ctx.Err(), lastErr)
		}
		if wait < 0 || attempt > m.maxRetries {
			break
		}
		d := backoff(attempt, m.backoff, m.maxBackoff)
		if wait > d {
			d = min(wait, m.maxBackoff)
		}
		if m.onRetry != nil {
			m.onRetry(attempt, d, lastErr)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return Response{}, fmt.Errorf("llm: %w while waiting to retry (last error: %w)", ctx.Err(), lastErr)
		case <-t.C:
		}
	}
	if attempt == 1 {
		return Response{}, lastErr
	}
	return Response{}, fmt.Errorf("llm: gave up after %d attempts: %w", attempt, lastErr)
}

// attempt makes one HTTP request. wait is negative when the failure is final
// (not worth retrying) and otherwise the minimum wait the server asked for.
func (m *OpenAI) attempt(ctx context.Context, body []byte) (Response, time.Duration, error) {
	if m.slots != nil {
		// The slot is held for one attempt, not across retry waits, so a
		// rate-limited caller does not block others while it sleeps.
		select {
		case m.slots <- struct{}{}:
			defer func() { <-m.slots }()
		case <-ctx.Done():
			return Response{}, -1, fmt.Errorf("llm: waiting for a request slot: %w", ctx.Err())
		}
	}
	actx, cancel := context.WithTimeout(ctx, m.timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, m.endpoint, bytes.NewReader(body))
	if err != nil {
		return Response{}, -1, fmt.Errorf("llm: build request: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if m.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+m.key)
	}
	hresp, err := m.client.Do(hreq)
	if err != nil {
		if ctx.Err() == nil && actx.Err() != nil {
			return Response{}, 0, fmt.Errorf("llm: attempt timed out after %s: %w", m.timeout, context.DeadlineExceeded)
		}
		// Transport errors (reset, refused, EOF) are usually transient.
		return Response{}, 0, errors.New(m.secrets.String("llm: " + err.Error()))
	}
	defer hresp.Body.Close()

	if hresp.StatusCode != http.StatusOK {
		apiErr := m.apiError(hresp)
		if !retryableStatus(hresp.StatusCode) {
			return Response{}, -1, apiErr
		}
		wait, _ := retryAfter(hresp.Header, time.Now())
		return Response{}, wait, apiErr
	}
	var w wireResponse
	if err := json.NewDecoder(io.LimitReader(hresp.Body, maxResponseBody)).Decode(&w); err != nil {
		if ctx.Err() == nil && actx.Err() != nil {
			return Response{}, 0, fmt.Errorf("llm: attempt timed out after %s: %w", m.timeout, context.DeadlineExceeded)
		}
		// A 200 with a body that is not a chat completion is a broken
		// proxy or endpoint, not a transient state.
		return Response{}, -1, fmt.Errorf("llm: decode response from %s: %w", m.endpoint, err)
	}
	r, err := fromWire(w)
	if err != nil {
		return Response{}, -1, err
	}
	return r, 0, nil
}

func (m *OpenAI) apiError(hresp *http.Response) *APIError {
	raw, _ := io.ReadAll(io.LimitReader(hresp.Body, maxErrorBody))
	e := &APIError{StatusCode: hresp.StatusCode}
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
		if len(e.Message) > 300 {
			e.Message = strings.ToValidUTF8(e.Message[:300], "") + "..."
		}
	}
	e.Message = m.secrets.String(e.Message)
	return e
}
