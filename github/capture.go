package github

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
		// The body is bounded (see bounded): an endless one ends here
		// with ErrResponseTooLarge, which the reader of the copy sees too.
		b, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		var rest io.Reader = bytes.NewReader(b)
		if rerr != nil {
			rest = io.MultiReader(rest, errReader{rerr})
		} else {
			message, errs = parseErrors(b)
		}
		resp.Body = io.NopCloser(rest)
	}
	c.set(resp.StatusCode, message, errs)
	return resp, nil
}

// bytesJSON reports whether resp is a JSON answer (GitHub's error and
// GraphQL bodies are small); other bodies (logs, diffs) are left unread.
func bytesJSON(resp *http.Response) bool {
	return bytes.Contains([]byte(resp.Header.Get("Content-Type")), []byte("json"))
}

// MaxResponseBytes bounds the body of one GitHub response the client
// reads (a GraphQL page, a REST resource, an error): a server that sends
// more (an endless body) fails the request with ErrResponseTooLarge
// instead of filling memory. GitHub's own pages are far smaller.
const MaxResponseBytes = 32 << 20

// maxMessageBytes bounds GitHub's wording of one error as an [Error]
// keeps it: a 20 MB error message would otherwise be copied into every
// record and line that reports the failure.
const maxMessageBytes = 1000

// ErrResponseTooLarge is a GitHub response whose body passed
// MaxResponseBytes.
var ErrResponseTooLarge = errors.New("github response too large")

// bounded caps the body of every response at MaxResponseBytes.
type bounded struct{ next http.RoundTripper }

func (t bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &boundedBody{rc: resp.Body, left: MaxResponseBytes, host: req.URL.Host}
	return resp, nil
}

// boundedBody reads at most left bytes of rc; past them, every read fails
// with ErrResponseTooLarge.
type boundedBody struct {
	rc   io.ReadCloser
	left int64
	host string
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more tells a body of exactly the cap from a longer one.
		var one [1]byte
		if n, err := b.rc.Read(one[:]); n == 0 && err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("%w: the response from %s passed %d bytes", ErrResponseTooLarge, b.host, int64(MaxResponseBytes))
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

// errReader fails every read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
