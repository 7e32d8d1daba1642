package geminicli

import (
	"bufio"
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
)

func readEvents(t *testing.T, tr *transcript) {
	t.Helper()
	f, err := os.Open("testdata/events.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		require.NoError(t, tr.event(sc.Bytes()))
	}
	require.NoError(t, sc.Err())
}

// TestEvents reads a recorded event stream (testdata/events.jsonl, Gemini
// CLI 0.61's stream-json against llmtest): the streamed text, one
// paragraph a message; each tool call with its arguments, output or
// error and timing (the shell's as "shell"); the run's tokens in OpenAI's
// terms (the thoughts, which Gemini CLI's output leaves out, within the
// completion); a warning is not a failure.
func TestEvents(t *testing.T) {
	tr := transcript{pending: map[string]int{}}
	readEvents(t, &tr)
	assert.Equal(t, "52d7d3f2-8876-43a7-b61c-53942f4cb70c", tr.session)
	assert.True(t, tr.ended)
	assert.Empty(t, tr.err)
	r := tr.reply()
	assert.Equal(t, "Let me look.\n\nDone.", r.Text)
	require.Len(t, r.Actions, 2)
	read, shell := r.Actions[0], r.Actions[1]
	assert.Equal(t, "read_file", read.Name)
	assert.Equal(t, map[string]any{"file_path": "nope.txt"}, read.Args)
	assert.Equal(t, "File not found: /work/job/nope.txt", read.Error)
	assert.Equal(t, 457*time.Millisecond, read.End.Sub(read.Start))
	assert.Equal(t, "shell", shell.Name)
	assert.Equal(t, "echo '#1 fix'", shell.Args["command"])
	assert.Equal(t, "#1 fix", shell.Result)
	assert.Empty(t, shell.Error)
	assert.Equal(t, llm.Usage{PromptTokens: 210, CompletionTokens: 23, TotalTokens: 233, ReasoningTokens: 10, CacheReadTokens: 50}, r.Usage)
	assert.Equal(t, "success", r.EndReason)
}

// TestResumedRunCountsItsOwn: Gemini CLI's counts on a resumed session
// include the earlier runs'; the reply holds this run's.
func TestResumedRunCountsItsOwn(t *testing.T) {
	before := llm.Usage{PromptTokens: 100, CompletionTokens: 3, TotalTokens: 103, CacheReadTokens: 20}
	tr := transcript{pending: map[string]int{}, before: before}
	readEvents(t, &tr)
	assert.Equal(t, llm.Usage{PromptTokens: 110, CompletionTokens: 20, TotalTokens: 130, ReasoningTokens: 10, CacheReadTokens: 30}, tr.reply().Usage)
}

// TestFailures: a failed result or an error event says why; a tool call
// whose result never came is failed when the run ends.
func TestFailures(t *testing.T) {
	for _, tc := range []struct{ line, want, reason string }{
		{`{"type":"result","status":"error","error":{"type":"FatalTurnLimitedError","message":"Reached max session turns"}}`, "Reached max session turns", "FatalTurnLimitedError"},
		{`{"type":"result","status":"error"}`, "the run failed", "error"},
		{`{"type":"error","severity":"error","message":"[API Error: 400 no reply scripted]"}`, "[API Error: 400 no reply scripted]", ""},
	} {
		tr := transcript{pending: map[string]int{}}
		require.NoError(t, tr.event([]byte(tc.line)))
		assert.Equal(t, tc.want, tr.err)
		assert.Equal(t, tc.reason, tr.reply().EndReason)
	}
	tr := transcript{pending: map[string]int{}}
	require.NoError(t, tr.event([]byte(`{"type":"tool_use","tool_name":"run_shell_command","tool_id":"t1","parameters":{"command":"x"}}`)))
	r := tr.reply()
	require.Len(t, r.Actions, 1)
	assert.Equal(t, "no result: the run ended first", r.Actions[0].Error)
}

// FuzzEvent: no line makes the event reader fail or panic.
func FuzzEvent(f *testing.F) {
	data, err := os.ReadFile("testdata/events.jsonl")
	require.NoError(f, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	f.Add([]byte(`{"type":"tool_result","tool_id":"t1","status":"error","error":{"message":""}}`))
	f.Add([]byte(`{"type":"result","status":"success","stats":{"total_tokens":-5,"input_tokens":7}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		tr := transcript{pending: map[string]int{}, before: llm.Usage{PromptTokens: 1}}
		require.NoError(t, tr.event([]byte(`{"type":"tool_use","tool_name":"x","tool_id":"t1"}`)))
		require.NoError(t, tr.event(line))
		_ = tr.reply()
	})
}
