package github

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"
)

func projectTasks() []taskDef {
	num := param{name: "projectNumber", kind: kindInt, required: true, aliases: []string{"number"}, desc: "project number"}
	view := "{id, title, shortDescription, public, closed, url}"
	return []taskDef{
		{
			name: "project_v2.org.view", desc: "View an organization's project (v2).",
			params: []param{{name: "org", kind: kindString, required: true, aliases: []string{"owner", "organization"}, desc: "organization login"}, num},
			output: view, run: projectOrgView,
		},
		{
			name: "project_v2.user.view", desc: "View a user's project (v2).",
			params: []param{{name: "user", kind: kindString, required: true, aliases: []string{"owner", "login"}, desc: "user login"}, num},
			output: view, run: projectUserView,
		},
		{
			name: "project_v2.fields.list", desc: "List the fields of a user's or organization's project (v2).",
			params: []param{{name: "owner", kind: kindString, required: true, aliases: []string{"org", "user"}, desc: "user or organization login"}, num, pFirst(), pAfter()},
			output: "{items[{id, name, dataType, options[{id, name}]|null}], pageInfo{hasNextPage, endCursor}}",
			run:    projectFieldsList,
		},
		{
			name: "project_v2.items.list", desc: "List the items of a user's or organization's project (v2).",
			params: []param{{name: "owner", kind: kindString, required: true, aliases: []string{"org", "user"}, desc: "user or organization login"}, num, pFirst(), pAfter()},
			output: "{items[{id, contentType, contentNumber|null, contentTitle|null}], pageInfo{hasNextPage, endCursor}}",
			run:    projectItemsList,
		},
	}
}

type projectView struct {
	ID               string
	Title            string
	ShortDescription *string
	Public           bool
	Closed           bool
	URL              string
}

func (p *projectView) out() map[string]any {
	return map[string]any{"id": p.ID, "title": p.Title, "shortDescription": strPtr(p.ShortDescription), "public": p.Public, "closed": p.Closed, "url": p.URL}
}

func projectNotFound(c *call, owner string, number int) error {
	return &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("project %d of %s", number, owner)}
}

func projectOrgView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Organization *struct {
			ProjectV2 *projectView `graphql:"projectV2(number: $number)"`
		} `graphql:"organization(login: $login)"`
	}
	vars := map[string]any{"login": githubv4.String(in.str("org")), "number": githubv4.Int(in.int("projectNumber"))}
	if err := c.query(ctx, &q, vars); err != nil {
		return nil, err
	}
	if q.Organization == nil || q.Organization.ProjectV2 == nil {
		return nil, projectNotFound(c, in.str("org"), in.int("projectNumber"))
	}
	return q.Organization.ProjectV2.out(), nil
}

func projectUserView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		User *struct {
			ProjectV2 *projectView `graphql:"projectV2(number: $number)"`
		} `graphql:"user(login: $login)"`
	}
	vars := map[string]any{"login": githubv4.String(in.str("user")), "number": githubv4.Int(in.int("projectNumber"))}
	if err := c.query(ctx, &q, vars); err != nil {
		return nil, err
	}
	if q.User == nil || q.User.ProjectV2 == nil {
		return nil, projectNotFound(c, in.str("user"), in.int("projectNumber"))
	}
	return q.User.ProjectV2.out(), nil
}

// ownerProjectVars are the variables of the repositoryOwner queries, which
// answer for users and organizations alike in one request (the ghx handlers
// try the organization first and fall back to the user: two requests).
func ownerProjectVars(in args, n int, cursor *string) map[string]any {
	return map[string]any{
		"login": githubv4.String(in.str("owner")), "number": githubv4.Int(in.int("projectNumber")),
		"first": githubv4.Int(n), "cursor": gqlCursor(cursor),
	}
}

func projectFieldsList(ctx context.Context, c *call, in args) (any, error) {
	type fieldNode struct {
		Common struct {
			ID       string
			Name     string
			DataType string
		} `graphql:"... on ProjectV2FieldCommon"`
		SingleSelect struct {
			Options []struct {
				ID   string
				Name string
			}
		} `graphql:"... on ProjectV2SingleSelectField"`
		Typename string `graphql:"__typename"`
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]fieldNode, pageInfo, error) {
		var q struct {
			RepositoryOwner *struct {
				Owner struct {
					ProjectV2 *struct {
						Fields struct {
							Nodes    []fieldNode
							PageInfo pageInfo
						} `graphql:"fields(first: $first, after: $cursor)"`
					} `graphql:"projectV2(number: $number)"`
				} `graphql:"... on ProjectV2Owner"`
			} `graphql:"repositoryOwner(login: $login)"`
		}
		if err := c.query(ctx, &q, ownerProjectVars(in, n, cursor)); err != nil {
			return nil, pageInfo{}, err
		}
		if q.RepositoryOwner == nil || q.RepositoryOwner.Owner.ProjectV2 == nil {
			return nil, pageInfo{}, projectNotFound(c, in.str("owner"), in.int("projectNumber"))
		}
		f := q.RepositoryOwner.Owner.ProjectV2.Fields
		return f.Nodes, f.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, f := range nodes {
		var options any
		if f.Typename == "ProjectV2SingleSelectField" {
			opts := make([]any, len(f.SingleSelect.Options))
			for j, o := range f.SingleSelect.Options {
				opts[j] = map[string]any{"id": o.ID, "name": o.Name}
			}
			options = opts
		}
		items[i] = map[string]any{"id": f.Common.ID, "name": f.Common.Name, "dataType": f.Common.DataType, "options": options}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

func projectItemsList(ctx context.Context, c *call, in args) (any, error) {
	type itemNode struct {
		ID      string
		Type    string
		Content *struct {
			Typename string `graphql:"__typename"`
			Issue    struct {
				Number int
				Title  string
			} `graphql:"... on Issue"`
			PullRequest struct {
				Number int
				Title  string
			} `graphql:"... on PullRequest"`
			DraftIssue struct {
				Title string
			} `graphql:"... on DraftIssue"`
		}
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]itemNode, pageInfo, error) {
		var q struct {
			RepositoryOwner *struct {
				Owner struct {
					ProjectV2 *struct {
						Items struct {
							Nodes    []itemNode
							PageInfo pageInfo
						} `graphql:"items(first: $first, after: $cursor)"`
					} `graphql:"projectV2(number: $number)"`
				} `graphql:"... on ProjectV2Owner"`
			} `graphql:"repositoryOwner(login: $login)"`
		}
		if err := c.query(ctx, &q, ownerProjectVars(in, n, cursor)); err != nil {
			return nil, pageInfo{}, err
		}
		if q.RepositoryOwner == nil || q.RepositoryOwner.Owner.ProjectV2 == nil {
			return nil, pageInfo{}, projectNotFound(c, in.str("owner"), in.int("projectNumber"))
		}
		it := q.RepositoryOwner.Owner.ProjectV2.Items
		return it.Nodes, it.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, n := range nodes {
		var number, title any
		if ct := n.Content; ct != nil {
			switch ct.Typename {
			case "Issue":
				number, title = ct.Issue.Number, ct.Issue.Title
			case "PullRequest":
				number, title = ct.PullRequest.Number, ct.PullRequest.Title
			case "DraftIssue":
				title = ct.DraftIssue.Title
			}
		}
		items[i] = map[string]any{"id": n.ID, "contentType": n.Type, "contentNumber": number, "contentTitle": title}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}
