package githubfake

import (
	"cmp"
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
		// Clients that do not opt in see DUPLICATE as NOT_PLANNED.
		if dup, _ := boolArg(args, "enableDuplicate"); i.stateReason == "DUPLICATE" && !dup {
			return "NOT_PLANNED", nil
		}
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
		return paginate("labels", listOf(sortLabels(i.labels, args)), args)
	case "comments":
		return paginate("comments", listOf(orderComments(i.comments, args)), args)
	case "parent":
		return i.parent, nil
	case "subIssues":
		return paginate("subIssues", listOf(i.subIssues), args)
	case "closedByPullRequestsReferences":
		includeClosed, _ := boolArg(args, "includeClosedPrs")
		prs := slices.DeleteFunc(slices.Clone(i.closedBy), func(p *pull) bool {
			return !includeClosed && p.state != "OPEN"
		})
		// Every link in the model is a manual one, so userLinkedOnly
		// changes nothing; orderByState puts open pull requests first.
		if byState, _ := boolArg(args, "orderByState"); byState {
			slices.SortStableFunc(prs, func(a, b *pull) int {
				return cmp.Compare(stateRank(a.state), stateRank(b.state))
			})
		}
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

// stateRank orders pull request states open first.
func stateRank(state string) int {
	switch state {
	case "OPEN":
		return 0
	case "MERGED":
		return 1
	}
	return 2
}

// orderComments applies an IssueCommentOrder (UPDATED_AT; comments are
// never edited in the model, so that is creation order).
func orderComments(cs []*comment, args map[string]any) []*comment {
	if order, ok := args["orderBy"].(map[string]any); ok && order["direction"] == "DESC" {
		cs = slices.Clone(cs)
		slices.Reverse(cs)
	}
	return cs
}

func commentURL(parentURL string, dbID int64) string {
	return fmt.Sprintf("%s#issuecomment-%d", parentURL, dbID)
}
