package claudecode

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
)

// TestEvents reads a recorded event stream (testdata/events.jsonl, Claude
// Code 2.1's stream-json against llmtest): the text blocks, each tool call
// with its arguments, result or error and timing (from the events'
// timestamps), the run's tokens in OpenAI's terms and the session id.
func TestEvents(t *testing.T) {
	f, err := os.Open("testdata/events.jsonl")
	require.NoError(t, err)
	defer f.Close()
	tr := transcript{pending: map[string]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		require.NoError(t, tr.event(sc.Bytes()))
	}
	require.NoError(t, sc.Err())
	assert.Equal(t, "712177e6-ade8-45e5-8bbd-9e55eadadc03", tr.session)
	assert.True(t, tr.ended)
	assert.Empty(t, tr.err)
	r := tr.reply()
	assert.Equal(t, "Let me look.\n\nDone.", r.Text)
	require.Len(t, r.Actions, 2)
	read, bash := r.Actions[0], r.Actions[1]
	assert.Equal(t, "Read", read.Name)
	assert.Equal(t, map[string]any{"file_path": "/work/job/nope.txt"}, read.Args)
	assert.Equal(t, "File does not exist. Note: your current working directory is /work/job.", read.Error)
	assert.Nil(t, read.Result)
	assert.Equal(t, "Bash", bash.Name)
	assert.Equal(t, "echo '#1 fix'", bash.Args["command"])
	assert.Equal(t, "#1 fix", bash.Result)
	assert.Empty(t, bash.Error)
	for _, a := range r.Actions {
		assert.True(t, a.End.After(a.Start), "%s: %v..%v", a.Name, a.Start, a.End)
	}
	assert.Equal(t, llm.Usage{PromptTokens: 150 + 50 + 10, CompletionTokens: 13, TotalTokens: 223,
		CacheReadTokens: 50, CacheWriteTokens: 10, CostUSD: 0.00092}, r.Usage)
	assert.Equal(t, "end_turn", r.EndReason)
}

// TestResultErrors: a failed run says why, from its result; a tool call
// whose result never came is failed when the run ends.
func TestResultErrors(t *testing.T) {
	for _, tc := range []struct{ line, want, reason string }{
		{`{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","stop_reason":"tool_use"}`, "error_max_turns: the run failed", "error_max_turns"},
		{`{"type":"result","subtype":"success","is_error":true,"result":"API Error: 400 no reply scripted","terminal_reason":"api_error"}`, "API Error: 400 no reply scripted", "api_error"},
		{`{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["boom"]}`, `error_during_execution: ["boom"]`, "error_during_execution"},
	} {
		tr := transcript{pending: map[string]int{}}
		require.NoError(t, tr.event([]byte(tc.line)))
		assert.Equal(t, tc.want, tr.err)
		assert.Equal(t, tc.reason, tr.reply().EndReason)
	}
	tr := transcript{pending: map[string]int{}}
	require.NoError(t, tr.event([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"x"}}]}}`)))
	r := tr.reply()
	require.Len(t, r.Actions, 1)
	assert.Equal(t, "no result: the run ended first", r.Actions[0].Error)
}

// FuzzEvent: no line makes the event reader fail or panic.
func FuzzEvent(f *testing.F) {
	data, err := os.ReadFile("testdata/events.jsonl")
	require.NoError(f, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f.Add(append([]byte(nil), sc.Bytes()...))
	}
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"x"}],"is_error":true}]}}`))
	f.Add([]byte(`{"type":"result","is_error":true,"errors":[1,{"a":2}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		tr := transcript{pending: map[string]int{}}
		require.NoError(t, tr.event([]byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}}`)))
		require.NoError(t, tr.event(line))
		_ = tr.reply()
	})
}
