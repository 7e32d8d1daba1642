package redact_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

// TestCutSecretsShowNoPart: excerpts once cut a secret at their edge and
// showed the rest (11 of 12 characters of a password). Whatever part of a
// secret touches a cut, at least MinPartial bytes, is masked; shorter
// pieces and text that is no secret stay.
func TestCutSecretsShowNoPart(t *testing.T) {
	t.Parallel()
	const pw = "Xq7!pW2#rT9z"
	r := redact.New(pw)
	for _, tc := range []struct{ in, want string }{
		{"reply starts \"token is " + pw[:11] + "…\"", "reply starts \"token is [REDACTED]…\""},
		{"stderr: …" + pw[1:] + " failed", "stderr: …[REDACTED] failed"},
		{redact.Head("login with "+pw+" now", 14), "login with [REDACTED]…"},
		{redact.Tail("login with "+pw+" now", 10), "…[REDACTED] now"},
		{"…" + pw[3:9] + "…", "…[REDACTED]…"},
		{"the key was Xq…", "the key was Xq…"},           // two bytes: too short to be a part
		{"nothing secret here…", "nothing secret here…"}, // no part of pw
		{"whole " + pw + " too", "whole [REDACTED] too"},
	} {
		assert.Equal(t, tc.want, r.String(tc.in), tc.in)
	}
	// Every cut of every length: no three bytes of the secret survive.
	text := "before " + pw + " after"
	for n := range len(text) + 1 {
		for _, cut := range []string{redact.Head(text, n), redact.Tail(text, n)} {
			got := r.String(cut)
			for k := 0; k+redact.MinPartial <= len(pw); k++ {
				assert.NotContains(t, got, pw[k:k+redact.MinPartial], "%q shows part of the secret as %q", cut, got)
			}
			j, err := json.Marshal(map[string]string{"error": cut})
			require.NoError(t, err)
			masked := r.JSON(j)
			assert.True(t, json.Valid(masked))
			for k := 0; k+redact.MinPartial <= len(pw); k++ {
				assert.NotContains(t, string(masked), pw[k:k+redact.MinPartial])
			}
		}
	}
}

// TestKnownTokenShapesCutShowNothing: a token recognised by its prefix
// is masked even when an excerpt kept too little of it to match its full
// shape.
func TestKnownTokenShapesCutShowNothing(t *testing.T) {
	t.Parallel()
	got := redact.New().String(redact.Head("token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB", 20))
	assert.Equal(t, "token [REDACTED]…", got)
}

// TestSecretsByOtherNames: variables whose names say secret in other
// words (NPM_AUTH, *_CREDS, *_PWD, SESSION_COOKIE, webhook URLs) are
// masked; the working directory and author names are not.
func TestSecretsByOtherNames(t *testing.T) {
	t.Parallel()
	env := map[string]bool{
		"NPM_AUTH=npm-auth-value-1":                                  true,
		"AWS_CREDS=aws-creds-value":                                  true,
		"DB_PWD=db-pwd-value":                                        true,
		"SESSION_COOKIE=sess-cookie-v":                               true,
		"SLACK_WEBHOOK_URL=https://hooks.example/T00/B00/abcdefghij": true,
		"DEPLOY_KEY=deploy-key-val":                                  true,
		"MY_SIGNATURE=signature-val":                                 true,
		"SENTRY_DSN=sentry-dsn-value":                                true,
		"npmToken=lower-case-name":                                   true,
		"PWD=/home/someone/work":                                     false,
		"OLDPWD=/home/someone/old":                                   false,
		"GIT_AUTHOR_NAME=Some Author":                                false,
		"KEYBOARD_LAYOUT=dvorak-intl":                                false,
		"LANG=en_US.UTF-8":                                           false,
	}
	var environ []string
	for kv := range env {
		environ = append(environ, kv)
	}
	r := redact.FromEnvironment(environ)
	for kv, secret := range env {
		_, v, _ := strings.Cut(kv, "=")
		got := r.String("value: " + v)
		if secret {
			assert.Equal(t, "value: [REDACTED]", got, kv)
		} else {
			assert.Equal(t, "value: "+v, got, kv)
		}
	}
}

// TestSecretShapesAnywhere: values that are credentials by their shape
// are masked in any text, whoever wrote them.
func TestSecretShapesAnywhere(t *testing.T) {
	t.Parallel()
	r := redact.New()
	for _, tc := range []struct{ in, want string }{
		{"slack xoxb-123456789012-abcdefghijkl done", "slack [REDACTED] done"},
		{"aws AKIAIOSFODNN7EXAMPLE ok", "aws [REDACTED] ok"},
		{"gitlab glpat-abcdefghij0123456789 ok", "gitlab [REDACTED] ok"},
		{"npm npm_abcdefghijklmnopqrstuvwxyz0123456789 ok", "npm [REDACTED] ok"},
		{"hf hf_abcdefghijklmnopqrstuvwxyz0123456789 ok", "hf [REDACTED] ok"},
		{"google AIzaSyA-abcdefghijklmnopqrstuvwxyz01234 ok", "google [REDACTED] ok"},
		{"stripe sk_live_abcdefghijklmnop123 ok", "stripe [REDACTED] ok"},
		{"anthropic sk-ant-api03-abcdefghijklmnopqrstuvwxyz ok", "anthropic [REDACTED] ok"},
		{"db postgres://admin:hunter2hunter2@db:5432/x failed", "db postgres://[REDACTED]@db:5432/x failed"},
		{"GET https://api.example/graphql?access_token=abcdef123&per_page=5 failed", "GET https://api.example/graphql?access_token=[REDACTED]&per_page=5 failed"},
		{"blob https://x.blob.example/f?sv=2020&sig=AbC%2Bdef&se=1", "blob https://x.blob.example/f?sv=2020&sig=[REDACTED]&se=1"},
		{"s3 https://b.s3.example/k?X-Amz-Credential=AKID%2F1&X-Amz-Signature=f00d", "s3 https://b.s3.example/k?X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]"},
		{"implicit https://app.example/cb#access_token=tok123&state=x", "implicit https://app.example/cb#access_token=[REDACTED]&state=x"},
		{"hook https://hooks.slack.com/services/T0/B0/XXXXXXXX posted", "hook https://hooks.slack.com/[REDACTED] posted"},
		{"hook https://discord.com/api/webhooks/123/abcDEF posted", "hook https://discord.com/api/webhooks/[REDACTED] posted"},
		{"plain https://github.com/acme/demo/pull/1?tab=files stays", "plain https://github.com/acme/demo/pull/1?tab=files stays"},
		{"ssh://git@github.com/acme/demo stays", "ssh://git@github.com/acme/demo stays"},
		{"AKIA is a word, AKIAISHORT too", "AKIA is a word, AKIAISHORT too"},
	} {
		assert.Equal(t, tc.want, r.String(tc.in), tc.in)
	}
	// In JSON, & is written \u0026: the parameter after it is still found.
	j, err := json.Marshal(map[string]string{"url": "https://h.example/x?a=1&token=tok-in-json"})
	require.NoError(t, err)
	assert.NotContains(t, string(r.JSON(j)), "tok-in-json")
	assert.True(t, json.Valid(r.JSON(j)))
}

// TestAddURLMasksQueryCredentials: --graphql-url with ?access_token= once
// leaked the token; AddURL takes the secret parameters' values too.
func TestAddURLMasksQueryCredentials(t *testing.T) {
	t.Parallel()
	r := redact.New()
	r.AddURL("https://ghe.example/api/graphql?access_token=tok%2Fsecret99&x=1")
	assert.Equal(t, "got [REDACTED] and [REDACTED]", r.String("got tok%2Fsecret99 and tok/secret99"))
}

// TestUserRules: users add variable names (globs) and patterns.
func TestUserRules(t *testing.T) {
	t.Parallel()
	r := redact.FromEnvironment(nil)
	require.NoError(t, r.AddRules([]string{"MYCO_LICENCE=licence-value-42", "OTHER=other-value-1"},
		redact.Rules{Names: []string{"myco_*"}, Patterns: []string{`INT-[0-9]{6}`}}))
	assert.Equal(t, "[REDACTED] other-value-1 [REDACTED]", r.String("licence-value-42 other-value-1 INT-123456"))
	for _, bad := range []redact.Rules{{Names: []string{"["}}, {Patterns: []string{"("}}, {Patterns: []string{"a*"}}} {
		require.ErrorIs(t, r.AddRules(nil, bad), redact.ErrBadRule)
	}
}
