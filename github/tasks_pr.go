package github

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shurcooL/githubv4"
)

// maxDiffBytes bounds how much of a diff pr.diff.view reads.
const maxDiffBytes = 20 << 20

func pPR() param { return pNumber("prNumber", "pull request") }

func prTasks() []taskDef {
	return []taskDef{
		{
			name: "pr.view", desc: "Fetch one pull request by number.",
			params: []param{pOwner(), pName(), pPR()},
			output: "{id, number, title, state, url, body, labels[name]}",
			run:    prView,
		},
		{
			name: "pr.list", desc: "List repository pull requests, newest first.",
			params: []param{pOwner(), pName(), pState("pull requests", "open", "closed", "merged", "all"), pFirst(), pAfter()},
			output: "{items[{id, number, title, state, url}], pageInfo{hasNextPage, endCursor}}",
			run:    prList,
		},
		{
			name: "pr.commits.list", desc: "List a pull request's commits, oldest first.",
			params: []param{pOwner(), pName(), pPR(), pFirst(), pAfter()},
			output: "{items[{oid, messageHeadline, authoredDate, committedDate, authorName|null, authorLogin|null, url}], pageInfo{hasNextPage, endCursor}, totalCount}",
			run:    prCommitsList,
		},
		{
			name: "pr.diff.files", desc: "List changed files in a pull request diff.",
			params: []param{pOwner(), pName(), pPR(), pFirst(), pAfter()},
			output: "{items[{path, additions, deletions}], pageInfo{hasNextPage, endCursor}}",
			run:    prDiffFiles,
		},
		{
			name: "pr.diff.view", desc: "View the unified diff of a pull request.",
			params: []param{pOwner(), pName(), pPR()},
			output: "{diff}",
			run:    prDiffView,
		},
		{
			name: "pr.checks.list", desc: "List the checks of a pull request's head commit with summary counts.",
			params: []param{pOwner(), pName(), pPR(), {name: "state", kind: kindString, enum: []string{"failed", "pending", "passed"}, desc: "only checks in this bucket"}},
			output: "{items[{name, state, workflow|null, link|null, annotations[{path, startLine, endLine, level, message}]}], summary{total, failed, pending, passed}}",
			run:    prChecksList,
		},
		{
			name: "pr.merge.status", desc: "Report whether a pull request can be merged.",
			params: []param{pOwner(), pName(), pPR()},
			output: "{mergeable|null, mergeStateStatus|null, reviewDecision|null, isDraft, state}",
			run:    prMergeStatus,
		},
	}
}

func prVars(in args) map[string]any {
	vars := repoVars(in)
	vars["number"] = githubv4.Int(in.int("prNumber"))
	return vars
}

func prNotFound(c *call, in args) error {
	return &Error{Kind: ErrNotFound, Task: c.task, Message: fmt.Sprintf("pull request #%d in %s", in.int("prNumber"), repoName(in))}
}

func prView(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Repository struct {
			PullRequest *struct {
				ID     string
				Number int
				Title  string
				State  string
				URL    string
				Body   string
				Labels labelNodes `graphql:"labels(first: 100)"`
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	if err := c.query(ctx, &q, prVars(in)); err != nil {
		return nil, err
	}
	p := q.Repository.PullRequest
	if p == nil {
		return nil, prNotFound(c, in)
	}
	return map[string]any{"id": p.ID, "number": p.Number, "title": p.Title, "state": p.State, "url": p.URL, "body": p.Body, "labels": p.Labels.names()}, nil
}

func prStates(state string) []githubv4.PullRequestState {
	switch state {
	case "open":
		return []githubv4.PullRequestState{githubv4.PullRequestStateOpen}
	case "closed":
		return []githubv4.PullRequestState{githubv4.PullRequestStateClosed}
	case "merged":
		return []githubv4.PullRequestState{githubv4.PullRequestStateMerged}
	}
	return []githubv4.PullRequestState{githubv4.PullRequestStateOpen, githubv4.PullRequestStateClosed, githubv4.PullRequestStateMerged}
}

func prList(ctx context.Context, c *call, in args) (any, error) {
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]coreNode, pageInfo, error) {
		var q struct {
			Repository struct {
				PullRequests struct {
					Nodes    []coreNode
					PageInfo pageInfo
				} `graphql:"pullRequests(first: $first, after: $cursor, states: $states, orderBy: {field: CREATED_AT, direction: DESC})"`
			} `graphql:"repository(owner: $owner, name: $name)"`
		}
		vars := repoVars(in)
		vars["first"], vars["cursor"], vars["states"] = githubv4.Int(n), gqlCursor(cursor), prStates(in.str("state"))
		if err := c.query(ctx, &q, vars); err != nil {
			return nil, pageInfo{}, err
		}
		return q.Repository.PullRequests.Nodes, q.Repository.PullRequests.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": coreItems(nodes), "pageInfo": pi.out()}, nil
}

func prCommitsList(ctx context.Context, c *call, in args) (any, error) {
	type commitNode struct {
		Commit struct {
			Oid             string
			MessageHeadline string
			AuthoredDate    string
			CommittedDate   string
			URL             string
			Author          *struct {
				Name *string
				User *struct{ Login string }
			}
		}
	}
	total := 0
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]commitNode, pageInfo, error) {
		var q struct {
			Repository struct {
				PullRequest *struct {
					Commits struct {
						TotalCount int
						Nodes      []commitNode
						PageInfo   pageInfo
					} `graphql:"commits(first: $first, after: $cursor)"`
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
		total = q.Repository.PullRequest.Commits.TotalCount
		return q.Repository.PullRequest.Commits.Nodes, q.Repository.PullRequest.Commits.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, n := range nodes {
		cm := n.Commit
		var name, user any
		if cm.Author != nil {
			name = strPtr(cm.Author.Name)
			if cm.Author.User != nil {
				user = cm.Author.User.Login
			}
		}
		items[i] = map[string]any{"oid": cm.Oid, "messageHeadline": cm.MessageHeadline, "authoredDate": cm.AuthoredDate,
			"committedDate": cm.CommittedDate, "authorName": name, "authorLogin": user, "url": cm.URL}
	}
	return map[string]any{"items": items, "pageInfo": pi.out(), "totalCount": total}, nil
}

func prDiffFiles(ctx context.Context, c *call, in args) (any, error) {
	type fileNode struct {
		Path      string
		Additions int
		Deletions int
	}
	first, _ := in.optInt("first")
	nodes, pi, _, err := collect(ctx, c, first, in.cursor(), func(ctx context.Context, n int, cursor *string) ([]fileNode, pageInfo, error) {
		var q struct {
			Repository struct {
				PullRequest *struct {
					Files *struct {
						Nodes    []fileNode
						PageInfo pageInfo
					} `graphql:"files(first: $first, after: $cursor)"`
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
		if p.Files == nil {
			return nil, pageInfo{}, nil
		}
		return p.Files.Nodes, p.Files.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	items := make([]any, len(nodes))
	for i, f := range nodes {
		items[i] = map[string]any{"path": f.Path, "additions": f.Additions, "deletions": f.Deletions}
	}
	return map[string]any{"items": items, "pageInfo": pi.out()}, nil
}

// prDiffView uses REST: GraphQL has no unified diff.
func prDiffView(ctx context.Context, c *call, in args) (any, error) {
	path := repoPath(in) + "/pulls/" + strconv.Itoa(in.int("prNumber"))
	what := fmt.Sprintf("pull request #%d in %s", in.int("prNumber"), repoName(in))
	diff, more, err := c.getText(ctx, path, "application/vnd.github.diff", what, maxDiffBytes)
	if err != nil {
		return nil, err
	}
	if more {
		return nil, fmt.Errorf("%s: the diff of %s is larger than %d MiB", c.task, what, maxDiffBytes>>20)
	}
	return map[string]any{"diff": diff}, nil
}

// checkContext is one entry of a commit's status check rollup.
type checkContext struct {
	Typename string `graphql:"__typename"`
	CheckRun struct {
		Name       string
		Status     string
		Conclusion *string
		DetailsURL *string `graphql:"detailsUrl"`
		CheckSuite *struct {
			WorkflowRun *struct {
				Workflow struct{ Name string }
			}
		}
		Annotations *struct {
			Nodes []struct {
				Path     string
				Location struct {
					Start struct{ Line int }
					End   struct{ Line int }
				}
				AnnotationLevel *string
				Message         string
			}
		} `graphql:"annotations(first: 50)"`
	} `graphql:"... on CheckRun"`
	StatusContext struct {
		Context   string
		State     string
		TargetURL *string `graphql:"targetUrl"`
	} `graphql:"... on StatusContext"`
}

// bucket sorts a check state the way gh pr checks does.
func bucket(state string) string {
	switch state {
	case "SUCCESS":
		return "passed"
	case "FAILURE", "ERROR", "TIMED_OUT", "ACTION_REQUIRED", "STARTUP_FAILURE", "CANCELLED":
		return "failed"
	case "NEUTRAL", "SKIPPED", "STALE":
		return "skipped"
	}
	return "pending"
}

// prChecksList reads the head commit's status check rollup. Unlike the ghx
// card's CLI route it computes the buckets, so summary counts and the state
// filter work.
func prChecksList(ctx context.Context, c *call, in args) (any, error) {
	nodes, _, _, err := collect(ctx, c, 0, nil, func(ctx context.Context, n int, cursor *string) ([]checkContext, pageInfo, error) {
		var q struct {
			Repository struct {
				PullRequest *struct {
					Commits struct {
						Nodes []struct {
							Commit struct {
								StatusCheckRollup *struct {
									Contexts struct {
										Nodes    []checkContext
										PageInfo pageInfo
									} `graphql:"contexts(first: $first, after: $cursor)"`
								}
							}
						}
					} `graphql:"commits(last: 1)"`
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
		if len(p.Commits.Nodes) == 0 || p.Commits.Nodes[0].Commit.StatusCheckRollup == nil {
			return nil, pageInfo{}, nil
		}
		ctxs := p.Commits.Nodes[0].Commit.StatusCheckRollup.Contexts
		return ctxs.Nodes, ctxs.PageInfo, nil
	})
	if err != nil {
		return nil, err
	}
	want := in.str("state")
	items := []any{}
	summary := map[string]int{"total": 0, "failed": 0, "pending": 0, "passed": 0}
	for _, n := range nodes {
		var item map[string]any
		var state string
		switch n.Typename {
		case "CheckRun":
			cr := n.CheckRun
			state = cr.Status
			if cr.Status == "COMPLETED" && cr.Conclusion != nil {
				state = *cr.Conclusion
			}
			var workflow any
			if cr.CheckSuite != nil && cr.CheckSuite.WorkflowRun != nil {
				workflow = cr.CheckSuite.WorkflowRun.Workflow.Name
			}
			annotations := []any{}
			if cr.Annotations != nil {
				for _, a := range cr.Annotations.Nodes {
					annotations = append(annotations, map[string]any{"path": a.Path, "startLine": a.Location.Start.Line,
						"endLine": a.Location.End.Line, "level": strPtr(a.AnnotationLevel), "message": a.Message})
				}
			}
			item = map[string]any{"name": cr.Name, "state": state, "workflow": workflow, "link": strPtr(cr.DetailsURL), "annotations": annotations}
		case "StatusContext":
			sc := n.StatusContext
			state = sc.State
			item = map[string]any{"name": sc.Context, "state": state, "workflow": nil, "link": strPtr(sc.TargetURL), "annotations": []any{}}
		default:
			continue
		}
		b := bucket(state)
		summary["total"]++
		if _, counted := summary[b]; counted {
			summary[b]++
		}
		if want == "" || strings.EqualFold(want, b) {
			items = append(items, item)
		}
	}
	return map[string]any{"items": items, "summary": map[string]any{
		"total": summary["total"], "failed": summary["failed"], "pending": summary["pending"], "passed": summary["passed"],
	}}, nil
}

func prMergeStatus(ctx context.Context, c *call, in args) (any, error) {
	var q struct {
		Repository struct {
			PullRequest *struct {
				Mergeable        string
				MergeStateStatus string
				ReviewDecision   *string
				IsDraft          bool
				State            string
			} `graphql:"pullRequest(number: $number)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
	}
	if err := c.query(ctx, &q, prVars(in)); err != nil {
		return nil, err
	}
	p := q.Repository.PullRequest
	if p == nil {
		return nil, prNotFound(c, in)
	}
	return map[string]any{"mergeable": p.Mergeable, "mergeStateStatus": p.MergeStateStatus,
		"reviewDecision": strPtr(p.ReviewDecision), "isDraft": p.IsDraft, "state": p.State}, nil
}
