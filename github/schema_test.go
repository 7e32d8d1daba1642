package github_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenteval/agenteval/github"
	"github.com/agenteval/agenteval/internal/githubfake"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// fullSchemaPath locates GitHub's published schema: $AGENTEVAL_GITHUB_SCHEMA
// (a newer one), or the copy in testdata/shared/github.
func fullSchemaPath() string {
	if p := os.Getenv("AGENTEVAL_GITHUB_SCHEMA"); p != "" {
		return p
	}
	return filepath.Join("..", "testdata", "shared", "github", "schema.graphql")
}

// recorder keeps the body of every GraphQL request.
type recorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []recorded
}

type recorded struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/graphql") && req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(b))
		var rec recorded
		if err := json.Unmarshal(b, &rec); err == nil {
			r.mu.Lock()
			r.reqs = append(r.reqs, rec)
			r.mu.Unlock()
		}
	}
	return r.next.RoundTrip(req)
}

// TestQueriesValidAgainstGitHubSchema runs every task and validates each
// GraphQL document (and its variables) the executor sent against GitHub's
// full published schema, not the fake's pruned copy.
func TestQueriesValidAgainstGitHubSchema(t *testing.T) {
	t.Parallel()
	sdl, err := os.ReadFile(fullSchemaPath())
	require.NoError(t, err)
	schema, err := githubfake.LoadSchema(string(sdl))
	require.NoError(t, err)

	s := githubfake.NewServer(t)
	sd := seed(t, s)
	rec := &recorder{next: s.Client().Transport}
	exec := github.NewExecutor(github.NewClient(github.Config{GraphQLURL: s.GraphQLURL(), Transport: rec}), github.ExecutorOptions{})
	for task, input := range sampleInputs(sd) {
		_, err := exec.Execute(context.Background(), task, input)
		require.NoError(t, err, task)
	}
	// The not-found paths send the same documents; the paginating paths
	// send them with a cursor, which the variables check covers.
	docs := map[string]recorded{}
	for _, r := range rec.reqs {
		docs[r.Query] = r
	}
	// 22 GraphQL tasks; the two review-thread tasks share one document.
	require.GreaterOrEqual(t, len(docs), 21)
	for q, r := range docs {
		doc, perr := parser.ParseQuery(&ast.Source{Input: q})
		require.NoError(t, perr, q)
		errs := validator.ValidateWithRules(schema, doc, nil)
		require.Empty(t, errs, "invalid on GitHub: %s", q)
		require.Len(t, doc.Operations, 1)
		_, verr := validator.VariableValues(schema, doc.Operations[0], r.Variables)
		require.NoError(t, verr, "variables of %s", q)
	}
}
