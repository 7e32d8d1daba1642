package githubfake_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/agenteval/agenteval/internal/githubfake/internal/schemaprune"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type gqlResp struct {
	Data   map[string]any `json:"data"`
	Errors []struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Path    []any  `json:"path"`
	} `json:"errors"`
}

// post sends one GraphQL request and decodes the answer.
func post(t *testing.T, s *githubfake.Server, query string, vars map[string]any) gqlResp {
	t.Helper()
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	require.NoError(t, err)
	resp, err := s.Client().Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(raw))
	var out gqlResp
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return out
}

// rawJSON sends a query and returns the exact response text.
func rawJSON(t *testing.T, s *githubfake.Server, query string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	resp, err := s.Client().Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(bytes.TrimSpace(raw))
}

func demo(t *testing.T) (*githubfake.Server, *githubfake.PullRequestBuilder) {
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/demo")
	r.AddLabel(githubfake.Label{Name: "bug"})
	r.AddIssue(githubfake.Issue{Title: "First", Labels: []string{"bug"}})
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "Fix", Head: "fix", Commits: []string{"one", "two"}})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "a.go", Line: 1, Comments: []githubfake.Comment{{Author: "rev", Body: "x"}}})
	return s, pr
}

func TestOnlySelectedFieldsInOrder(t *testing.T) {
	t.Parallel()
	s, _ := demo(t)
	got := rawJSON(t, s, `{repository(owner:"acme",name:"demo"){nameWithOwner pr:pullRequest(number:2){n:number title} id}}`)
	assert.Equal(t, `{"data":{"repository":{"nameWithOwner":"acme/demo","pr":{"n":2,"title":"Fix"},"id":"R_3"}}}`, got)
}

func TestInvalidQueriesRejected(t *testing.T) {
	t.Parallel()
	s, _ := demo(t)
	tests := []struct{ name, query, want string }{
		{"unknown field", `{repository(owner:"acme",name:"demo"){nope}}`, `Cannot query field "nope" on type "Repository". Did you mean "name"?`},
		{"missing argument", `{repository(owner:"acme"){id}}`, `Field "repository" argument "name" of type "String!" is required, but it was not provided.`},
		{"syntax", `{repository(owner:"acme",name:"demo"){id}`, `Expected Name, found <EOF>`},
		{"field GitHub has but the fake does not serve", `{repository(owner:"acme",name:"demo"){hasWikiEnabled}}`, `Cannot query field "hasWikiEnabled" on type "Repository". Did you mean "hasIssuesEnabled"?`},
		{"unused variable", `query($x:Int){viewer{login}}`, `Variable "$x" is never used.`},
		{"wrong fragment type", `{repository(owner:"acme",name:"demo"){... on Issue{id}}}`, `Fragment cannot be spread here as objects of type "Repository" can never be of type "Issue".`},
		{"one response name for two fields", `{repository(owner:"acme",name:"demo"){x:name x:id}}`, `Fields "x" conflict because "name" and "id" are different fields. Use different aliases on the fields to fetch both if this was intentional.`},
		{"one field with two arguments", `{repository(owner:"acme",name:"demo"){issue(number:1){id} issue(number:2){id}}}`, `Fields "issue" conflict because they have differing arguments. Use different aliases on the fields to fetch both if this was intentional.`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := post(t, s, tc.query, nil)
			assert.Nil(t, r.Data)
			require.NotEmpty(t, r.Errors)
			assert.Equal(t, tc.want, r.Errors[0].Message)
		})
	}
	r := post(t, s, `query($n:Int!){repository(owner:"acme",name:"demo"){issue(number:$n){id}}}`, nil)
	require.NotEmpty(t, r.Errors)
	assert.Contains(t, r.Errors[0].Message, "must be defined")
}

// TestIssueOrPullRequest: Repository.issueOrPullRequest answers an issue or
// a pull request by number, and a field selected on both members of the
// union may return each member's own type (state: IssueState and
// PullRequestState), as GitHub answers gh's queries.
func TestIssueOrPullRequest(t *testing.T) {
	t.Parallel()
	s, pr := demo(t)
	q := `query($n:Int!){repository(owner:"acme",name:"demo"){hasIssuesEnabled item:issueOrPullRequest(number:$n){__typename ...on Issue{number state} ...on PullRequest{number state}}}}`
	r := post(t, s, q, map[string]any{"n": 1})
	require.Empty(t, r.Errors)
	assert.Equal(t, map[string]any{"hasIssuesEnabled": true, "item": map[string]any{"__typename": "Issue", "number": 1.0, "state": "OPEN"}}, r.Data["repository"])
	r = post(t, s, q, map[string]any{"n": pr.Number()})
	require.Empty(t, r.Errors)
	assert.Equal(t, map[string]any{"__typename": "PullRequest", "number": float64(pr.Number()), "state": "OPEN"}, r.Data["repository"].(map[string]any)["item"])
	r = post(t, s, q, map[string]any{"n": 99})
	require.NotEmpty(t, r.Errors)
	assert.Equal(t, "Could not resolve to an issue or pull request with the number of 99.", r.Errors[0].Message)
}

func TestNotFoundErrors(t *testing.T) {
	t.Parallel()
	s, _ := demo(t)
	tests := []struct {
		query string
		path  []any
		msg   string
	}{
		{`{repository(owner:"acme",name:"nope"){id}}`, []any{"repository"}, "Could not resolve to a Repository with the name 'acme/nope'."},
		{`{repository(owner:"acme",name:"demo"){issue(number:2){id}}}`, []any{"repository", "issue"}, "Could not resolve to an Issue with the number of 2."},
		{`{repository(owner:"acme",name:"demo"){pullRequest(number:1){id}}}`, []any{"repository", "pullRequest"}, "Could not resolve to a PullRequest with the number of 1."},
		{`{organization(login:"acme"){id}}`, []any{"organization"}, "Could not resolve to an Organization with the login of 'acme'."},
		{`{node(id:"X_1"){id}}`, []any{"node"}, "Could not resolve to a node with the global id of 'X_1'"},
	}
	for _, tc := range tests {
		r := post(t, s, tc.query, nil)
		require.Len(t, r.Errors, 1, tc.query)
		assert.Equal(t, "NOT_FOUND", r.Errors[0].Type)
		assert.Equal(t, tc.msg, r.Errors[0].Message)
		assert.Equal(t, tc.path, r.Errors[0].Path)
		require.NotNil(t, r.Data, "data is present with a null in place")
	}
	r := post(t, s, `{repository(owner:"acme",name:"demo"){ref(qualifiedName:"nope"){id} label(name:"nope"){id} release(tagName:"v0"){id}}}`, nil)
	assert.Empty(t, r.Errors, "ref, label and release answer null without an error, as on GitHub")
	assert.Equal(t, map[string]any{"ref": nil, "label": nil, "release": nil}, r.Data["repository"])
}

func TestFragmentsAliasesDirectives(t *testing.T) {
	t.Parallel()
	s, pr := demo(t)
	q := `query($id:ID!,$skip:Boolean!){
	  n: node(id:$id){ __typename ...PR }
	  repository(owner:"acme",name:"demo"){ defaultBranchRef{ target{ __typename oid ... on Commit{ messageHeadline } } }
	    issue(number:1){ title @skip(if:$skip) number @include(if:$skip) } }
	}
	fragment PR on PullRequest { number headRefName commits(last:1){ nodes{ commit{ messageHeadline } } } }`
	r := post(t, s, q, map[string]any{"id": pr.ID(), "skip": true})
	require.Empty(t, r.Errors)
	n := r.Data["n"].(map[string]any)
	assert.Equal(t, "PullRequest", n["__typename"])
	assert.Equal(t, "fix", n["headRefName"])
	assert.Equal(t, "two", n["commits"].(map[string]any)["nodes"].([]any)[0].(map[string]any)["commit"].(map[string]any)["messageHeadline"])
	repo := r.Data["repository"].(map[string]any)
	target := repo["defaultBranchRef"].(map[string]any)["target"].(map[string]any)
	assert.Equal(t, "Commit", target["__typename"])
	assert.Equal(t, "Initial commit", target["messageHeadline"])
	assert.Equal(t, map[string]any{"number": 1.0}, repo["issue"])
}

func TestConnections(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/many")
	for i := 0; i < 5; i++ {
		r.AddIssue(githubfake.Issue{Title: string(rune('a' + i))})
	}
	titles := func(d gqlResp) []any {
		var out []any
		for _, n := range d.Data["repository"].(map[string]any)["issues"].(map[string]any)["nodes"].([]any) {
			out = append(out, n.(map[string]any)["title"])
		}
		return out
	}
	q := `query($first:Int,$last:Int,$after:String,$before:String){repository(owner:"acme",name:"many"){issues(first:$first,last:$last,after:$after,before:$before){totalCount nodes{title} pageInfo{hasNextPage hasPreviousPage startCursor endCursor}}}}`
	p1 := post(t, s, q, map[string]any{"first": 2})
	assert.Equal(t, []any{"a", "b"}, titles(p1))
	pi := p1.Data["repository"].(map[string]any)["issues"].(map[string]any)["pageInfo"].(map[string]any)
	assert.Equal(t, true, pi["hasNextPage"])
	assert.Equal(t, false, pi["hasPreviousPage"])
	p2 := post(t, s, q, map[string]any{"first": 2, "after": pi["endCursor"]})
	assert.Equal(t, []any{"c", "d"}, titles(p2))
	assert.Equal(t, []any{"d", "e"}, titles(post(t, s, q, map[string]any{"last": 2})))
	assert.Equal(t, []any{"b", "c"}, titles(post(t, s, q, map[string]any{"last": 2, "before": p2.Data["repository"].(map[string]any)["issues"].(map[string]any)["pageInfo"].(map[string]any)["endCursor"]})))
	assert.Equal(t, 5.0, p1.Data["repository"].(map[string]any)["issues"].(map[string]any)["totalCount"])

	bad := post(t, s, q, map[string]any{"first": 101})
	require.Len(t, bad.Errors, 1)
	assert.Equal(t, "EXCESSIVE_PAGINATION", bad.Errors[0].Type)
	assert.Equal(t, "Requesting 101 records on the `issues` connection exceeds the `first` limit of 100 records.", bad.Errors[0].Message)
	missing := post(t, s, q, nil)
	require.Len(t, missing.Errors, 1)
	assert.Equal(t, "MISSING_PAGINATION_BOUNDARIES", missing.Errors[0].Type)
	both := post(t, s, q, map[string]any{"first": 1, "last": 1})
	require.Len(t, both.Errors, 1)
	assert.Equal(t, "Passing both `first` and `last` to paginate the `issues` connection is not supported.", both.Errors[0].Message)
	count := post(t, s, `{repository(owner:"acme",name:"many"){issues{totalCount}}}`, nil)
	assert.Empty(t, count.Errors, "totalCount alone needs no page size")
	cursor := post(t, s, q, map[string]any{"first": 1, "after": "bogus"})
	require.Len(t, cursor.Errors, 1)
	assert.Equal(t, "INVALID_CURSOR_ARGUMENTS", cursor.Errors[0].Type)
}

// TestSchemaUpToDate regenerates the pruned schema from GitHub's full one
// and compares it with the committed file, so served.txt, the generator and
// schema.graphql cannot drift apart.
func TestSchemaUpToDate(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("AGENTEVAL_GITHUB_SCHEMA_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "shared", "github")
	}
	full, err := os.ReadFile(filepath.Join(dir, "schema.graphql"))
	require.NoError(t, err)
	license, err := os.ReadFile(filepath.Join(dir, "LICENSE.md"))
	require.NoError(t, err)
	f, err := os.Open(filepath.Join("internal", "schemagen", "served.txt"))
	require.NoError(t, err)
	defer f.Close()
	fields, err := schemaprune.ReadFields(f)
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, schemaprune.Prune(&want, string(full), fields, string(license)))
	got, err := os.ReadFile("schema.graphql")
	require.NoError(t, err)
	assert.Equal(t, want.String(), string(got), "run go generate ./github/githubtest")
}

// TestConcurrentUse mixes queries, mutations and builders; run with -race.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	s, pr := demo(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(3)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"query": `{repository(owner:"acme",name:"demo"){pullRequest(number:2){reviewThreads(first:100){nodes{isResolved comments(first:5){nodes{body}}}}}}}`})
			resp, err := s.Client().Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{"query": `mutation($id:ID!){addComment(input:{subjectId:$id,body:"hi"}){clientMutationId}}`, "variables": map[string]any{"id": pr.ID()}})
			resp, err := s.Client().Post(s.GraphQLURL(), "application/json", bytes.NewReader(body))
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		go func() {
			defer wg.Done()
			pr.AddReviewThread(githubfake.ReviewThread{Path: "b.go", Line: 2, Comments: []githubfake.Comment{{Body: "y"}}})
			_, _ = s.PullRequest("acme/demo", 2)
		}()
	}
	wg.Wait()
	snap, ok := s.PullRequest("acme/demo", 2)
	require.True(t, ok)
	assert.Len(t, snap.ReviewThreads, 9)
	assert.Len(t, snap.Comments, 8)
	assert.Equal(t, 16, s.RequestCount(""))
	for _, r := range s.Requests() {
		assert.Contains(t, r.Document, "{", "GraphQL requests keep their document")
	}
}

// TestArguments checks the filtering and ordering arguments the resolvers
// honour, and that unmodelled filters are refused rather than ignored.
func TestArguments(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	r := s.AddRepo("acme/args")
	r.AddLabel(githubfake.Label{Name: "zeta"})
	r.AddLabel(githubfake.Label{Name: "alpha"})
	r.AddIssue(githubfake.Issue{Title: "by alice", Author: "alice", Labels: []string{"zeta"}})
	r.AddIssue(githubfake.Issue{Title: "by bob", Author: "bob", State: "CLOSED", StateReason: "DUPLICATE"})
	pr := r.AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h"})
	pr.AddReviewThread(githubfake.ReviewThread{Path: "a", Line: 1, Comments: []githubfake.Comment{{Body: "one"}, {Body: "two"}, {Body: "three"}}})

	d := post(t, s, `{repository(owner:"acme",name:"args"){
	  labels(first:10, orderBy:{field:NAME, direction:ASC}){nodes{name}}
	  byAlice: issues(first:10, filterBy:{createdBy:"alice"}){nodes{title}}
	  closed: issues(first:10, filterBy:{states:[CLOSED]}){nodes{title stateReason dup: stateReason(enableDuplicate:true)}}
	  pullRequest(number:3){reviewThreads(first:1){nodes{comments(first:5, skip:1){nodes{body}}}}}
	}}`, nil)
	require.Empty(t, d.Errors)
	repo := d.Data["repository"].(map[string]any)
	assert.Equal(t, []any{map[string]any{"name": "alpha"}, map[string]any{"name": "zeta"}}, repo["labels"].(map[string]any)["nodes"])
	assert.Equal(t, []any{map[string]any{"title": "by alice"}}, repo["byAlice"].(map[string]any)["nodes"])
	assert.Equal(t, []any{map[string]any{"title": "by bob", "stateReason": "NOT_PLANNED", "dup": "DUPLICATE"}}, repo["closed"].(map[string]any)["nodes"])
	thread := repo["pullRequest"].(map[string]any)["reviewThreads"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{map[string]any{"body": "two"}, map[string]any{"body": "three"}}, thread["comments"].(map[string]any)["nodes"])

	bad := post(t, s, `{repository(owner:"acme",name:"args"){issues(first:1, filterBy:{assignee:"x"}){totalCount}}}`, nil)
	require.Len(t, bad.Errors, 1)
	assert.Equal(t, "UNSUPPORTED", bad.Errors[0].Type)
}

// TestChangedFilesStable checks that reading a pull request's files twice
// gives the same answer when its commits touch an explicitly given file.
func TestChangedFilesStable(t *testing.T) {
	t.Parallel()
	s := githubfake.NewServer(t)
	pr := s.AddRepo("acme/demo").AddPullRequest(githubfake.PullRequest{Title: "p", Head: "h",
		Files: []githubfake.ChangedFile{{Path: "a.go", Additions: 2, Patch: "@@ -1 +1,2 @@\n+x\n+y\n"}}})
	pr.AddCommit("more", githubfake.File{Path: "a.go", Content: "z\n"})
	q := `{repository(owner:"acme",name:"demo"){pullRequest(number:1){files(first:5){nodes{path additions}}}}}`
	first := rawJSON(t, s, q)
	assert.Equal(t, first, rawJSON(t, s, q))
	assert.Contains(t, first, `{"path":"a.go","additions":3}`)
}

// TestVariablesAsStrictAsGitHub checks the coercions gqlparser allows but
// GitHub refuses.
func TestVariablesAsStrictAsGitHub(t *testing.T) {
	t.Parallel()
	s, _ := demo(t)
	q := `query($n:Int!,$s:[IssueState!]){repository(owner:"acme",name:"demo"){issues(first:$n,states:$s){totalCount}}}`
	ok := post(t, s, q, map[string]any{"n": 5, "s": []any{"OPEN"}})
	require.Empty(t, ok.Errors)
	for name, vars := range map[string]map[string]any{
		"string for Int":  {"n": "5"},
		"fraction":        {"n": 1.5},
		"lower-case enum": {"n": 5, "s": []any{"open"}},
	} {
		r := post(t, s, q, vars)
		require.Len(t, r.Errors, 1, name)
		assert.Nil(t, r.Data, name)
	}
}
