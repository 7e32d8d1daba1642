package githubfake

import (
	"strings"
	"time"
)

// queryRoot resolves the fields of Query.
type queryRoot struct{}

func (queryRoot) resolve(ec *execCtx, field string, args map[string]any) (any, error) {
	st := ec.st
	switch field {
	case "id":
		return "QUERY", nil
	case "repository":
		owner, _ := strArg(args, "owner")
		name, _ := strArg(args, "name")
		r := st.repo(owner, name)
		if r == nil {
			return nil, errNotFound("Could not resolve to a Repository with the name '%s/%s'.", owner, name)
		}
		return r, nil
	case "organization":
		login, _ := strArg(args, "login")
		a := st.accounts[strings.ToLower(login)]
		if a == nil || a.kind != "Organization" {
			return nil, errNotFound("Could not resolve to an Organization with the login of '%s'.", login)
		}
		return a, nil
	case "user":
		login, _ := strArg(args, "login")
		a := st.accounts[strings.ToLower(login)]
		if a == nil || a.kind != "User" {
			return nil, errNotFound("Could not resolve to a User with the login of '%s'.", login)
		}
		return a, nil
	case "repositoryOwner":
		login, _ := strArg(args, "login")
		a := st.accounts[strings.ToLower(login)]
		if a == nil || a.kind == "Bot" {
			return nil, nil
		}
		return a, nil
	case "node":
		id, _ := args["id"].(string)
		n := st.nodes[id]
		if n == nil {
			return nil, errNotFound("Could not resolve to a node with the global id of '%s'", id)
		}
		return n, nil
	case "nodes":
		ids, _ := args["ids"].([]any)
		out := make([]any, len(ids))
		for i, id := range ids {
			s, _ := id.(string)
			out[i] = st.nodes[s]
		}
		return out, nil
	case "viewer":
		return st.findAccount(ec.viewer), nil
	case "rateLimit":
		return rateLimitInfo{reset: st.clock.Add(time.Hour)}, nil
	case "__schema", "__type":
		// Clients of the fake read the schema from githubfake.Schema();
		// answering introspection would mean serving the whole meta-model.
		return nil, &fieldError{typ: "UNSUPPORTED", msg: "githubtest does not answer introspection queries; use githubfake.Schema()"}
	}
	return nil, unserved("Query", field)
}

// rateLimitInfo answers Query.rateLimit with a generous, constant budget;
// SimulateRateLimit is how tests exercise exhaustion.
type rateLimitInfo struct{ reset time.Time }

func (r rateLimitInfo) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	switch field {
	case "cost", "used", "nodeCount":
		return 1, nil
	case "limit":
		return 5000, nil
	case "remaining":
		return 4999, nil
	case "resetAt":
		return r.reset, nil
	}
	return nil, unserved("RateLimit", field)
}

// payload answers a mutation payload type: the fields it holds, null for the
// others (every payload field in GitHub's schema is nullable).
type payload map[string]any

func (p payload) resolve(_ *execCtx, field string, _ map[string]any) (any, error) {
	return p[field], nil
}

// nullable turns the model's empty string into GraphQL null.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func intPtrValue(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// projectContaining finds project number of any owner that has content as
// an item: what Issue.projectV2 and PullRequest.projectV2 answer.
func projectContaining(st *state, number int, content any) (any, error) {
	for _, a := range st.accounts {
		for _, p := range a.projects {
			if p.number != number {
				continue
			}
			for _, it := range p.items {
				if it.content == content {
					return p, nil
				}
			}
		}
	}
	return nil, errNotFound("Could not resolve to a ProjectV2 with the number %d.", number)
}
