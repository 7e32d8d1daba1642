package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/redact"
)

// TestNoPartOfASecretReachesAnyOutput: an exec agent echoes secrets held
// in variables named in other words (NPM_AUTH, *_CREDS, *_PWD,
// SESSION_COOKIE, a webhook URL), in a variable the user named
// (--secret-name), in a shape the user gave (AGENTEVAL_SECRET_PATTERNS),
// and places a password where the runner's excerpts cut it: the reply's
// evaluation message (`reply starts "…"`, 60 characters) and the stderr
// tail of an agent that exits (last 500 bytes). No secret, and no piece
// of one MinPartial bytes long, reaches results, reports or the terminal.
func TestNoPartOfASecretReachesAnyOutput(t *testing.T) {
	t.Parallel()
	const pw = "Qz8mVt3KwP1x"
	vars := map[string]string{
		"NPM_AUTH":                  "npmauth-9f8e7d6c",
		"AWS_CREDS":                 "awscreds-1a2b3c4d",
		"DB_PWD":                    "dbpwd-5e6f7a8b",
		"SESSION_COOKIE":            "sessck-9c0d1e2f",
		"TEAM_WEBHOOK":              "https://hooks.example/T1/B2/whk3g4h5i6",
		"MYCO_LICENCE":              "licence-7j8k9l0m",
		"SERVICE_PASSWORD":          pw,
		"AGENTEVAL_SECRET_PATTERNS": `INTERNAL-[0-9]{8}`,
	}
	dir := t.TempDir()
	// The reply starts with 56 characters, so the 60-character excerpt
	// of the evaluation message keeps only the password's first four.
	reply := strings.Repeat("r", 55) + " " + pw + " " + strings.Join([]string{vars["NPM_AUTH"], vars["AWS_CREDS"], vars["DB_PWD"],
		vars["SESSION_COOKIE"], vars["TEAM_WEBHOOK"], vars["MYCO_LICENCE"], "INTERNAL-12345678"}, " ")
	answer := filepath.Join(dir, "answer.sh")
	require.NoError(t, os.WriteFile(answer, []byte(`read start; read msg
printf '{"type":"reply","id":1,"text":"%s"}\n' '`+reply+`'
`), 0o755))
	// The stderr tail keeps the last 500 bytes: all but the password's
	// first three bytes, then 491 x's.
	crash := filepath.Join(dir, "crash.sh")
	require.NoError(t, os.WriteFile(crash, []byte(`read start; read msg
printf '%s' 'password is `+pw+`' >&2
printf 'x%.0s' $(seq 491) >&2
exit 3
`), 0o755))
	scen := filepath.Join(dir, "s.scenario.yaml")
	require.NoError(t, os.WriteFile(scen, []byte(`name: s
description: the agent echoes what it should not
environment: {type: local}
run:
  - input: hello
    evaluations: [{type: string_contains, value: never-in-the-reply}]
judgment: {strategy: all_pass}
`), 0o644))
	var outputs []string
	cli := func(args ...string) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] },
			environ: func() []string {
				var kv []string
				for k, v := range vars {
					kv = append(kv, k+"="+v)
				}
				return kv
			}}
		mainWith(context.Background(), env, args)
		outputs = append(outputs, stdout.String()+stderr.String())
	}
	for _, agent := range []string{answer, crash} {
		out := filepath.Join(dir, "out-"+filepath.Base(agent))
		cli("run", "-v", "--secret-name", "myco_*", "--agent", "exec:sh "+agent, "--out", out, scen)
		for _, f := range []string{"md", "html", "junit", "json"} {
			cli("report", "--format", f, filepath.Join(out, "results.jsonl"))
		}
	}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".sh") || strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		outputs = append(outputs, string(b))
		return nil
	}))
	all := strings.Join(outputs, "\n")
	require.Contains(t, all, "reply starts", "the excerpt was written")
	require.Contains(t, all, "exited", "the stderr tail was written")
	for name, v := range vars {
		if name != "AGENTEVAL_SECRET_PATTERNS" {
			assert.NotContains(t, all, v, name)
		}
	}
	assert.NotContains(t, all, "INTERNAL-12345678")
	for k := 0; k+redact.MinPartial <= len(pw); k++ {
		assert.NotContains(t, all, pw[k:k+redact.MinPartial], "a piece of the password")
	}
}
