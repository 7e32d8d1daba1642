package githubtest

import (
	"fmt"
	"slices"
)

func (i *issue) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	switch field {
	case "id":
		return i.id, nil
	case "databaseId":
		return i.dbID, nil
	case "number":
		return i.number, nil
	case "title":
		return i.title, nil
	case "body":
		return i.body, nil
	case "state":
		return i.state, nil
	case "stateReason":
		return nullable(i.stateReason), nil
	case "closed":
		return i.state == "CLOSED", nil
	case "url":
		return i.url(), nil
	case "createdAt":
		return i.createdAt, nil
	case "updatedAt":
		return i.updatedAt, nil
	case "closedAt":
		return i.closedAt, nil
	case "author":
		return ec.st.findAccount(i.author), nil
	case "labels":
		return paginate("labels", listOf(i.labels), args)
	case "comments":
		return paginate("comments", listOf(i.comments), args)
	case "parent":
		return i.parent, nil
	case "subIssues":
		return paginate("subIssues", listOf(i.subIssues), args)
	case "closedByPullRequestsReferences":
		includeClosed, _ := boolArg(args, "includeClosedPrs")
		prs := slices.DeleteFunc(slices.Clone(i.closedBy), func(p *pull) bool {
			return !includeClosed && p.state != "OPEN"
		})
		return paginate("closedByPullRequestsReferences", listOf(prs), args)
	case "repository":
		return i.repo, nil
	case "projectV2":
		n, _ := intArg(args, "number")
		return projectContaining(ec.st, n, i)
	}
	return nil, unserved("Issue", field)
}

func (c *comment) resolve(ec *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "id":
		return c.id, nil
	case "databaseId":
		return c.dbID, nil
	case "body":
		return c.body, nil
	case "createdAt":
		return c.createdAt, nil
	case "url":
		return c.url, nil
	case "author":
		return ec.st.findAccount(c.author), nil
	}
	return nil, unserved("IssueComment", field)
}

func commentURL(parentURL string, dbID int64) string {
	return fmt.Sprintf("%s#issuecomment-%d", parentURL, dbID)
}
