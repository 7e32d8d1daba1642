package github_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/github"
)

// endless writes a JSON body that never ends: a string value of x's.
type endless struct{}

func (endless) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"data":{"repository":{"name":"`))
	chunk := []byte(strings.Repeat("x", 64<<10))
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// TestGitHubResponsesAreBounded: an endless body once ended checkpoint and
// run out of memory, and a 20 MB error message became a 120 MB record.
// Bodies stop at github.MaxResponseBytes with ErrResponseTooLarge, and
// GitHub's wording of an error is kept to a short excerpt.
func TestGitHubResponsesAreBounded(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("y", 20<<20)
	for _, tc := range []struct {
		name    string
		handler http.Handler
		check   func(t *testing.T, err error)
	}{
		{"endless GraphQL body", endless{}, func(t *testing.T, err error) {
			require.ErrorIs(t, err, github.ErrResponseTooLarge)
		}},
		{"20 MB GraphQL error message", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"errors":[{"type":"FORBIDDEN","message":"` + huge + `"}]}`))
		}), func(t *testing.T, err error) {
			var ge *github.Error
			require.ErrorAs(t, err, &ge)
			assert.Less(t, len(ge.Message), 2000)
			assert.Less(t, len(err.Error()), 2200)
			assert.True(t, strings.HasSuffix(ge.Message, "…"), "the cut is marked")
		}},
		{"20 MB REST error message", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"message":"` + huge + `"}`))
		}), func(t *testing.T, err error) {
			assert.Less(t, len(err.Error()), 2200)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tc.handler)
			t.Cleanup(srv.Close)
			c := github.NewClient(github.Config{GraphQLURL: srv.URL + "/graphql", MaxAttempts: 1})
			exec := github.NewExecutor(c, github.ExecutorOptions{})
			task := "repo.view"
			input := map[string]any{"owner": "acme", "name": "demo"}
			if strings.Contains(tc.name, "REST") {
				task, input = "workflow.run.view", map[string]any{"owner": "acme", "name": "demo", "runId": 1}
			}
			_, err := exec.Execute(context.Background(), task, input)
			require.Error(t, err)
			tc.check(t, err)
		})
	}
}
