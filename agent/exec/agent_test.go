package exec

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/runner"
)

// TestMain lets the test binary play an exec agent: with
// AGENTEVAL_TEST_AGENT=1 it speaks the JSON-lines protocol for one
// session, with AGENTEVAL_TEST_AGENT=serve it serves many (ServeExec),
// instead of running tests.
func TestMain(m *testing.M) {
	switch os.Getenv("AGENTEVAL_TEST_AGENT") {
	case "1":
		protocolAgent()
		os.Exit(0)
	case "serve":
		servingAgent()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// protocolAgent answers each message by asking the mocks for the issues,
// reporting an action, and replying with the titles.
func protocolAgent() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := json.NewEncoder(os.Stdout)
	next := func() map[string]any {
		if !in.Scan() {
			os.Exit(0)
		}
		var m map[string]any
		if err := json.Unmarshal(in.Bytes(), &m); err != nil {
			fmt.Fprintln(os.Stderr, "bad line:", err)
			os.Exit(3)
		}
		return m
	}
	start := next()
	if start["type"] != "start" {
		os.Exit(4)
	}
	// The start line names the mocked methods, once each.
	mocked := fmt.Sprint(start["mocks"], start["plugin_options"])
	for {
		msg := next()
		if msg["type"] != "message" {
			continue
		}
		text := msg["text"].(string)
		if strings.Contains(text, "crash") {
			fmt.Fprintln(os.Stderr, "crashing as asked")
			os.Exit(5)
		}
		_ = out.Encode(map[string]any{"type": "mock", "id": 1, "service": "github", "method": "listIssues", "args": []any{map[string]any{"repo": "acme/demo"}}})
		res := next()
		var titles []string
		if items, ok := res["result"].([]any); ok {
			for _, it := range items {
				titles = append(titles, it.(map[string]any)["title"].(string))
			}
		}
		_ = out.Encode(map[string]any{"type": "action", "name": "LIST_ISSUES", "args": map[string]any{"repo": "acme/demo"}})
		_ = out.Encode(map[string]any{"type": "reply", "id": msg["id"], "text": "Open issues: " + strings.Join(titles, ", ") + " (mocked: " + mocked + ")",
			"usage": map[string]any{"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7, "cost_usd": 0.002}, "thought": "the user wants the open issues",
			"end_reason": "stop"})
	}
}

func TestExecAgentProtocol(t *testing.T) { // not parallel: it sets an environment variable
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv("AGENTEVAL_TEST_AGENT", "1")
	f, err := agenttest.Load("exec.scenario.yaml", []byte(`name: exec
description: the exec protocol end to end
environment: {type: local}
plugins:
  - {name: "@x/pinned", version: 1.2.3, config: {KEY: v}}
  - "@x/plain"
setup:
  mocks:
    - service: github
      method: listIssues
      when: {input: {repo: acme/demo}}
      response: [{title: "Bug A"}, {title: "Bug B"}]
    - service: github
      method: listIssues
      response: []
run:
  - input: list the open issues
    evaluations:
      - {type: string_contains, value: "bug a, bug b (mocked: [map[method:listIssues service:github]] map[@x/pinned:map[config:map[KEY:v] version:1.2.3]])"}
      - {type: trajectory_contains_action, action: LIST_ISSUES, args: {repo: acme/demo}}
  - input: please crash
    evaluations:
      - {type: string_contains, value: never}
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	agent, err := buildAgent("exec:"+exe, runner.AgentOptions{})
	require.NoError(t, err)
	res := agenttest.RunOne(t, runner.Config{Agent: agent}, f.Scenario)
	require.Len(t, res.Evaluations, 3)
	assert.True(t, res.Evaluations[0].Passed, res.Evaluations[0].Message)
	assert.True(t, res.Evaluations[1].Passed, res.Evaluations[1].Message)
	assert.Equal(t, 7, res.Usage.TotalTokens)
	require.GreaterOrEqual(t, len(res.Transcript), 2)
	assert.Equal(t, "the user wants the open issues", res.Transcript[1].Thought, "the reply's thought is kept in its turn")
	assert.Equal(t, "stop", res.Transcript[1].EndReason, "and why it ended")
	assert.Equal(t, 0.002, res.Usage.CostUSD, "the cost the agent reported")
	assert.False(t, res.Completed, "the second step's agent crash leaves the run incomplete")
	assert.Contains(t, res.Error, "crashing as asked", "the agent's stderr explains the crash")
	require.Len(t, res.MockCalls, 1)
	assert.Equal(t, 0, res.MockCalls[0].Mock)
}

func TestExecAgentNeedsCommand(t *testing.T) {
	t.Parallel()
	_, err := buildAgent("exec:", runner.AgentOptions{})
	assert.ErrorContains(t, err, "give a command")
	_, err = buildAgent("ecko", runner.AgentOptions{})
	assert.ErrorContains(t, err, `did you mean "echo"`)
}

// FuzzServeExec feeds arbitrary protocol input to ServeExec: it answers or
// returns an error, never panics.
func FuzzServe(f *testing.F) {
	f.Add("{\"type\":\"start\",\"job\":\"j\"}\n{\"type\":\"message\",\"id\":1,\"text\":\"hi\"}\n")
	f.Add("{\"type\":\"message\",\"id\":1}\n")
	f.Add("{\"type\":\"mock_result\",\"id\":7,\"error\":{}}\nnot json\n")
	f.Fuzz(func(t *testing.T, in string) {
		var out strings.Builder
		_ = Serve(context.Background(), strings.NewReader(in), &out, echoAgent{})
	})
}

// FuzzReadBoundedLine: the exec protocol's line reader returns the input
// in order, each line within the bound, or stops at the first line over it.
func FuzzReadBoundedLine(f *testing.F) {
	f.Add("a\nbb\n", uint8(2))
	f.Add("abc", uint8(2))
	f.Add("\n\n\n", uint8(0))
	f.Add(strings.Repeat("x", 40)+"\n", uint8(40))
	f.Fuzz(func(t *testing.T, in string, max uint8) {
		r := bufio.NewReaderSize(strings.NewReader(in), 16)
		var got strings.Builder
		for {
			line, err := readBoundedLine(r, int(max))
			body := strings.TrimSuffix(string(line), "\n")
			if len(body) > int(max) {
				t.Fatalf("line of %d bytes over the bound %d", len(body), max)
			}
			got.Write(line)
			if errors.Is(err, errLineTooLong) {
				if !strings.HasPrefix(in, got.String()) {
					t.Fatalf("read %q, not a prefix of %q", got.String(), in)
				}
				return
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				break
			}
		}
		if got.String() != in {
			t.Fatalf("read %q, want %q", got.String(), in)
		}
	})
}

// ServeExec announces many sessions and serves them one after another on
// one stream; a message the agent cannot answer gets an error line and the
// next session is served.
func TestServeExecServesManySessions(t *testing.T) {
	t.Parallel()
	agent := runner.AgentFunc(func(_ context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
		if msg == "fail" {
			return runner.Reply{}, errors.New("cannot")
		}
		return runner.Reply{Text: cfg.JobID + ": " + msg}, nil
	})
	in := strings.Join([]string{
		`{"type":"start","protocol":1,"job":"a"}`,
		`{"type":"message","id":1,"text":"hi"}`,
		`{"type":"message","id":2,"text":"fail"}`,
		`{"type":"end","job":"a"}`,
		`{"type":"message","id":3,"text":"between"}`,
		`{"type":"start","protocol":1,"job":"b"}`,
		`{"type":"message","id":4,"text":"there"}`,
		`{"type":"end","job":"b"}`,
	}, "\n") + "\n"
	var out strings.Builder
	require.NoError(t, Serve(t.Context(), strings.NewReader(in), &out, agent))
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		delete(m, "usage")
		got = append(got, m)
	}
	assert.Equal(t, []map[string]any{
		{"type": "ready", "sessions": "many", "protocol": 1.0},
		{"type": "reply", "id": 1.0, "text": "a: hi"},
		{"type": "error", "id": 2.0, "message": "cannot"},
		{"type": "error", "id": 3.0, "message": "message before start"},
		{"type": "reply", "id": 4.0, "text": "b: there"},
	}, got)
}

// FuzzExecLineEncoding: the hand-written message and end lines are one
// line of valid JSON each that decodes to what encoding/json's line for
// them does (it escapes <, > and & where they do not; both are JSON).
func FuzzExecLineEncoding(f *testing.F) {
	f.Add(int64(1), "What is the weather in Paris?")
	f.Add(int64(0), "")
	f.Add(int64(-7), "<a href=\"x\">&amp;</a>\u2028\u2029\t\x00\xff\xfe\n")
	f.Add(int64(1<<62), "ünïcödé 🌦 \\ \"quoted\"")
	same := func(t *testing.T, got, want []byte) {
		t.Helper()
		if bytes.Count(got, []byte("\n")) != 1 || got[len(got)-1] != '\n' {
			t.Fatalf("not one line: %q", got)
		}
		var g, w map[string]any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%q: %v", got, err)
		}
		require.NoError(t, json.Unmarshal(want, &w))
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	f.Fuzz(func(t *testing.T, id int64, text string) {
		want, err := appendExecLine(nil, &execLine{Type: "message", ID: id, Text: text})
		require.NoError(t, err)
		same(t, appendMessageLine(nil, id, text), want)
		want, err = appendExecLine(nil, &execLine{Type: "end", Job: text})
		require.NoError(t, err)
		same(t, appendEndLine(nil, text), want)
	})
}

// A program serving sessions must not outlive a runner that died while the
// agent waited for a mock result: once the input ends, the pending mock
// call fails and ServeExec returns (before, the call waited forever and
// the program stayed behind after a killed run).
func TestServeExecEndsWhenInputEndsDuringAMockCall(t *testing.T) {
	t.Parallel()
	calling := make(chan struct{})
	var callErr error
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
		close(calling)
		_, callErr = cfg.Mocks.Call(ctx, "weather", "forecast")
		return runner.Reply{}, callErr
	})
	r, w := io.Pipe()
	done := make(chan error, 1)
	var out strings.Builder
	go func() { done <- Serve(context.Background(), r, &syncWriter{w: &out}, agent) }()
	_, err := io.WriteString(w, `{"type":"start","protocol":1,"job":"a"}`+"\n"+`{"type":"message","id":1,"text":"hi"}`+"\n")
	require.NoError(t, err)
	<-calling
	require.NoError(t, w.Close()) // the runner is gone: no mock result will come
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("ServeExec still waits for a mock result after its input ended")
	}
	assert.ErrorIs(t, callErr, errInputEnded)
}

// syncWriter serialises writes for a test reading what ServeExec wrote.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// The exec agent type takes a suite agent's env and instructions through
// AgentOptions: its programs' environment (instructions in
// AGENTEVAL_INSTRUCTIONS).
func TestAgentOptionsEnvAndInstructions(t *testing.T) {
	t.Parallel()
	env := []string{"A=1", "AGENTEVAL_MODEL=m"}
	a, err := buildAgent("exec:./agent", runner.AgentOptions{Env: env, Instructions: "be brief"})
	require.NoError(t, err)
	assert.Equal(t, []string{"A=1", "AGENTEVAL_MODEL=m", "AGENTEVAL_INSTRUCTIONS=be brief"}, a.(*execAgent).Env)
	assert.Equal(t, []string{"A=1", "AGENTEVAL_MODEL=m"}, env, "the caller's slice is not appended to")
	a, err = buildAgent("exec:./agent", runner.AgentOptions{})
	require.NoError(t, err)
	assert.Empty(t, a.(*execAgent).Env)
}
