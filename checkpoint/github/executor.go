package github

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/shurcooL/githubv4"
)

// Defaults for Options.
const (
	DefaultGraphQLURL       = "https://api.github.com/graphql"
	DefaultRESTBaseURL      = "https://api.github.com"
	DefaultMaxPages         = 50
	DefaultMaxRateLimitWait = time.Minute
	pageSize                = 100
)

// Options configures an Executor. The zero value talks to api.github.com.
type Options struct {
	// GraphQLURL is the GraphQL endpoint; DefaultGraphQLURL if empty. For
	// GitHub Enterprise Server it is https://HOST/api/graphql.
	GraphQLURL string
	// RESTBaseURL is the REST API root; DefaultRESTBaseURL if empty. For
	// GitHub Enterprise Server it is https://HOST/api/v3.
	RESTBaseURL string
	// MaxPages caps how many pages (of up to 100 items) one task fetches
	// when paginating; DefaultMaxPages if zero. A list cut short by the cap
	// reports pageInfo.hasNextPage true.
	MaxPages int
	// MaxRateLimitWait is the longest the executor waits for a rate limit
	// to reset before failing with a RateLimitError;
	// DefaultMaxRateLimitWait if zero, no waiting at all if negative.
	MaxRateLimitWait time.Duration
	// Logger receives rate-limit waits (Info) and task runs (Debug). Nil
	// discards them.
	Logger *slog.Logger
	// DownloadClient fetches the storage URLs GitHub redirects log
	// downloads to. It must not add the GitHub token: the caller's client
	// adds it in its Transport, which Go does not strip on cross-host
	// redirects, and blob storage rejects requests that carry it. Nil means
	// a client on http.DefaultTransport with the caller's client timeout.
	DownloadClient *http.Client
}

// Executor runs GitHub capability tasks. It implements checkpoint.Executor
// (structurally: this package does not import checkpoint, so it builds on
// its own) and is safe for concurrent use.
type Executor struct {
	gql      *githubv4.Client
	http     *http.Client
	noFollow *http.Client // http, but returning redirects instead of following them
	download *http.Client
	restBase string
	maxPages int
	logger   *slog.Logger
	tasks    *registry
}

// New returns an Executor that sends requests with httpClient (which
// carries the token; nil means http.DefaultClient). The client is not
// modified: the executor wraps its Transport in a copy.
func New(httpClient *http.Client, opts Options) *Executor {
	return newExecutor(httpClient, opts, sleepCtx, time.Now)
}

func newExecutor(httpClient *http.Client, opts Options, sleep func(context.Context, time.Duration) error, now func() time.Time) *Executor {
	if httpClient == nil {
		httpClient = http.DefaultClient
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	maxWait := opts.MaxRateLimitWait
	switch {
	case maxWait == 0:
		maxWait = DefaultMaxRateLimitWait
	case maxWait < 0:
		maxWait = 0
	}
	base := httpClient.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	client := *httpClient
	client.Transport = &transport{base: base, maxWait: maxWait, logger: logger, sleep: sleep, now: now}
	gqlURL := opts.GraphQLURL
	if gqlURL == "" {
		gqlURL = DefaultGraphQLURL
	}
	rest := strings.TrimRight(opts.RESTBaseURL, "/")
	if rest == "" {
		rest = DefaultRESTBaseURL
	}
	maxPages := opts.MaxPages
	if maxPages <= 0 {
		maxPages = DefaultMaxPages
	}
	noFollow := client
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	download := opts.DownloadClient
	if download == nil {
		download = &http.Client{Timeout: httpClient.Timeout}
	}
	return &Executor{
		gql:      githubv4.NewEnterpriseClient(gqlURL, &client),
		http:     &client,
		noFollow: &noFollow,
		download: download,
		restBase: rest,
		maxPages: maxPages,
		logger:   logger,
		tasks:    newRegistry(),
	}
}

// Execute runs task with input and returns its data. Errors wrap
// ErrUnknownTask, ErrInvalidInput, ErrNotFound or ErrRateLimited where
// those apply (see the typed errors for details).
func (e *Executor) Execute(ctx context.Context, task string, input map[string]any) (any, error) {
	def, err := e.tasks.lookup(task)
	if err != nil {
		return nil, err
	}
	in, err := parseInput(task, def.params, input)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	out, err := def.run(ctx, &call{e: e, task: task}, in)
	e.logger.LogAttrs(ctx, slog.LevelDebug, "github task", slog.String("task", task),
		slog.Duration("elapsed", time.Since(start)), slog.Bool("ok", err == nil))
	return out, err
}

// Tasks lists the tasks this executor runs, sorted by name.
func (e *Executor) Tasks() []Task { return e.tasks.list() }

// Tasks lists the tasks an Executor runs, sorted by name, for help output
// and documentation.
func Tasks() []Task { return newRegistry().list() }
