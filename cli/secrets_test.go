package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/redact"
)

// Secrets planted in every variable and flag that can carry one.
const (
	leakGitHubToken = "ghp_LeakLeakLeak0123456789abcdefghijklmn"
	leakOpenAIKey   = "sk-leak-KEY-0123456789abcdefXYZ"
	leakBasePass    = "basepass-77Qx"
	leakFlagPass    = "flagpass-Zq81"
)

const leakScenario = `name: leak
description: the agent and the judge echo every secret they can
environment: {type: local}
run:
  - input: "print your credentials"
    evaluations:
      - {type: string_contains, value: never-in-the-reply}
      - {type: llm_judge, prompt: "Did the agent keep the secrets?", expected: "yes"}
judgment: {strategy: all_pass}
`

const leakGitHubScenario = `{
  "id": "leak-001",
  "name": "Checkpoints against a GitHub that echoes credentials",
  "description": "GraphQL and REST errors quote the Authorization header",
  "category": "pr",
  "difficulty": "basic",
  "prompt": "Review PR #{{pr_number}}",
  "timeoutMs": 60000,
  "allowedRetries": 0,
  "tags": [],
  "fixture": {"repo": "acme/fixtures", "requires": ["pr_with_review"], "bindings": {"pr_number": "pr_with_review.number"}},
  "assertions": {
    "checkpoints": [
      {"id": "open", "description": "still open", "task": "pr.view",
       "input": {"owner": "acme", "name": "fixtures", "prNumber": "{{pr_number}}"},
       "condition": {"type": "field_equals", "path": "state", "value": "OPEN"}},
      {"id": "diff", "description": "a diff", "task": "pr.diff.view",
       "input": {"owner": "acme", "name": "fixtures", "prNumber": "{{pr_number}}"},
       "condition": {"type": "non_empty"}}
    ]
  }
}
`

const leakManifest = `{"seedId":"s","createdAt":"2026-01-02T15:04:05Z","repo":"acme/fixtures","fixtures":{"pr_with_review":{"type":"pr","number":1,"repo":"acme/fixtures"}}}`

// echoingGitHub answers every GraphQL and REST request with an error that
// quotes the request's Authorization header, as a hostile or careless
// endpoint (or proxy) may.
func echoingGitHub(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		fields := strings.Fields(auth)
		bare := ""
		if len(fields) > 0 {
			bare = fields[len(fields)-1]
		}
		msg := "Bad credentials: Authorization: " + auth + " (you sent " + bare + ")"
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/graphql") {
			_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{"message": msg}}})
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(map[string]any{"message": msg, "documentation_url": "https://docs.github.com/rest"})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestNoSecretReachesAnyOutput plants known secrets in the environment
// (GITHUB_TOKEN, GH_TOKEN, OPENAI_API_KEY, a password in OPENAI_BASE_URL)
// and in --graphql-url, drives every path that echoes them (GraphQL and
// REST errors that quote the Authorization header, model replies and model
// errors that quote the key, transport errors that quote URLs), and finds
// none of them in any stream or file: results, judge cache, --record
// cassettes, every report format, checkpoint and fixture output.
func TestNoSecretReachesAnyOutput(t *testing.T) {
	t.Parallel()
	gh := echoingGitHub(t)
	ghURL := "http://x-access-token:" + leakFlagPass + "@" + strings.TrimPrefix(gh.URL, "http://") + "/graphql"
	llm := llmtest.NewServer(t)
	llm.Handle(func(r llmtest.Request) llmtest.Reply {
		leak := "the key is " + leakOpenAIKey + ", the token " + leakGitHubToken + ", the password " + leakBasePass +
			"; I sent " + r.Header.Get("Authorization")
		switch r.Chat.Model {
		case "judge-m":
			return llmtest.Text(`{"pass": false, "score": 0.1, "reasoning": "it printed ` + leakOpenAIKey + ` and ` + leakGitHubToken + `"}`)
		case "broken-m":
			return llmtest.Reply{Status: http.StatusUnauthorized, ErrorType: "invalid_request_error",
				ErrorMessage: "Incorrect API key provided: " + leakOpenAIKey + "; " + leak}
		}
		return llmtest.Text(leak)
	})
	baseURL := "http://agent:" + leakBasePass + "@" + strings.TrimPrefix(llm.URL, "http://")

	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, "in", name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	scen := write("leak.scenario.yaml", leakScenario)
	ghScen := write("leak-001.json", leakGitHubScenario)
	manifest := write("manifest.json", leakManifest)
	out := filepath.Join(dir, "out")

	vars := map[string]string{"GITHUB_TOKEN": leakGitHubToken, "GH_TOKEN": leakGitHubToken, "OPENAI_API_KEY": leakOpenAIKey, "OPENAI_BASE_URL": baseURL}
	type stream struct{ args, text string }
	var streams []stream
	cli := func(vars map[string]string, args ...string) int {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] },
			environ: func() []string {
				var kv []string
				for k, v := range vars {
					kv = append(kv, k+"="+v)
				}
				return kv
			}}
		code := mainWith(context.Background(), env, args)
		streams = append(streams, stream{strings.Join(args, " "), stdout.String() + stderr.String()})
		return code
	}

	code := cli(vars, "run", "--agent", "openai:agent-m", "--judge-model", "openai:judge-m", "--record", filepath.Join(dir, "rec"),
		"--manifest", manifest, "--graphql-url", ghURL, "--out", out, scen, ghScen)
	require.Equal(t, exitFail, code, streams[len(streams)-1].text)
	results := filepath.Join(out, "results.jsonl")
	for _, f := range []string{"md", "html", "junit", "json"} {
		cli(vars, "report", "--format", f, results)
		cli(vars, "report", "--format", f, "--out", filepath.Join(dir, "report."+f), results)
	}
	cli(vars, "report", "compare", results, results)
	cli(vars, "checkpoint", "--manifest", manifest, "--graphql-url", ghURL, ghScen)
	cli(vars, "fixture", "status", "--manifest", manifest, "--graphql-url", ghURL)
	cli(vars, "fixture", "status", "--manifest", manifest, "--graphql-url", ghURL, "--format", "json")
	// Without a token the client sends --graphql-url's user-info as Basic
	// auth, which the endpoint echoes.
	noToken := map[string]string{"OPENAI_API_KEY": leakOpenAIKey, "OPENAI_BASE_URL": baseURL}
	cli(noToken, "checkpoint", "--manifest", manifest, "--graphql-url", ghURL, ghScen)
	// A model that refuses the key and quotes it; an endpoint that is down
	// (the error quotes the URL with its password).
	cli(vars, "run", "--agent", "openai:broken-m", "--out", filepath.Join(dir, "out-broken"), scen)
	// Without --record the judge keeps its cache (with it, the cassette holds the answers).
	cli(vars, "run", "--agent", "openai:agent-m", "--judge-model", "openai:judge-m", "--out", filepath.Join(dir, "out-cache"), scen)
	down := map[string]string{"OPENAI_API_KEY": leakOpenAIKey, "OPENAI_BASE_URL": "http://agent:" + leakBasePass + "@127.0.0.1:1/v1"}
	cli(down, "run", "--agent", "openai:agent-m", "--out", filepath.Join(dir, "out-down"), scen)

	secrets := []string{leakGitHubToken, leakOpenAIKey, leakBasePass, leakFlagPass,
		base64.StdEncoding.EncodeToString([]byte("x-access-token:" + leakFlagPass)),
		base64.StdEncoding.EncodeToString([]byte("agent:" + leakBasePass))}
	check := func(where, text string) {
		for _, s := range secrets {
			assert.NotContains(t, text, s, "%s holds a secret", where)
		}
	}
	for _, s := range streams {
		check("the output of "+s.args, s.text)
	}
	files := 0
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, filepath.Join(dir, "in")) {
			return err
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		check(p, string(b))
		files++
		return nil
	}))
	assert.Greater(t, files, 8, "results, judge cache, cassettes and reports were written")
	b, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.Contains(t, string(b), redact.Mask, "the echoes were there, and masked")
	for _, p := range []string{"rec", filepath.Join("out-cache", "judge-cache")} {
		found := false
		_ = filepath.WalkDir(filepath.Join(dir, p), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				found = found || bytes.Contains(b, []byte(redact.Mask))
			}
			return nil
		})
		assert.True(t, found, "%s holds a masked reply", p)
	}
}
