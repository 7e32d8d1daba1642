package githubfake

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
)

// Server is a fake GitHub API server. Create one with NewServer; point a
// client at GraphQLURL (GraphQL) and URL (REST base). All methods are safe
// for concurrent use, including while requests are being served.
type Server struct {
	// URL is the base URL of the server, without a trailing slash. It plays
	// the role of https://api.github.com: REST paths hang off it and
	// GraphQLURL is URL+"/graphql".
	URL string

	srv       *httptest.Server
	handler   http.Handler
	schema    *ast.Schema
	tb        testing.TB
	mutations map[string]mutationFunc

	// mu guards the model. Queries hold it for reading, mutations and
	// builders for writing, so a request sees one consistent state.
	mu sync.RWMutex
	st *state

	// ctl guards the control plane: token, rate-limit plan, request log and
	// the parsed-document cache.
	ctl      sync.Mutex
	tls      *httptest.Server  // EnterpriseHost's listener, once started
	tokens   map[string]string // accepted token -> login it acts as ("" = the viewer)
	limit    RateLimit
	requests []Request
	docs     map[string]*ast.QueryDocument
}

// Request is one entry of the server's request log.
type Request struct {
	// Method and Path are the HTTP method and URL path.
	Method string
	Path   string
	// Kind is "graphql" or "rest".
	Kind string
	// Operation names what was asked. For GraphQL it is the operation type
	// and the root fields, for example "query repository" or
	// "mutation createIssue"; for REST it is the route, for example
	// "GET /repos/{owner}/{repo}/actions/runs". A GraphQL document that
	// fails to parse or validate is logged as "invalid".
	Operation string
	// Document is the GraphQL document text, for telling apart queries
	// that share root fields (githubv4 sends no operation names). Empty for
	// REST requests.
	Document string
	// Status is the HTTP status the server answered with.
	Status int
}

// RateLimit describes a simulated rate-limit episode; see
// Server.SimulateRateLimit.
type RateLimit struct {
	// Requests is how many upcoming requests are refused.
	Requests int
	// Status is the HTTP status of a refusal: 403 (GitHub's primary rate
	// limit, the default) or 429.
	Status int
	// Reset is sent as x-ratelimit-reset (Unix seconds). Zero means one
	// second from the time of the refusal.
	Reset time.Time
	// RetryAfter, when positive, is also sent as a Retry-After header
	// (whole seconds, rounded up), as GitHub does for secondary limits.
	RetryAfter time.Duration
}

// NewServer starts a fake GitHub server and closes it when t's test ends.
// It starts empty apart from the viewer account "octocat"; add state with
// AddRepo, AddOrganization and AddUser.
//
// t may be nil (in examples and programs that are not tests): the caller
// must then Close the server, and builder misuse panics instead of failing
// a test.
func NewServer(t testing.TB) *Server {
	if t != nil {
		t.Helper()
	}
	s := &Server{schema: Schema(), tb: t, st: newState(), docs: map[string]*ast.QueryDocument{}, mutations: mutationTable()}
	s.st.ensureAccount(s.st.viewer)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /graphql", s.serveGraphQL)
	mux.HandleFunc("POST /api/graphql", s.serveGraphQL)
	s.routeREST(mux)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { writeRESTError(w, http.StatusNotFound, "Not Found") })
	s.handler = s.middleware(mux)
	s.srv = httptest.NewServer(s.handler)
	s.URL = s.srv.URL
	s.st.apiURL = s.URL
	if t != nil {
		t.Cleanup(s.Close)
	}
	return s
}

// fatalf reports builder misuse: through the test when there is one.
func (s *Server) fatalf(format string, args ...any) {
	if s.tb == nil {
		panic(fmt.Sprintf(format, args...))
	}
	s.tb.Helper()
	s.tb.Fatalf(format, args...)
}

// helper marks the caller as a test helper when there is a test.
func (s *Server) helper() {
	if s.tb != nil {
		s.tb.Helper()
	}
}

// Close shuts the server down. It is called automatically at the end of the
// test that created the server; calling it again is harmless.
func (s *Server) Close() {
	s.srv.Close()
	s.ctl.Lock()
	tls := s.tls
	s.ctl.Unlock()
	if tls != nil {
		tls.Close()
	}
}

// EnterpriseHost serves the same fake over HTTPS on a loopback port, laid
// out as GitHub Enterprise Server lays out its API (REST under /api/v3,
// GraphQL at /api/graphql), for programs that reach GitHub by host name
// over TLS only, such as gh (GH_HOST=host with GH_ENTERPRISE_TOKEN). It
// returns the host ("127.0.0.1:PORT") and the PEM of the listener's
// self-signed certificate, which the client must trust (SSL_CERT_FILE for
// a Go program such as gh). The listener starts on the first call and
// closes with the server.
func (s *Server) EnterpriseHost() (host string, certPEM []byte) {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	if s.tls == nil {
		s.tls = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if rest, ok := strings.CutPrefix(r.URL.Path, "/api/v3/"); ok {
				r = r.Clone(r.Context())
				r.URL.Path, r.URL.RawPath = "/"+rest, ""
			}
			s.handler.ServeHTTP(w, r)
		}))
	}
	u, _ := url.Parse(s.tls.URL)
	return u.Host, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.tls.Certificate().Raw})
}

// GraphQLURL returns the GraphQL endpoint, URL+"/graphql", which is what
// githubv4.NewEnterpriseClient expects.
func (s *Server) GraphQLURL() string { return s.URL + "/graphql" }

// Client returns a new HTTP client that talks to the server. It carries no
// token; set its Transport to one that adds the token when RequireToken is
// set (each call returns a distinct client, so doing so affects no other).
func (s *Server) Client() *http.Client {
	c := *s.srv.Client()
	return &c
}

// RequireToken makes the server answer 401 to every request whose
// Authorization header is not "bearer TOKEN" or "token TOKEN"; requests
// with the token act as the viewer. It replaces every token accepted so far
// (see AddToken); an empty token turns the check off again.
func (s *Server) RequireToken(token string) {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	s.tokens = nil
	if token != "" {
		s.tokens = map[string]string{token: ""}
	}
}

// AddToken accepts token as well as those accepted already, for requests
// acting as login: Query.viewer answers login, and what mutations create
// (comments, reviews, review threads, commits, resolutions) is authored by
// login. This is how a test gives a fixture a second identity, such as a
// reviewer whose threads the pull request's author then resolves. Once a
// token is added, requests without an accepted token get 401.
func (s *Server) AddToken(token, login string) {
	s.mu.Lock()
	s.st.ensureAccount(login)
	s.mu.Unlock()
	s.ctl.Lock()
	defer s.ctl.Unlock()
	// Copy on write: requests read the map without holding the lock.
	tokens := make(map[string]string, len(s.tokens)+1)
	for k, v := range s.tokens {
		tokens[k] = v
	}
	tokens[token] = login
	s.tokens = tokens
}

// SimulateRateLimit makes the server refuse the next rl.Requests requests the
// way GitHub does when a rate limit is exhausted: status 403 (or rl.Status)
// with x-ratelimit-remaining: 0, x-ratelimit-reset and, if set,
// Retry-After. Refused requests appear in the request log.
func (s *Server) SimulateRateLimit(rl RateLimit) {
	if rl.Status == 0 {
		rl.Status = http.StatusForbidden
	}
	s.ctl.Lock()
	defer s.ctl.Unlock()
	s.limit = rl
}

// SetViewer sets the login of the authenticated user (Query.viewer and the
// author of objects mutations create). The default is "octocat".
func (s *Server) SetViewer(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.viewer = login
	s.st.ensureAccount(login)
}

// Requests returns a copy of the request log, oldest first.
func (s *Server) Requests() []Request {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestCount returns how many logged requests have the given Operation
// (see Request.Operation); an empty operation counts every request.
func (s *Server) RequestCount(operation string) int {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	n := 0
	for _, r := range s.requests {
		if operation == "" || r.Operation == operation {
			n++
		}
	}
	return n
}

// ResetRequests empties the request log.
func (s *Server) ResetRequests() {
	s.ctl.Lock()
	defer s.ctl.Unlock()
	s.requests = nil
}

type requestInfoKey struct{}

// requestInfo lets handlers name the operation for the request log, and
// carries the login the request acts as ("" for the viewer).
type requestInfo struct {
	kind      string
	operation string
	document  string
	actor     string
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the status for the request log.
func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200 for the request log.
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// middleware logs every request and applies the token check and the
// simulated rate limit before any handler runs.
func (s *Server) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := &requestInfo{kind: "rest"}
		if strings.HasSuffix(r.URL.Path, "/graphql") {
			info.kind = "graphql"
		}
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			op := info.operation
			if op == "" {
				op = r.Method + " " + r.URL.Path
			}
			s.ctl.Lock()
			s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Kind: info.kind, Operation: op, Document: info.document, Status: sw.status})
			s.ctl.Unlock()
		}()

		// Log downloads (/_blobs/) stand for GitHub's blob storage, which
		// neither checks GitHub tokens nor counts against rate limits.
		blob := strings.HasPrefix(r.URL.Path, "/_blobs/")
		s.ctl.Lock()
		tokens := s.tokens
		s.ctl.Unlock()

		if len(tokens) > 0 && !blob {
			auth := r.Header.Get("Authorization")
			scheme, got, _ := strings.Cut(auth, " ")
			actor, known := tokens[got]
			switch {
			case auth == "":
				writeRESTError(sw, http.StatusUnauthorized, "Requires authentication")
				return
			case !strings.EqualFold(scheme, "bearer") && !strings.EqualFold(scheme, "token") || !known:
				writeRESTError(sw, http.StatusUnauthorized, "Bad credentials")
				return
			}
			info.actor = actor
		}
		s.ctl.Lock()
		limited := s.limit.Requests > 0 && !blob
		rl := s.limit
		if limited {
			s.limit.Requests--
		}
		s.ctl.Unlock()
		if limited {
			reset := rl.Reset
			if reset.IsZero() {
				reset = time.Now().Add(time.Second)
			}
			h := sw.Header()
			h.Set("X-Ratelimit-Limit", "5000")
			h.Set("X-Ratelimit-Remaining", "0")
			h.Set("X-Ratelimit-Used", "5000")
			h.Set("X-Ratelimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(reset.UnixNano())/1e9)), 10))
			if rl.RetryAfter > 0 {
				h.Set("Retry-After", strconv.Itoa(int(math.Ceil(rl.RetryAfter.Seconds()))))
			}
			writeRESTError(sw, rl.Status, "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID.")
			return
		}
		sw.Header().Set("X-Ratelimit-Limit", "5000")
		sw.Header().Set("X-Ratelimit-Remaining", "4999")
		sw.Header().Set("X-Ratelimit-Used", "1")
		sw.Header().Set("X-Ratelimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info)))
	})
}

func actor(r *http.Request) string {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		return info.actor
	}
	return ""
}

func setDocument(r *http.Request, doc string) {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		info.document = doc
	}
}

func setOperation(r *http.Request, op string) {
	if info, ok := r.Context().Value(requestInfoKey{}).(*requestInfo); ok {
		info.operation = op
	}
}

// writeRESTError answers like GitHub's REST API does for errors.
func writeRESTError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{
		"message":           message,
		"documentation_url": "https://docs.github.com/rest",
		"status":            strconv.Itoa(status),
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		// The status line is already out; all we can do is stop writing.
		fmt.Fprintln(w)
	}
}
