package github

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/shurcooL/githubv4"
)

func pState(what string, values ...string) param {
	return param{name: "state", kind: kindString, enum: values, desc: "only " + what + " in this state; all states when absent"}
}

func issueTasks() []taskDef {
	issueNum := pNumber("issueNumber", "issue")
	return []taskDef{
		{
			name: "issue.view", desc: "Fetch one issue by number.",
			params: []param{pOwner(), pName(), issueNum},
			output: "{id, number, title, state, url, body, labels[name]}",
			run:    issueView,
		},
		{
			name: "issue.list", desc: "List repository issues, newest first.",
			params: []param{pOwner(), pName(), pState("issues", "open", "closed", "all"), pFirst(), pAfter()},
			output: "{items[{id, number, title, state, url}], pageInfo{hasNextPage, endCursor}}",
			run:    issueList,
		},
		{
			name: "issue.comments.list", desc: "List comments for one issue, oldest first.",
			params: []param{pOwner(), pName(), issueNum, pFirst(), pAfter()},
			output: "{items[{id, body, authorLogin|null, url, createdAt}], pageInfo{hasNextPage, endCursor}}",
			run:    issueCommentsList,
		},
		{
			name: "issue.relations.prs.list", desc: "List pull requests linked to an issue (closing references and manual links, open or closed).",
			params: []param{pOwner(), pName(), issueNum},
			output: "{items[{id, number, title, state, url}]}",
			run:    issueLinkedPRs,
		},
		{
			name: "issue.relations.view", desc: "Get an issue's parent, sub-issues and blocking issues.",
			params: []param{pOwner(), pName(), issueNum},
			output: "{issue{id, number}, parent{id, number}|null, children[{id, number}], blockedBy[{id, number}]}",
			run:    issueRelationsView,
		},
	}
}

// labelNodes is the first page of an issue's or pull request's labels;
// 100 covers any realistic label set.
type labelNodes struct {
	Nodes []struct{ Name string }
}

func (l labelNodes) names() []any {
	out := make([]any, len(l.Nodes))
	for i, n := range l.Nodes {
		out[i] = n.Name
	}
	return out
}

func issueView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Repository struct {
			Issue *struct {
				ID     string
				Number int
				Title  string
				State  string
				URL    string
				Body   string
				Labels labelNodes `graphql:"labels(first: 100)"`
			} `graphql:"issue(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	vars := repoVars(in)
	vars["number"] = githubv4.Int(in.int("issueNumber"))
	if err := c.query(ctx, &q, vars); err != nil {
		return nil, err
	}
	i := q.Repository.Issue
	if i == nil {
		return nil, &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("issue #%d in %s", in.int("issueNumber"), repoName(in))}
	}
	return map[string]any{"id": i.ID, "number": i.Number, "title": i.Title, "state": i.State, "url": i.URL, "body": i.Body, "labels": i.Labels.names()}, nil
}

// coreNode is the {id number title state url} selection shared by issue and
// pull request lists.
type coreNode struct {
	ID     string
	Number int
	Title  string
	State  string
	URL    string
}

func (n coreNode) out() map[string]any {
	return map[string]any{"id": n.ID, "number": n.Number, "title": n.Title, "state": n.State, "url": n.URL}
}

func coreItems(nodes []coreNode) []any {
	out := make([]any, len(nodes))
	for i, n := range nodes {
		out[i] = n.out()
	}
	return out
}

// issueStates maps the state input to IssueState values.
func issueStates(state string) []githubv4.IssueState {
	switch state {
	case "open":
		return []githubv4.IssueState{githubv4.IssueStateOpen}
	case "closed":
		return []githubv4.IssueState{githubv4.IssueStateClosed}
	}
	return []githubv4.IssueState{githubv4.IssueStateOpen, githubv4.IssueStateClosed}
}

func issueList(ctx context.Context, c *call, in args) (any, error) {
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]coreNode, pageInfo, error) {
		var q struct {
			Repository struct {
				Issues struct {
					Nodes    []coreNode
					PageInfo pageInfo
				} `graphql:"issues(first: $first, after: $cursor, states: $states, orderBy: {field: CREATED_AT, direction: DESC})"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["first"], vars["cursor"], vars["states"] = githubv4.Int(n), gqlCursor(cursor), issueStates(in.str("state"))
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		return q.Repository.Issues.Nodes, q.Repository.Issues.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": coreItems(nodes), "pageInfo": pi.out()}, nil
}

func issueCommentsList(ctx context.Context, c *call, in args) (any, error) {
	type commentNode struct {
		ID        string
		Body      string
		CreatedAt string
		URL       string
		Author    *struct{ Login string }
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]commentNode, pageInfo, error) {
		var q struct {
			Repository struct {
				Issue *struct {
					Comments struct {
						Nodes    []commentNode
						PageInfo pageInfo
					} `graphql:"comments(first: $first, after: $cursor)"`
				} `graphql:"issue(number: $number)"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["number"], vars["first"], vars["cursor"] = githubv4.Int(in.int("issueNumber")), githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		if q.Repository.Issue == nil {
			return nil, pageInfo{}, &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("issue #%d in %s", in.int("issueNumber"), repoName(in))}
		}
		return q.Repository.Issue.Comments.Nodes, q.Repository.Issue.Comments.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, n := range nodes {
		items[i] = map[string]any{"id": n.ID, "body": n.Body, "authorLogin": login(n.Author), "url": n.URL, "createdAt": n.CreatedAt}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

// issueLinkedPRs reads closedByPullRequestsReferences with closed pull
// requests included: it covers both closing keywords and manual links from
// the Development sidebar (the ghx card's CONNECTED_EVENT timeline scan
// misses the former and reports disconnected links).
func issueLinkedPRs(ctx context.Context, c *call, in args) (any, error) {
	nodes, _, _, err := collect(ctx, c, 0, nil, func(ctx context.Context, n int, cursor *string) ([]coreNode, pageInfo, error) {
		var q struct {
			Repository struct {
				Issue *struct {
					ClosedByPullRequestsReferences struct {
						Nodes    []coreNode
						PageInfo pageInfo
					} `graphql:"closedByPullRequestsReferences(first: $first, after: $cursor, includeClosedPrs: true)"`
				} `graphql:"issue(number: $number)"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["number"], vars["first"], vars["cursor"] = githubv4.Int(in.int("issueNumber")), githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		if q.Repository.Issue == nil {
			return nil, pageInfo{}, &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("issue #%d in %s", in.int("issueNumber"), repoName(in))}
		}
		refs := q.Repository.Issue.ClosedByPullRequestsReferences
		return refs.Nodes, refs.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": coreItems(nodes)}, nil
}

type idNumber struct {
	ID     string
	Number int
}

func (n idNumber) out() map[string]any { return map[string]any{"id": n.ID, "number": n.Number} }

// issueRelationsView reads parent and sub-issues over GraphQL and blocking
// issues over REST (issue dependencies are not in the published GraphQL
// schema).
func issueRelationsView(ctx context.Context, c *call, in args) (any, error) {
	var issue idNumber
	var parent *idNumber
	children, _, _, err := collect(ctx, c, 0, nil, func(ctx context.Context, n int, cursor *string) ([]idNumber, pageInfo, error) {
		var q struct {
			Repository struct {
				Issue *struct {
					ID        string
					Number    int
					Parent    *idNumber
					SubIssues struct {
						Nodes    []idNumber
						PageInfo pageInfo
					} `graphql:"subIssues(first: $first, after: $cursor)"`
				} `graphql:"issue(number: $number)"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["number"], vars["first"], vars["cursor"] = githubv4.Int(in.int("issueNumber")), githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		i := q.Repository.Issue
		if i == nil {
			return nil, pageInfo{}, &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("issue #%d in %s", in.int("issueNumber"), repoName(in))}
		}
		issue, parent = idNumber{ID: i.ID, Number: i.Number}, i.Parent
		return i.SubIssues.Nodes, i.SubIssues.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	blockedBy := []any{}
	path := repoPath(in) + "/issues/" + strconv.Itoa(in.int("issueNumber")) + "/dependencies/blocked_by"
	what := fmt.Sprintf("dependencies of issue #%d in %s", in.int("issueNumber"), repoName(in))
	for pg := 1; pg <= c.e.maxPages; pg++ {
		var blockers []struct {
			NodeID string `json:"node_id"`
			Number int    `json:"number"`
		}
		q := url.Values{"per_page": {strconv.Itoa(pageSize)}, "page": {strconv.Itoa(pg)}}
		more, err := c.getJSON(ctx, path, q, what, &blockers)
		if err != nil {
			return nil, err
		}
		for _, b := range blockers {
			blockedBy = append(blockedBy, idNumber{ID: b.NodeID, Number: b.Number}.out())
		}
		if !more {
			break
		}
	}
	out := map[string]any{"issue": issue.out(), "parent": nil, "children": make([]any, len(children)), "blockedBy": blockedBy}
	if parent != nil {
		out["parent"] = parent.out()
	}
	for i, ch := range children {
		out["children"].([]any)[i] = ch.out()
	}
	return out, nil
}
