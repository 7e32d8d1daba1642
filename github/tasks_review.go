package github

import (
	"context"

	"github.com/shurcooL/githubv4"
)

// threadScanPages is how many pages of review threads pr.threads.list scans
// looking for matches, as in the ghx handler.
const threadScanPages = 5

func prReviewTasks() []taskDef {
	threadItem := "{id, path, line, startLine, diffSide, subjectType, isResolved, isOutdated, viewerCanReply, viewerCanResolve, viewerCanUnresolve, resolvedByLogin, comments[{id, authorLogin, body, createdAt, url}]}"
	return []taskDef{
		{
			name: "pr.reviews.list", desc: "List a pull request's reviews, oldest first.",
			params: []param{pOwner(), pName(), pPR(), pFirst(), pAfter()},
			output: "{items[{id, authorLogin|null, body, state, submittedAt|null, url, commitOid|null}], pageInfo{hasNextPage, endCursor}}",
			run:    prReviewsList,
		},
		{
			name: "pr.threads.list", desc: "List a pull request's review threads (unresolved only by default), scanning at most 5 pages.",
			params: []param{pOwner(), pName(), pPR(), pFirst(), pAfter(),
				{name: "unresolvedOnly", kind: kindBool, desc: "only unresolved threads (default true)"},
				{name: "includeOutdated", kind: kindBool, desc: "include outdated threads (default true)"}},
			output: "{items[" + threadItem + "], pageInfo{hasNextPage, endCursor}, filterApplied{unresolvedOnly, includeOutdated}, scan{pagesScanned, sourceItemsScanned, scanTruncated}}",
			run:    prThreadsList,
		},
		{
			name: "pr.review_threads.list", desc: "List all of a pull request's review threads, optionally only resolved or unresolved ones.",
			params: []param{pOwner(), pName(), pPR(),
				{name: "filter", kind: kindString, enum: []string{"all", "resolved", "unresolved"}, desc: "which threads (default all)"}},
			output: "{items[" + threadItem + "], pageInfo{hasNextPage, endCursor}, filterApplied{filter}}",
			run:    prReviewThreadsList,
		},
	}
}

func prReviewsList(ctx context.Context, c *call, in args) (any, error) {
	type reviewNode struct {
		ID          string
		Author      *struct{ Login string }
		Body        string
		State       string
		SubmittedAt *string
		URL         string
		Commit      *struct{ Oid string }
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]reviewNode, pageInfo, error) {
		var q struct {
			Repository struct {
				PullRequest *struct {
					Reviews *struct {
						Nodes    []reviewNode
						PageInfo pageInfo
					} `graphql:"reviews(first: $first, after: $cursor)"`
				} `graphql:"pullRequest(number: $number)"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := prVars(in)
		vars["first"], vars["cursor"] = githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		p := q.Repository.PullRequest
		if p == nil {
			return nil, pageInfo{}, prNotFound(c, in)
		}
		if p.Reviews == nil {
			return nil, pageInfo{}, nil
		}
		return p.Reviews.Nodes, p.Reviews.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, r := range nodes {
		var oid any
		if r.Commit != nil {
			oid = r.Commit.Oid
		}
		items[i] = map[string]any{"id": r.ID, "authorLogin": login(r.Author), "body": r.Body, "state": r.State,
			"submittedAt": strPtr(r.SubmittedAt), "url": r.URL, "commitOid": oid}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

// threadNode is the selection for one review thread.
type threadNode struct {
	ID                 string
	Path               string
	Line               *int
	StartLine          *int
	DiffSide           string
	SubjectType        string
	IsResolved         bool
	IsOutdated         bool
	ViewerCanReply     bool
	ViewerCanResolve   bool
	ViewerCanUnresolve bool
	ResolvedBy         *struct{ Login string }
	Comments           struct {
		Nodes []struct {
			ID        string
			Body      string
			CreatedAt string
			URL       string
			Author    *struct{ Login string }
		}
	} `graphql:"comments(first: 100)"`
}

func (t threadNode) out() map[string]any {
	comments := make([]any, len(t.Comments.Nodes))
	for i, cm := range t.Comments.Nodes {
		comments[i] = map[string]any{"id": cm.ID, "authorLogin": login(cm.Author), "body": cm.Body, "createdAt": cm.CreatedAt, "url": cm.URL}
	}
	intOrNil := func(p *int) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return map[string]any{
		"id": t.ID, "path": t.Path, "line": intOrNil(t.Line), "startLine": intOrNil(t.StartLine),
		"diffSide": t.DiffSide, "subjectType": t.SubjectType, "isResolved": t.IsResolved, "isOutdated": t.IsOutdated,
		"viewerCanReply": t.ViewerCanReply, "viewerCanResolve": t.ViewerCanResolve, "viewerCanUnresolve": t.ViewerCanUnresolve,
		"resolvedByLogin": login(t.ResolvedBy), "comments": comments,
	}
}

type threadEdge struct {
	Cursor string
	Node   threadNode
}

// fetchThreads returns one page of review threads as edges, so a filtered
// scan can report the cursor of the last match.
func fetchThreads(ctx context.Context, c *call, in args, n int, cursor *string) ([]threadEdge, pageInfo, error) {
	var q struct {
		Repository struct {
			PullRequest *struct {
				ReviewThreads struct {
					Edges    []threadEdge
					PageInfo pageInfo
				} `graphql:"reviewThreads(first: $first, after: $cursor)"`
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	vars := prVars(in)
	vars["first"], vars["cursor"] = githubv4.Int(n), gqlCursor(cursor)
	if err := c.query(ctx, &q, vars); err != nil {
		return nil, pageInfo{}, err
	}
	if q.Repository.PullRequest == nil {
		return nil, pageInfo{}, prNotFound(c, in)
	}
	return q.Repository.PullRequest.ReviewThreads.Edges, q.Repository.PullRequest.ReviewThreads.PageInfo, nil
}

// prThreadsList follows the ghx card: client-side filtering over at most 5
// pages, stopping once first matches (all matches when first is absent)
// are collected. pageInfo.endCursor is the cursor of the last returned
// match, so passing it as after resumes right behind it.
func prThreadsList(ctx context.Context, c *call, in args) (any, error) {
	unresolvedOnly := in.optBool("unresolvedOnly", true)
	includeOutdated := in.optBool("includeOutdated", true)
	first, limited := in.optInt("first")
	items := []any{}
	var lastCursor *string
	cursor := in.cursor()
	pages, scanned := 0, 0
	hasNext := false
	for pages < threadScanPages {
		edges, pi, err := fetchThreads(ctx, c, in, pageSize, cursor)
		if err != nil {
			return nil, err
		}
		pages++
		full := false
		for i, e := range edges {
			match := !(unresolvedOnly && e.Node.IsResolved || !includeOutdated && e.Node.IsOutdated)
			if match && limited && len(items) == first {
				// One match more than asked for: there is a next page, and
				// it starts at this thread.
				full = true
				break
			}
			scanned++
			if !match {
				continue
			}
			items = append(items, e.Node.out())
			lastCursor = &edges[i].Cursor
		}
		if full {
			hasNext = true
			break
		}
		hasNext = pi.HasNextPage
		if !pi.HasNextPage || pi.EndCursor == nil {
			break
		}
		if limited && len(items) == first {
			// More pages may hold matches; the caller continues from the
			// last match.
			break
		}
		cursor = pi.EndCursor
		if lastCursor == nil || !limited {
			// Nothing returned from this page (or returning everything):
			// resuming from the page end skips no match.
			lastCursor = pi.EndCursor
		}
	}
	return map[string]any{
		"items":         items,
		"pageInfo":      pageInfo{HasNextPage: hasNext, EndCursor: lastCursor}.out(),
		"filterApplied": map[string]any{"unresolvedOnly": unresolvedOnly, "includeOutdated": includeOutdated},
		"scan":          map[string]any{"pagesScanned": pages, "sourceItemsScanned": scanned, "scanTruncated": hasNext && pages >= threadScanPages},
	}, nil
}

// prReviewThreadsList reads every review thread (up to the page cap) and
// filters by resolution.
func prReviewThreadsList(ctx context.Context, c *call, in args) (any, error) {
	filter := in.str("filter")
	if filter == "" {
		filter = "all"
	}
	edges, pi, _, err := collect(ctx, c, 0, nil, func(ctx context.Context, n int, cursor *string) ([]threadEdge, pageInfo, error) {
		return fetchThreads(ctx, c, in, n, cursor)
	})
	if err != nil {
		return nil, err
	}
	items := []any{}
	for _, e := range edges {
		switch {
		case filter == "resolved" && !e.Node.IsResolved, filter == "unresolved" && e.Node.IsResolved:
			continue
		}
		items = append(items, e.Node.out())
	}
	return map[string]any{"items": items, "pageInfo": pi.out(), "filterApplied": map[string]any{"filter": filter}}, nil
}
