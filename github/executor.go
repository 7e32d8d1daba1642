package github

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/shurcooL/githubv4"
)

// defaultMaxPages is ExecutorOptions.MaxPages when it is zero.
const (
	defaultMaxPages = 50
	pageSize        = 100
)

// ExecutorOptions tune an Executor. The zero value is the default.
type ExecutorOptions struct {
	// MaxPages caps how many pages (of up to 100 items) one task fetches
	// when paginating; defaultMaxPages if zero. A list cut short by the cap
	// reports pageInfo.hasNextPage true.
	MaxPages int
	// DownloadClient fetches the storage URLs GitHub redirects log
	// downloads to. It must not add the GitHub token (Go does not strip a
	// Transport's header on cross-host redirects, and blob storage rejects
	// requests that carry it). Nil means a client on http.DefaultTransport.
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

// NewExecutor returns an Executor that sends its requests through c.
func NewExecutor(c *Client, opts ExecutorOptions) *Executor {
	client := *c.http
	client.Transport = capturing{next: c.http.Transport}
	maxPages := opts.MaxPages
	if maxPages <= 0 {
		maxPages = defaultMaxPages
	}
	noFollow := client
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	download := opts.DownloadClient
	if download == nil {
		download = &http.Client{}
	}
	return &Executor{
		gql:      githubv4.NewEnterpriseClient(c.graphqlURL, &client),
		http:     &client,
		noFollow: &noFollow,
		download: download,
		restBase: c.rest,
		maxPages: maxPages,
		logger:   c.logger,
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

// Tasks lists the tasks an Executor runs, sorted by name, for help output
// and documentation.
func Tasks() []Task { return newRegistry().list() }
