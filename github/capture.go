package github

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

// capture receives what the executor's transport saw of the last response
// of one Execute call: githubv4 drops GraphQL error types and HTTP statuses,
// which the typed errors need.
type capture struct {
	mu      sync.Mutex
	status  int
	message string     // REST "message" field
	errors  []apiError // GraphQL errors
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

// capturing records each final response (after the client's retries) in
// the request's capture.
type capturing struct{ next http.RoundTripper }

// RoundTrip sends req and records the status, message and errors of what
// came back, leaving the body readable.
func (t capturing) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	c, ok := req.Context().Value(captureKey{}).(*capture)
	if !ok {
		return resp, nil
	}
	var message string
	var errs []apiError
	if bytesJSON(resp) {
		b, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
		if rerr == nil {
			message, errs = parseErrors(b)
		}
	}
	c.set(resp.StatusCode, message, errs)
	return resp, nil
}

// bytesJSON reports whether resp is a JSON answer (GitHub's error and
// GraphQL bodies are small); other bodies (logs, diffs) are left unread.
func bytesJSON(resp *http.Response) bool {
	return bytes.Contains([]byte(resp.Header.Get("Content-Type")), []byte("json"))
}
