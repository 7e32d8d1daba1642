package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// scriptCmds are the commands the txtar scripts have beyond testscript's:
//
//	need TOOL        skips the script when the program TOOL is missing
//	                 (internal/testtool: fails under CI=true) and puts the
//	                 folder it was found in first on PATH
//	fakemodel FILE   serves a scripted model (llm/llmtest) for the rest of
//	                 the script: FILE holds its replies in order, as JSON
//	                 ([{"content": ..., "reasoning": ..., "tool_calls": [{"name": ..., "arguments": {...}}],
//	                 "usage": {...}}]); OPENAI_BASE_URL and OPENAI_API_KEY,
//	                 ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY, GOOGLE_GEMINI_BASE_URL
//	                 and GEMINI_API_KEY point at it
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"need": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: need TOOL")
		}
		t, _ := ts.Value(scriptT{}).(testscript.T)
		if t == nil {
			ts.Fatalf("need: the script has no test (Params.Setup sets it)")
		}
		path := testtool.Need(scriptTB{T: t, ts: ts}, args[0])
		ts.Setenv("PATH", filepath.Dir(path)+string(os.PathListSeparator)+ts.Getenv("PATH"))
	},
	"fakemodel": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: fakemodel FILE")
		}
		var replies []struct {
			Content   string         `json:"content"`
			Reasoning string         `json:"reasoning"`
			ToolCalls []llm.ToolCall `json:"tool_calls"`
			Usage     *llm.Usage     `json:"usage"`
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &replies))
		srv := llmtest.Start()
		ts.Defer(srv.Close)
		for _, r := range replies {
			srv.Enqueue(llmtest.Reply{Content: r.Content, Reasoning: r.Reasoning, ToolCalls: r.ToolCalls, Usage: r.Usage})
		}
		ts.Setenv("OPENAI_BASE_URL", srv.URL)
		ts.Setenv("OPENAI_API_KEY", "sk-fakemodel-key-0000000000")
		// Anthropic's and Google's clients add their own /v1 and /v1beta.
		root := strings.TrimSuffix(srv.URL, "/v1")
		ts.Setenv("ANTHROPIC_BASE_URL", root)
		ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-fakemodel-key-0000000000")
		ts.Setenv("GOOGLE_GEMINI_BASE_URL", root)
		ts.Setenv("GEMINI_API_KEY", "gemini-fakemodel-key-0000000000")
	},
}

// scriptT is the key of the script's testscript.T among its values.
type scriptT struct{}

// scriptSetup keeps the script's test where its commands find it.
func scriptSetup(env *testscript.Env) error {
	env.Values[scriptT{}] = env.T()
	return nil
}

// scriptTB lets internal/testtool end a script as it ends a test: Need's
// skip skips the script, its failure fails it.
type scriptTB struct {
	testing.TB
	T  testscript.T
	ts *testscript.TestScript
}

func (s scriptTB) Helper() {}
func (s scriptTB) Skip(args ...any) {
	s.ts.Logf("%s", strings.TrimSpace(sprint(args)))
	s.T.Skip(args...)
}
func (s scriptTB) Fatalf(format string, args ...any) { s.ts.Fatalf(format, args...) }
func (s scriptTB) Errorf(format string, args ...any) { s.ts.Fatalf(format, args...) }
func (s scriptTB) Log(args ...any)                   { s.ts.Logf("%s", sprint(args)) }

func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		if s, ok := a.(string); ok {
			b.WriteString(s)
		}
	}
	return b.String()
}
