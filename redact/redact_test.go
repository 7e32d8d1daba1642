package redact_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"

func TestFromEnvironmentKnowsSecretVariablesAndURLUserInfo(t *testing.T) {
	t.Parallel()
	r := redact.FromEnvironment([]string{
		"GITHUB_TOKEN=" + token,
		"OPENAI_API_KEY=sk-local-key-123",
		"MY_SERVICE_PASS=pass-word-1",
		"OPENAI_BASE_URL=https://agent:s3cr<t&pw@llm.example/v1",
		"HTTPS_PROXY=http://proxytoken1@proxy:3128",
		"HOME=/home/someone",
		"GIT_AUTHOR_NAME=Some Author",
		"SHORT_TOKEN=dev",
		"MALFORMED",
	})
	for _, tc := range []struct{ in, want string }{
		{"token " + token + " leaked", "token [REDACTED] leaked"},
		{"key sk-local-key-123", "key [REDACTED]"},
		{"pw pass-word-1", "pw [REDACTED]"},
		{"url https://agent:s3cr<t&pw@llm.example/v1 failed", "url https://[REDACTED]@llm.example/v1 failed"},
		{"password alone: s3cr<t&pw", "password alone: [REDACTED]"},
		{"proxy http://proxytoken1@proxy:3128", "proxy http://[REDACTED]@proxy:3128"},
		{"home /home/someone by Some Author", "home /home/someone by Some Author"},
		{"dev stays", "dev stays"},
	} {
		assert.Equal(t, tc.want, r.String(tc.in), tc.in)
	}
}

// TestEncodedFormsAreMasked: a secret is found in the forms outputs carry
// it: JSON (with and without HTML escaping), HTML, URL-encoded, and as a
// Basic Authorization header.
func TestEncodedFormsAreMasked(t *testing.T) {
	t.Parallel()
	const pw = `p"a<s&s\w/o+rd`
	r := redact.New()
	r.AddURL("https://" + url.UserPassword("user", pw).String() + "@host/")
	r.Add("plain-secret-value")
	jsonHTML, err := json.Marshal(map[string]string{"m": "error: " + pw})
	require.NoError(t, err)
	var jsonPlain bytes.Buffer
	enc := json.NewEncoder(&jsonPlain)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(map[string]string{"m": pw}))
	var htmlOut bytes.Buffer
	require.NoError(t, template.Must(template.New("").Parse(`<p>{{.}}</p>`)).Execute(&htmlOut, pw))
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("user:"+pw))
	for _, out := range []string{string(jsonHTML), jsonPlain.String(), htmlOut.String(), "GET /x?pw=" + url.QueryEscape(pw), "echo: " + basic} {
		got := r.String(out)
		assert.NotContains(t, got, "s&s", out)
		assert.NotContains(t, got, "s&amp;s", out)
		assert.NotContains(t, got, `s\u0026s`, out)
		assert.NotContains(t, got, base64.StdEncoding.EncodeToString([]byte("user:"+pw)), out)
		assert.Contains(t, got, redact.Mask, out)
		if strings.HasPrefix(out, "{") {
			assert.True(t, json.Valid([]byte(got)), "masking keeps JSON valid: %s", got)
		}
	}
}

func TestPatternsMaskUnknownSecrets(t *testing.T) {
	t.Parallel()
	var r *redact.Redactor // nil: patterns only
	for _, tc := range []struct{ in, want string }{
		{"Authorization: Bearer abc.def-ghi", "Authorization: Bearer [REDACTED]"},
		{"map[Accept:[json] Authorization:[token abcdef123]]", "map[Accept:[json] Authorization:[token [REDACTED]]]"},
		{`{"authorization":"Basic dXNlcjpwYXNz"}`, `{"authorization":"Basic [REDACTED]"}`},
		{"authorization failed: bad credentials", "authorization failed: bad credentials"},
		{"use " + token + ".", "use [REDACTED]."},
		{"key sk-proj-abcdefghijklmnopqrstuvwx", "key [REDACTED]"},
		{"task-abcdefghijklmnopqrstuvwxyz risk-abcdefghijklmnopqrstuvwxyz", "task-abcdefghijklmnopqrstuvwxyz risk-abcdefghijklmnopqrstuvwxyz"},
	} {
		assert.Equal(t, tc.want, r.String(tc.in), tc.in)
	}
	known := redact.New("abc.def-ghi")
	assert.Equal(t, "Authorization: Bearer [REDACTED]", known.String("Authorization: Bearer abc.def-ghi"), "masked once, not twice")
}

func TestBytesDoesNotCopyCleanInput(t *testing.T) { // not parallel: AllocsPerRun
	r := redact.New("some-secret-1")
	in := []byte(`{"record":"job","id":"a/-/run-1","passed":true}`)
	out := r.Bytes(in)
	assert.Same(t, &in[0], &out[0])
	assert.Zero(t, testing.AllocsPerRun(100, func() { r.Bytes(in) }))
}

func TestWriterMasksEachWrite(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := redact.New("some-secret-1").Writer(&buf)
	n, err := w.Write([]byte("a some-secret-1 b\n"))
	require.NoError(t, err)
	assert.Equal(t, len("a some-secret-1 b\n"), n, "callers see their own length")
	_, err = w.Write(nil)
	require.NoError(t, err)
	assert.Equal(t, "a [REDACTED] b\n", buf.String())
}

func TestAddWhileRedacting(t *testing.T) {
	t.Parallel()
	r := redact.New()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				if i%2 == 0 {
					r.Add("secret-number-" + string(rune('a'+j%26)))
				} else {
					_ = r.String("secret-number-q and more")
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, "[REDACTED] and more", r.String("secret-number-q and more"))
}

// TestJSONInMasksKeysOnlyInsideRanges: inside the ranges a writer marks,
// keys came from outside and are masked like values; the writer's own
// field names outside them stay, as JSON keeps every key.
func TestJSONInMasksKeysOnlyInsideRanges(t *testing.T) {
	t.Parallel()
	r := redact.New("hunter2-secret")
	line := []byte(`{"hunter2-secret":1,"args":{"hunter2-secret":"hunter2-secret"},"v":"hunter2-secret"}`)
	args := bytes.Index(line, []byte(`{"hunter2-secret":"`))
	end := bytes.Index(line, []byte(`},"v"`)) + 1
	v := bytes.LastIndex(line, []byte(`"hunter2-secret"`))
	got := string(r.JSONIn(bytes.Clone(line), [][2]int{{args, end}, {v, len(line) - 1}}))
	assert.Equal(t, `{"hunter2-secret":1,"args":{"[REDACTED]":"[REDACTED]"},"v":"[REDACTED]"}`, got)
	assert.Equal(t, `{"hunter2-secret":1,"args":{"hunter2-secret":"[REDACTED]"},"v":"[REDACTED]"}`, string(r.JSON(line)))
}
