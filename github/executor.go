package github

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/shurcooL/githubv4"

	"github.com/agenteval/agenteval/checkpoint"
)

// defaultMaxPages is ExecutorOptions.MaxPages when it is zero.
const (
	defaultMaxPages = 50
	pageSize        = 100
)

// ExecutorOptions tune the executor [NewExecutor] returns. The zero value is the default.
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

// executor is the checkpoint.Executor NewExecutor returns.
type executor struct {
	gql      *githubv4.Client
	http     *http.Client
	noFollow *http.Client // http, but returning redirects instead of following them
	download *http.Client
	restBase string
	maxPages int
	logger   *slog.Logger
	tasks    *registry
}

// NewExecutor returns the [checkpoint.Executor] that runs GitHub's
// capability tasks (see [Tasks]), sending its requests through c. It is
// safe for concurrent use. Execute returns a task's data as plain JSON
// values; its errors wrap ErrUnknownTask, ErrInvalidInput, ErrNotFound or
// ErrRateLimited where those apply (an [*Error] carries the details).
func NewExecutor(c *Client, opts ExecutorOptions) checkpoint.Executor {
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
	return &executor{
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

// Execute runs task with input and returns its data.
func (e *executor) Execute(ctx context.Context, task string, input map[string]any) (any, error) {
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

// Tasks lists the tasks the executor runs, sorted by name, for help output
// and documentation.
func Tasks() []Task { return newRegistry().list() }
