package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestRunShowsThrottling runs the openai agent against a fake provider
// through the real HTTP client under each way of limiting its endpoint:
// every job passes, and the run's last progress line says it was
// throttled, with how many waits. --tokens-per-minute paces by the tokens
// the provider reports: 62 jobs of 1,000 tokens under 60,000 a minute
// (a minute's worth at once, then 1,000 a second) take about 2 s at least.
func TestRunShowsThrottling(t *testing.T) {
	t.Parallel()
	throttled := regexp.MustCompile(`throttled: (\d+) waits`)
	for _, tc := range []struct {
		name    string
		args    []string
		jobs    int
		delay   time.Duration
		atLeast time.Duration
		limit   string
	}{
		{name: "max requests", args: []string{"--max-requests", "1"}, jobs: 8, delay: 30 * time.Millisecond,
			atLeast: 8 * 30 * time.Millisecond, limit: "limit 1 in flight"},
		{name: "tokens per minute", args: []string{"--tokens-per-minute", "60000"}, jobs: 62, atLeast: 1500 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t)
			srv.Handle(func(r llmtest.Request) llmtest.Reply {
				return llmtest.Reply{Content: r.LastUserMessage(), Delay: tc.delay,
					Usage: &llm.Usage{PromptTokens: 900, CompletionTokens: 100, TotalTokens: 1000}}
			})
			vars := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey}
			var out, errb bytes.Buffer
			env := &cliEnv{stdout: &out, stderr: &errb, stdin: strings.NewReader(""), getenv: func(k string) string { return vars[k] }}
			dir := t.TempDir()
			args := append([]string{"run", "--agent", "openai:gpt-4o-mini", "--concurrency", "4", "--runs", strconv.Itoa(tc.jobs),
				"--out", filepath.Join(dir, "out")}, tc.args...)
			start := time.Now()
			code := mainWith(context.Background(), env, append(args, "testdata/run/echo.scenario.yaml"))
			took := time.Since(start)
			require.Equal(t, exitOK, code, errb.String())
			assert.Contains(t, errb.String(), strconv.Itoa(tc.jobs)+" job(s): "+strconv.Itoa(tc.jobs)+" passed")
			lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
			i := len(lines) - 1
			for i > 0 && !strings.HasPrefix(lines[i], strconv.Itoa(tc.jobs)+"/"+strconv.Itoa(tc.jobs)+" jobs") {
				i--
			}
			last := lines[i]
			m := throttled.FindStringSubmatch(last)
			require.NotNil(t, m, "the last progress line says the run was throttled: %q", last)
			waits, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			assert.Positive(t, waits)
			assert.Contains(t, last, tc.limit)
			assert.GreaterOrEqual(t, took, tc.atLeast, "the limit held the run back")
			_, err = os.Stat(filepath.Join(dir, "out", "results.jsonl"))
			require.NoError(t, err)
		})
	}
}
