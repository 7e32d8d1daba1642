package llm

import (
	"fmt"
	"net/http"
	"strings"
)

// APIError is an error response from a model endpoint. Callers branch on it
// with errors.As, for example to tell a bad key (401) from a missing model
// (404) or a rate limit that outlived the retries (429).
type APIError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Type and Code are the provider's classification, when it sends one
	// (OpenAI: "invalid_request_error", "rate_limit_exceeded", ...).
	Type string
	Code string
	// Message is the provider's explanation, with any API key redacted.
	Message string
}

// Error describes the failure in one line.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model API: %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Type != "" {
		fmt.Fprintf(&b, " (%s)", e.Type)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

func retryableStatus(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code >= 500
}
