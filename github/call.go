package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/shurcooL/githubv4"

	"github.com/agenteval/agenteval/redact"
)

// call is one Execute: the executor plus the task name errors carry.
type call struct {
	e    *executor
	task string
}

// query runs a githubv4 query and turns failures into the package's typed
// errors, using what the transport captured of the response.
func (c *call) query(ctx context.Context, q any, vars map[string]any) error {
	ctx, capt := withCapture(ctx)
	err := c.e.gql.Query(ctx, q, vars)
	if err == nil {
		return nil
	}
	return c.classify(ctx, err, capt, "")
}

// classify maps a failed request to a typed error. what names the object a
// REST 404 is about.
func (c *call) classify(ctx context.Context, err error, capt *capture, what string) error {
	var ge *Error
	if errors.As(err, &ge) && ge.Kind == ErrRateLimited {
		rl := *ge
		rl.Task = c.task
		return &rl
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("%s: %w", c.task, ctxErr)
	}
	status, message, gqlErrs := capt.get()
	if len(gqlErrs) > 0 {
		for _, ge := range gqlErrs {
			if ge.Type == "NOT_FOUND" {
				return &Error{Kind: ErrNotFound, Task: c.task, Message: ge.Message}
			}
		}
		msgs := make([]string, len(gqlErrs))
		for i, ge := range gqlErrs {
			msgs[i] = ge.Message
		}
		return &Error{Task: c.task, Status: status, Type: gqlErrs[0].Type, Message: redact.Head(strings.Join(msgs, "; "), maxMessageBytes)}
	}
	if status == http.StatusNotFound {
		if what == "" {
			what = "the requested resource"
		}
		return &Error{Kind: ErrNotFound, Task: c.task, Message: what + " (HTTP 404)"}
	}
	if status >= 300 || status != 0 && message != "" {
		if message == "" {
			message = http.StatusText(status)
		}
		return &Error{Task: c.task, Status: status, Message: message}
	}
	// Transport failures (connection refused, TLS, ...) and decoding
	// problems. *url.Error carries the URL, never headers.
	return fmt.Errorf("%s: %w", c.task, err)
}

// restURL joins the REST base and a path whose segments the caller escaped.
func (c *call) restURL(path string, q url.Values) string {
	u := c.e.restBase + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// get sends a REST GET and returns the response for a 2xx status, or a typed
// error. what names the object, for a 404.
func (c *call) get(ctx context.Context, rawURL, accept, what string) (*http.Response, error) {
	ctx, capt := withCapture(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.task, err)
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := c.e.http.Do(req)
	if err != nil {
		return nil, c.classify(ctx, err, capt, what)
	}
	if resp.StatusCode/100 != 2 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		return nil, c.classify(ctx, fmt.Errorf("HTTP %d", resp.StatusCode), capt, what)
	}
	return resp, nil
}

// getRedirectedText GETs a REST resource that answers with a redirect to a
// download URL, then fetches that URL with the download client (which
// carries no token), reading at most limit bytes.
func (c *call) getRedirectedText(ctx context.Context, path, what string, limit int64) (text string, more bool, err error) {
	ctx, capt := withCapture(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.restURL(path, nil), nil)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", c.task, err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	resp, err := c.e.noFollow.Do(req)
	if err != nil {
		return "", false, c.classify(ctx, err, capt, what)
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	switch {
	case resp.StatusCode/100 == 3:
	case resp.StatusCode/100 == 2:
		// Some servers (GitHub Enterprise Server) answer with the body
		// directly; fetch it again through the token-carrying client.
		return c.getText(ctx, path, "application/vnd.github+json", what, limit)
	default:
		return "", false, c.classify(ctx, fmt.Errorf("HTTP %d", resp.StatusCode), capt, what)
	}
	loc, err := resp.Location()
	if err != nil {
		return "", false, fmt.Errorf("%s: %s: redirect without a usable Location: %w", c.task, what, err)
	}
	dreq, err := http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", c.task, err)
	}
	dresp, err := c.e.download.Do(dreq)
	if err != nil {
		// The download URL is signed: report the host, not the URL.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", false, fmt.Errorf("%s: download %s from %s: %w", c.task, what, loc.Host, err)
	}
	defer dresp.Body.Close()
	if dresp.StatusCode/100 != 2 {
		return "", false, &Error{Task: c.task, Status: dresp.StatusCode, Message: fmt.Sprintf("download of %s from %s failed", what, loc.Host)}
	}
	b, err := io.ReadAll(io.LimitReader(dresp.Body, limit+1))
	if err != nil {
		return "", false, fmt.Errorf("%s: read %s: %w", c.task, what, err)
	}
	if int64(len(b)) > limit {
		return redact.Head(string(b), int(limit)), true, nil // marked, so a secret it cuts is masked whole
	}
	return string(b), false, nil
}

// getJSON GETs a REST resource into out and reports whether the Link header
// names a next page.
func (c *call) getJSON(ctx context.Context, path string, q url.Values, what string, out any) (bool, error) {
	resp, err := c.get(ctx, c.restURL(path, q), "application/vnd.github+json", what)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return false, fmt.Errorf("%s: decode %s: %w", c.task, path, err)
	}
	// Drain the rest (a trailing newline) so the connection is reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	return strings.Contains(resp.Header.Get("Link"), `rel="next"`), nil
}

// getText GETs a REST resource as text, reading at most limit bytes; more
// reports whether the body was longer.
func (c *call) getText(ctx context.Context, path, accept, what string, limit int64) (text string, more bool, err error) {
	resp, err := c.get(ctx, c.restURL(path, nil), accept, what)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return "", false, fmt.Errorf("%s: read %s: %w", c.task, path, err)
	}
	if int64(len(b)) > limit {
		return redact.Head(string(b), int(limit)), true, nil // marked, so a secret it cuts is masked whole
	}
	return string(b), false, nil
}

// repoPath is /repos/{owner}/{name} with both segments escaped.
func repoPath(in args) string {
	return "/repos/" + url.PathEscape(in.str("owner")) + "/" + url.PathEscape(in.str("name"))
}

func repoName(in args) string { return in.str("owner") + "/" + in.str("name") }

// pageInfo is the GraphQL PageInfo the tasks select.
type pageInfo struct {
	HasNextPage bool
	EndCursor   *string
}

func (p pageInfo) out() map[string]any {
	var end any
	if p.EndCursor != nil {
		end = *p.EndCursor
	}
	return map[string]any{"hasNextPage": p.HasNextPage, "endCursor": end}
}

// noMorePages is the pageInfo of a list returned whole.
func noMorePages() map[string]any { return map[string]any{"hasNextPage": false, "endCursor": nil} }

// collect pages through a GraphQL connection. want is the item count asked
// for (0: all, up to the page cap); fetch runs one page of at most n items
// after cursor. It returns the items and the pageInfo to report: the last
// page's, so a caller can continue where the list stopped.
func collect[T any](ctx context.Context, c *call, want int, after *string,
	fetch func(ctx context.Context, n int, cursor *string) ([]T, pageInfo, error),
) ([]T, pageInfo, int, error) {
	var items []T
	cursor := after
	var pi pageInfo
	pages := 0
	for {
		n := pageSize
		if want > 0 {
			n = min(pageSize, want-len(items))
		}
		page, info, err := fetch(ctx, n, cursor)
		if err != nil {
			return nil, pageInfo{}, pages, err
		}
		pages++
		items = append(items, page...)
		pi = info
		if !info.HasNextPage || want > 0 && len(items) >= want || info.EndCursor == nil {
			break
		}
		if pages >= c.e.maxPages {
			break
		}
		cursor = info.EndCursor
	}
	return items, pi, pages, nil
}

// gqlCursor converts a cursor for a githubv4 variable ($cursor: String).
func gqlCursor(s *string) *githubv4.String {
	if s == nil {
		return nil
	}
	return githubv4.NewString(githubv4.String(*s))
}

// strPtr returns *s as a JSON value: the string or nil.
func strPtr(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// login returns an author's login or nil (deleted accounts are null).
func login(a *struct{ Login string }) any {
	if a == nil {
		return nil
	}
	return a.Login
}
