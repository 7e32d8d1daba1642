package github

import (
	"context"
	"fmt"

	"github.com/shurcooL/githubv4"
)

func releaseTasks() []taskDef {
	item := "{id, tagName, name, isDraft, isPrerelease, url, targetCommitish, createdAt, publishedAt}"
	return []taskDef{
		{
			name: "release.list", desc: "List releases, newest first.",
			params: []param{pOwner(), pName(), pFirst(), pAfter()},
			output: "{items[" + item + "], pageInfo{hasNextPage, endCursor}}",
			run:    releaseList,
		},
		{
			name: "release.view", desc: "Get one release by tag name.",
			params: []param{pOwner(), pName(), {name: "tagName", kind: kindString, required: true, aliases: []string{"tag"}, desc: "release tag"}},
			output: item,
			run:    releaseView,
		},
	}
}

type releaseNode struct {
	DatabaseID   *int `graphql:"databaseId"`
	TagName      string
	Name         *string
	IsDraft      bool
	IsPrerelease bool
	URL          string
	TagCommit    *struct{ Oid string }
	CreatedAt    string
	PublishedAt  *string
}

func (r releaseNode) out() map[string]any {
	var id, target any
	if r.DatabaseID != nil {
		id = *r.DatabaseID
	}
	if r.TagCommit != nil {
		target = r.TagCommit.Oid
	}
	return map[string]any{"id": id, "tagName": r.TagName, "name": strPtr(r.Name), "isDraft": r.IsDraft, "isPrerelease": r.IsPrerelease,
		"url": r.URL, "targetCommitish": target, "createdAt": r.CreatedAt, "publishedAt": strPtr(r.PublishedAt)}
}

func releaseList(ctx context.Context, c *call, in args) (any, error) {
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]releaseNode, pageInfo, error) {
		var q struct {
			Repository struct {
				Releases struct {
					Nodes    []releaseNode
					PageInfo pageInfo
				} `graphql:"releases(first: $first, after: $cursor, orderBy: {field: CREATED_AT, direction: DESC})"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["first"], vars["cursor"] = githubv4.Int(n), gqlCursor(cursor)
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		return q.Repository.Releases.Nodes, q.Repository.Releases.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, r := range nodes {
		items[i] = r.out()
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

func releaseView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Repository struct {
			Release *releaseNode `graphql:"release(tagName: $tag)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	vars := repoVars(in)
	vars["tag"] = githubv4.String(in.str("tagName"))
	if err := c.query(ctx, &q, vars); err != nil {
		return nil, err
	}
	if q.Repository.Release == nil {
		return nil, &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("release with tag %q in %s", in.str("tagName"), repoName(in))}
	}
	return q.Repository.Release.out(), nil
}
