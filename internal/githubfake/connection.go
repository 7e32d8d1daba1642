package githubfake

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// maxPageSize is GitHub's limit for first and last on every connection.
const maxPageSize = 100

// connection is one page of a GraphQL connection (IssueConnection,
// PullRequestReviewThreadConnection, ...) over a snapshot of items. The
// concrete connection type comes from the schema, so one implementation
// serves them all.
type connection struct {
	items      []any
	start, end int
	// unbounded is GitHub's error for selecting nodes or edges without
	// first or last; totalCount alone needs no page size.
	unbounded error
}

// paginate applies first/after/last/before to items the way GitHub does,
// including its errors for a missing or excessive page size.
func paginate(field string, items []any, args map[string]any) (*connection, error) {
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	if !hasFirst && !hasLast {
		return &connection{items: items, end: len(items), unbounded: &fieldError{typ: "MISSING_PAGINATION_BOUNDARIES",
			msg: fmt.Sprintf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", field)}}, nil
	}
	if hasFirst && hasLast {
		return nil, &fieldError{typ: "INVALID_PAGINATION", msg: fmt.Sprintf("Passing both `first` and `last` to paginate the `%s` connection is not supported.", field)}
	}
	for _, b := range []struct {
		name string
		n    int
		set  bool
	}{{"first", first, hasFirst}, {"last", last, hasLast}} {
		if !b.set {
			continue
		}
		if b.n < 0 {
			return nil, &fieldError{typ: "INVALID_PAGINATION", msg: fmt.Sprintf("`%s` on the `%s` connection cannot be less than zero.", b.name, field)}
		}
		if b.n > maxPageSize {
			return nil, &fieldError{typ: "EXCESSIVE_PAGINATION", msg: fmt.Sprintf("Requesting %d records on the `%s` connection exceeds the `%s` limit of %d records.", b.n, field, b.name, maxPageSize)}
		}
	}
	start, end := 0, len(items)
	if after, ok := args["after"].(string); ok {
		i, err := decodeCursor(after)
		if err != nil {
			return nil, err
		}
		start = min(i+1, len(items))
	}
	if before, ok := args["before"].(string); ok {
		i, err := decodeCursor(before)
		if err != nil {
			return nil, err
		}
		end = min(max(i, 0), len(items))
	}
	if start > end {
		start = end
	}
	if hasFirst && end-start > first {
		end = start + first
	}
	if hasLast && end-start > last {
		start = end - last
	}
	return &connection{items: items, start: start, end: end}, nil
}

// Cursors are opaque base64 strings like GitHub's; they encode the item's
// position in the list.
func encodeCursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.Itoa(i)))
}

func decodeCursor(c string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(c)
	if err == nil {
		if s, ok := strings.CutPrefix(string(raw), "cursor:v2:"); ok {
			if i, err := strconv.Atoi(s); err == nil && i >= 0 {
				return i, nil
			}
		}
	}
	return 0, &fieldError{typ: "INVALID_CURSOR_ARGUMENTS", msg: fmt.Sprintf("`%s` does not appear to be a valid cursor.", c)}
}

func (c *connection) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	if c.unbounded != nil && (field == "nodes" || field == "edges") {
		return nil, c.unbounded
	}
	switch field {
	case "nodes":
		return append([]any{}, c.items[c.start:c.end]...), nil
	case "edges":
		edges := make([]any, 0, c.end-c.start)
		for i := c.start; i < c.end; i++ {
			edges = append(edges, &edge{cursor: encodeCursor(i), node: c.items[i]})
		}
		return edges, nil
	case "pageInfo":
		return &pageInfo{c: c}, nil
	case "totalCount":
		return len(c.items), nil
	}
	return nil, unserved("connection", field)
}

// edge is one element of a connection's edges list.
type edge struct {
	cursor string
	node   any
}

func (e *edge) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "cursor":
		return e.cursor, nil
	case "node":
		return e.node, nil
	}
	return nil, unserved("edge", field)
}

type pageInfo struct{ c *connection }

func (p *pageInfo) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	c := p.c
	switch field {
	case "hasNextPage":
		return c.end < len(c.items), nil
	case "hasPreviousPage":
		return c.start > 0, nil
	case "startCursor":
		if c.start == c.end {
			return nil, nil
		}
		return encodeCursor(c.start), nil
	case "endCursor":
		if c.start == c.end {
			return nil, nil
		}
		return encodeCursor(c.end - 1), nil
	}
	return nil, unserved("PageInfo", field)
}

// unserved reports a field that the pruned schema admits but the model does
// not answer. The schema is generated from the same list the resolvers
// implement and a test checks they agree, so this only fires on a defect.
func unserved(typeName, field string) error {
	return fmt.Errorf("githubtest: %s.%s is in the served schema but has no resolver", typeName, field)
}

// intArg reads an Int argument; GraphQL literals arrive as int64 and JSON
// variables as float64.
func intArg(args map[string]any, name string) (int, bool) {
	return toInt(args[name])
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int32:
		return int(n), true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	case string:
		i, err := strconv.Atoi(n)
		return i, err == nil
	}
	return 0, false
}

func strArg(args map[string]any, name string) (string, bool) {
	s, ok := args[name].(string)
	return s, ok
}

func boolArg(args map[string]any, name string) (bool, bool) {
	b, ok := args[name].(bool)
	return b, ok
}

// listOf converts a typed slice to the []any the executor completes.
func listOf[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
