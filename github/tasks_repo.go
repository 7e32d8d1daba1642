package github

import (
	"context"
	"fmt"
	"net/url"

	"github.com/shurcooL/githubv4"
)

func repoTasks() []taskDef {
	return []taskDef{
		{
			name: "repo.view", desc: "Fetch repository metadata.",
			params: []param{pOwner(), pName()},
			output: "{id, name, nameWithOwner, isPrivate, stargazerCount, forkCount, url, defaultBranch|null}",
			run:    repoView,
		},
		{
			name: "repo.labels.list", desc: "List repository labels, newest first.",
			params: []param{pOwner(), pName(), pFirst(), pAfter()},
			output: "{items[{id, name, description, color, isDefault}], pageInfo{hasNextPage, endCursor}}",
			run:    repoLabelsList,
		},
		{
			name: "repo.issue_types.list", desc: "List the issue types of the repository owner (an organization).",
			params: []param{pOwner(), pName(), pFirst(), pAfter()},
			output: "{items[{id, name, color, isEnabled}], pageInfo{hasNextPage, endCursor}}",
			run:    repoIssueTypesList,
		},
	}
}

func repoVars(in args) map[string]any {
	return map[string]any{"owner": githubv4.String(in.str("owner")), "name": githubv4.String(in.str("name"))}
}

func repoView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Repository struct {
			ID               string
			Name             string
			NameWithOwner    string
			IsPrivate        bool
			StargazerCount   int
			ForkCount        int
			URL              string
			DefaultBranchRef *struct{ Name string }
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	if err := c.query(ctx, &q, repoVars(in)); err != nil {
		return nil, err
	}
	r := q.Repository
	var def any
	if r.DefaultBranchRef != nil {
		def = r.DefaultBranchRef.Name
	}
	return map[string]any{
		"id": r.ID, "name": r.Name, "nameWithOwner": r.NameWithOwner, "isPrivate": r.IsPrivate,
		"stargazerCount": r.StargazerCount, "forkCount": r.ForkCount, "url": r.URL, "defaultBranch": def,
	}, nil
}

func repoLabelsList(ctx context.Context, c *call, in args) (any, error) {
	type labelNode struct {
		ID          string
		Name        string
		Description *string
		Color       string
		IsDefault   bool
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]labelNode, pageInfo, error) {
		var q struct {
			Repository struct {
				Labels struct {
					Nodes    []labelNode
					PageInfo pageInfo
				} `graphql:"labels(first: $first, after: $cursor, orderBy: {field: CREATED_AT, direction: DESC})"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["first"], vars["cursor"] = githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		return q.Repository.Labels.Nodes, q.Repository.Labels.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, l := range nodes {
		items[i] = map[string]any{"id": l.ID, "name": l.Name, "description": strPtr(l.Description), "color": l.Color, "isDefault": l.IsDefault}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

// repoIssueTypesList uses REST: GitHub's published GraphQL schema has no
// issue types (Repository.issueTypes is newer than it). Issue types belong
// to organizations; the list is not paginated, so after is an index cursor
// this task itself returns.
func repoIssueTypesList(ctx context.Context, c *call, in args) (any, error) {
	var types []struct {
		NodeID    string  `json:"node_id"`
		Name      string  `json:"name"`
		Color     *string `json:"color"`
		IsEnabled *bool   `json:"is_enabled"`
	}
	owner := in.str("owner")
	what := fmt.Sprintf("organization %q (issue types exist only for organizations)", owner)
	if _, err := c.getJSON(ctx, "/orgs/"+url.PathEscape(owner)+"/issue-types", nil, what, &types); err != nil {
		return nil, err
	}
	start := 0
	if cur := in.cursor(); cur != nil {
		var n int
		if _, err := fmt.Sscanf(*cur, "issue-type:%d", &n); err != nil || n < 0 {
			return nil, &Error{Kind: ErrInvalidInput, Task: c.task, Field: "after", Message: fmt.Sprintf("is not a cursor this task returned: %q", *cur)}
		}
		start = min(n+1, len(types))
	}
	end := len(types)
	if first, ok := in.optInt("first"); ok {
		end = min(end, start+first)
	}
	items := make([]any, 0, end-start)
	for _, t := range types[start:end] {
		var color, enabled any
		if t.Color != nil {
			color = *t.Color
		}
		if t.IsEnabled != nil {
			enabled = *t.IsEnabled
		}
		items = append(items, map[string]any{"id": t.NodeID, "name": t.Name, "color": color, "isEnabled": enabled})
	}
	pi := noMorePages()
	if end < len(types) {
		pi = map[string]any{"hasNextPage": true, "endCursor": fmt.Sprintf("issue-type:%d", end-1)}
	}
	return map[string]any{"items": items, "pageInfo": pi}, nil
}
