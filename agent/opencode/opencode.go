// Package opencode is the agent type opencode:MODEL: the OpenCode CLI
// (npm package opencode-ai) under test, as ghx's eval runs it. Each
// session runs `opencode run --format json` in the job's directory, with a
// configuration home of its own, the agent's and character's instructions
// as an instructions file, the model from the spec (an OpenAI-compatible
// endpoint from OPENAI_BASE_URL, or any provider/model OpenCode knows) and
// permissions for unattended runs (its bash tool only with
// --allow-commands). OpenCode's JSON events become the reply: its text,
// its reasoning parts (the reply's thought), each tool call with
// arguments, output, error and timing, the tokens and cost of every step,
// and the last step's finish reason. A session's later messages continue the same OpenCode
// session (--session ID).
package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenteval/agenteval/agent/internal/cliagent"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// Version is the opencode-ai release this agent is tested with.
const version = "1.18.33"

// program is the OpenCode CLI.
var program = cliagent.Program{Name: "opencode", PathEnv: "AGENTEVAL_OPENCODE", Install: "npm install -g opencode-ai@" + version}

// providerID is the OpenCode provider this agent configures for an
// OpenAI-compatible endpoint (OPENAI_BASE_URL).
const providerID = "agenteval"

// Type returns the agent type "opencode" (opencode:MODEL), for a registry
// of agent types such as agenteval.Kit's. MODEL is a model of the
// OpenAI-compatible endpoint at OPENAI_BASE_URL (key OPENAI_API_KEY), or,
// written provider/model, any model OpenCode knows with that provider's
// own environment (ANTHROPIC_API_KEY, ...); without OPENAI_BASE_URL a bare
// MODEL is openai/MODEL.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "opencode", Doc: "opencode:MODEL runs the OpenCode CLI (npm opencode-ai) in the job's directory: MODEL on the OpenAI-compatible endpoint OPENAI_BASE_URL, or provider/model; AGENTEVAL_OPENCODE gives its path",
		TakesEnv: true, TakesInstructions: true, ModelArg: true, New: newAgent}
}

// agent is one opencode:MODEL agent.
type agent struct {
	cliagent.Agent // Model is provider/model
	// provider is the configuration of the agenteval provider, or nil when
	// the model is one of OpenCode's own providers.
	provider map[string]any
}

func newAgent(model string, opts runner.AgentOptions) (runner.Agent, error) {
	ca, getenv, err := cliagent.NewAgent("opencode", "opencode:gpt-4.1 or opencode:anthropic/claude-sonnet-4-5", program, model, opts, "OPENAI_BASE_URL", "OPENAI_API_KEY")
	if err != nil {
		return nil, err
	}
	a := &agent{Agent: ca}
	switch base := getenv("OPENAI_BASE_URL"); {
	case strings.Contains(model, "/"):
		a.Model = model
	case base != "":
		a.Model = providerID + "/" + model
		options := map[string]any{"baseURL": base}
		if getenv("OPENAI_API_KEY") != "" {
			// OpenCode reads the key from the environment: it is never
			// written to the configuration file.
			options["apiKey"] = "{env:OPENAI_API_KEY}"
		}
		a.provider = map[string]any{"npm": "@ai-sdk/openai-compatible", "name": "agenteval (OPENAI_BASE_URL)",
			"options": options, "models": map[string]any{model: map[string]any{"name": model}}}
	default:
		a.Model = "openai/" + model
	}
	return a, nil
}

// NewSession writes the session's configuration home (opencode.json, the
// instructions) beside the job's directory, and serves the scenario's
// mocks as an MCP server of the session.
func (a *agent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	base, err := a.Agent.NewSession(cfg)
	if err != nil {
		return nil, err
	}
	s := &session{agent: a, Session: base}
	if err := s.writeConfig(s.Instructions); err != nil {
		_ = s.Close()
		return nil, a.Err(err)
	}
	return s, nil
}

type session struct {
	*cliagent.Session
	agent  *agent
	config string
	id     string // OpenCode's session id, once the first message made one
	n      int    // messages sent
}

// writeConfig writes opencode.json: the model and its provider, the
// instructions file, and permissions that never ask (nobody is there to
// answer): edits allowed in the job's directory, nothing outside it, no
// web, bash only with --allow-commands.
func (s *session) writeConfig(instructions string) error {
	bash := "deny"
	if s.agent.AllowCommands {
		bash = "allow"
	}
	cfg := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"model":      s.agent.Model,
		"permission": map[string]any{
			"*": "allow", "bash": bash, "external_directory": "deny", "doom_loop": "deny",
			"webfetch": "deny", "websearch": "deny", "codesearch": "deny",
		},
	}
	if s.agent.provider != nil {
		cfg["provider"] = map[string]any{providerID: s.agent.provider}
		cfg["small_model"] = s.agent.Model
	}
	if len(s.MCP) > 0 {
		cfg["mcp"] = mcpConfig(s.MCP)
	}
	if instructions != "" {
		file := filepath.Join(s.Home, "instructions.md")
		if err := os.WriteFile(file, []byte(instructions+"\n"), 0o644); err != nil {
			return err
		}
		cfg["instructions"] = []string{file}
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	s.config = filepath.Join(s.Home, "opencode.json")
	return os.WriteFile(s.config, b, 0o644)
}

// mcpConfig is OpenCode's mcp section: a local server's command and
// environment, a remote one's URL and headers (a bearer token as
// {env:NAME}, which OpenCode reads from the environment).
func mcpConfig(servers []cliagent.MCPServer) map[string]any {
	out := map[string]any{}
	for _, m := range servers {
		if m.URL != "" {
			headers := map[string]string{}
			maps.Copy(headers, m.Headers)
			if m.BearerTokenEnv != "" {
				headers["Authorization"] = "Bearer {env:" + m.BearerTokenEnv + "}"
			}
			out[m.Name] = map[string]any{"type": "remote", "url": m.URL, "headers": headers, "enabled": true, "oauth": false}
			continue
		}
		c := map[string]any{"type": "local", "command": m.Command, "enabled": true}
		if len(m.Env) > 0 {
			c["environment"] = m.Env
		}
		out[m.Name] = c
	}
	return out
}

// Send runs `opencode run --format json` with the message on its standard
// input, continuing the session after the first message.
func (s *session) Send(ctx context.Context, message string) (runner.Reply, error) {
	s.n++
	// Errors are logged to stderr, whose tail an error quotes.
	// --thinking streams the model's reasoning parts too.
	args := []string{"run", "--format", "json", "--thinking", "--pure", "--print-logs", "--log-level", "ERROR",
		"--model", s.agent.Model, "--title", fmt.Sprintf("agenteval message %d", s.n)}
	if s.id != "" {
		args = append(args, "--session", s.id)
	}
	env := cliagent.Env(s.Home, []string{"OPENCODE_"}, s.agent.Env,
		"OPENCODE_CONFIG="+s.config,
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_PROJECT_CONFIG=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
		"OPENCODE_DISABLE_SHARE=1", "OPENCODE_DISABLE_EXTERNAL_SKILLS=1")
	t := transcript{mcp: s.MCP}
	err := cliagent.Stream(ctx, cliagent.Run{Path: s.agent.Path, Args: args, Dir: s.Dir, Env: env, Stdin: message, Marker: s.Home}, t.event)
	if s.id == "" {
		s.id = t.session
	}
	return t.reply(), s.agent.Outcome(err, t.err, true)
}

// event is one line of `opencode run --format json`.
type event struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	Part      struct {
		Type   string `json:"type"`
		Text   string `json:"text"`
		Tool   string `json:"tool"`
		CallID string `json:"callID"`
		State  struct {
			Status string         `json:"status"`
			Input  map[string]any `json:"input"`
			Output any            `json:"output"`
			Error  string         `json:"error"`
			Time   struct {
				Start int64 `json:"start"`
				End   int64 `json:"end"`
			} `json:"time"`
		} `json:"state"`
		Reason string  `json:"reason"`
		Cost   float64 `json:"cost"`
		Tokens *struct {
			Input     int `json:"input"`
			Output    int `json:"output"`
			Reasoning int `json:"reasoning"`
			Cache     struct {
				Read  int `json:"read"`
				Write int `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	} `json:"part"`
	Error json.RawMessage `json:"error"`
}

// transcript gathers one run's events.
type transcript struct {
	session   string
	texts     []string
	reasoning []string // the reasoning parts' text (--thinking)
	actions   []results.Action
	usage     llm.Usage
	steps     int
	reason    string // the last step's finish reason
	err       string
	mcp       []cliagent.MCPServer // the session's MCP servers, whose tools are named SERVER_TOOL
}

func (t *transcript) event(line []byte) error {
	var e event
	if err := json.Unmarshal(line, &e); err != nil {
		return nil // not an event of ours; OpenCode may print others
	}
	if t.session == "" {
		t.session = e.SessionID
	}
	switch e.Type {
	case "text":
		if e.Part.Text != "" {
			t.texts = append(t.texts, e.Part.Text)
		}
	case "reasoning":
		if text := strings.TrimSpace(e.Part.Text); text != "" {
			t.reasoning = append(t.reasoning, text)
		}
	case "tool_use":
		st := e.Part.State
		a := results.Action{Name: cliagent.MCPToolName(e.Part.Tool, t.mcp), Args: st.Input, Result: st.Output, Error: st.Error,
			Start: millis(st.Time.Start), End: millis(st.Time.End)}
		if st.Status == "error" && a.Error == "" {
			a.Error = "failed"
		}
		if tool, ok := st.Input["tool"].(string); ok && a.Name == "invalid" {
			// OpenCode answers a call of a tool it does not offer (bash
			// without --allow-commands) with its "invalid" tool: the model
			// called tool, and the call failed.
			a.Name = tool
			if a.Error, _ = st.Input["error"].(string); a.Error == "" {
				a.Error = "no such tool"
			}
		}
		t.actions = append(t.actions, a)
	case "step_start":
		t.steps++
	case "step_finish":
		t.reason = e.Part.Reason
		// OpenCode prices each step by its model's cost (models.dev's, or
		// the configuration's); the message's cost, which ghx reads, is
		// their sum.
		t.usage.CostUSD += max(e.Part.Cost, 0)
		if tk := e.Part.Tokens; tk != nil {
			// OpenCode counts cached prompt tokens apart from its input and
			// reasoning apart from its output; our usage counts them in
			// the prompt and the completion, as OpenAI does.
			prompt := tk.Input + tk.Cache.Read + tk.Cache.Write
			completion := tk.Output + tk.Reasoning
			t.usage = t.usage.Add(llm.Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion,
				ReasoningTokens: tk.Reasoning, CacheReadTokens: tk.Cache.Read, CacheWriteTokens: tk.Cache.Write})
		}
	case "error":
		t.err = errorText(e.Error)
	}
	return nil
}

// reply is what the run answered: its text parts, one a paragraph.
func (t *transcript) reply() runner.Reply {
	return runner.Reply{Text: strings.Join(t.texts, "\n\n"), Actions: t.actions, Usage: t.usage,
		Thought: strings.Join(t.reasoning, "\n\n"), EndReason: t.reason}
}

// errorText is the message of an error event ({"name":...,"data":{"message":...}}).
func errorText(raw json.RawMessage) string {
	var e struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return "opencode reported an error: " + string(raw)
	}
	msg := e.Data.Message
	if msg == "" {
		msg = e.Message
	}
	if e.Name != "" {
		return e.Name + ": " + msg
	}
	return msg
}

func millis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
