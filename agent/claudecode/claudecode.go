// Package claudecode is the agent type claude-code:MODEL: Anthropic's
// Claude Code CLI (npm package @anthropic-ai/claude-code) under test. Each
// message is one `claude -p --output-format stream-json` in the job's
// directory, the later ones resuming the same session (--resume ID), with
// a configuration directory of its own per session (CLAUDE_CONFIG_DIR;
// the agent's and character's instructions as its CLAUDE.md, the memory
// Claude Code reads for every project), the model on the Messages API at
// ANTHROPIC_BASE_URL or Anthropic's, edits accepted in the job's
// directory, nothing that would ask for a permission (nobody is there to
// answer), its Bash tool only with --allow-commands, and the session's
// MCP servers (a suite's mcp_servers, the scenario's mocks) in a
// --mcp-config file, their tools allowed beforehand. Claude Code's
// stream-json events become the reply: its text, its thinking blocks (the
// reply's thought), each tool call with arguments, result, error and
// timing, the run's tokens, the cost Claude Code reports (total_cost_usd,
// less the earlier runs' after --resume) and why the run ended (its stop
// reason, or a failed run's subtype).
package claudecode

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenteval/agenteval/agent/internal/cliagent"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// version is the @anthropic-ai/claude-code release this agent is tested
// with.
const version = "2.1.332"

var program = cliagent.Program{Name: "claude", PathEnv: "AGENTEVAL_CLAUDE_CODE", Install: "npm install -g @anthropic-ai/claude-code@" + version}

// Type returns the agent type "claude-code" (claude-code:MODEL), for a
// registry of agent types such as agenteval.Kit's. MODEL runs on the
// Anthropic Messages API at ANTHROPIC_BASE_URL (key ANTHROPIC_API_KEY or
// ANTHROPIC_AUTH_TOKEN), or on Anthropic's without it; Claude Code's own
// provider variables (CLAUDE_CODE_USE_BEDROCK, ...) pass through.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "claude-code", Doc: "claude-code:MODEL runs Anthropic's Claude Code CLI (npm @anthropic-ai/claude-code) in the job's directory: MODEL on the Messages API at ANTHROPIC_BASE_URL or Anthropic's; AGENTEVAL_CLAUDE_CODE gives its path",
		TakesEnv: true, TakesInstructions: true, ModelArg: true, New: newAgent}
}

type agent struct {
	cliagent.Agent
}

func newAgent(model string, opts runner.AgentOptions) (runner.Agent, error) {
	ca, getenv, err := cliagent.NewAgent("claude-code", "claude-code:claude-sonnet-4-5", program, model, opts, "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
	if err != nil {
		return nil, err
	}
	if getenv("ANTHROPIC_BASE_URL") != "" {
		// Claude Code's background calls (titles, summaries) name a small
		// model of Anthropic's that another endpoint may not serve.
		ca.Env = append(ca.Env, "ANTHROPIC_DEFAULT_HAIKU_MODEL="+model, "ANTHROPIC_SMALL_FAST_MODEL="+model)
	}
	return &agent{Agent: ca}, nil
}

// NewSession makes the session's configuration directory beside the
// job's directory, with the instructions as its CLAUDE.md.
func (a *agent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	base, err := a.Agent.NewSession(cfg)
	if err != nil {
		return nil, err
	}
	s := &session{agent: a, Session: base, config: filepath.Join(base.Home, ".claude")}
	if err := s.prepare(); err != nil {
		_ = s.Close()
		return nil, a.Err(err)
	}
	return s, nil
}

// prepare writes CLAUDE.md and the MCP configuration, and makes the
// session's runtime directory.
func (s *session) prepare() error {
	if err := os.MkdirAll(s.config, 0o755); err != nil {
		return err
	}
	if s.Instructions != "" {
		if err := os.WriteFile(filepath.Join(s.config, "CLAUDE.md"), []byte(s.Instructions+"\n"), 0o644); err != nil {
			return err
		}
	}
	// Claude Code binds a socket in $XDG_RUNTIME_DIR/cc-socks, or in
	// /tmp/cc-socks-UID, shared by every user's session, when that path
	// would be too long for a socket (the home's is): a short directory of
	// the session's own keeps it, and goes with the session.
	runtime, err := os.MkdirTemp("", "agenteval-cc-")
	if err != nil {
		return err
	}
	s.runtime = runtime
	return s.writeMCPConfig()
}

type session struct {
	*cliagent.Session
	agent           *agent
	config, runtime string
	id              string  // Claude Code's session id, once the first message made one
	cost            float64 // the session's cost so far, as Claude Code counts it
	mcpConfig       string  // the file --mcp-config reads, when there are servers
}

// writeMCPConfig writes the session's MCP servers as the file
// --mcp-config reads: a local server's command, arguments and
// environment, a remote one's URL and headers (a bearer token as
// ${NAME}, which Claude Code expands from its environment).
func (s *session) writeMCPConfig() error {
	if len(s.MCP) == 0 {
		return nil
	}
	servers := map[string]any{}
	for _, m := range s.MCP {
		if m.URL != "" {
			headers := map[string]string{}
			maps.Copy(headers, m.Headers)
			if m.BearerTokenEnv != "" {
				headers["Authorization"] = "Bearer ${" + m.BearerTokenEnv + "}"
			}
			servers[m.Name] = map[string]any{"type": "http", "url": m.URL, "headers": headers}
			continue
		}
		c := map[string]any{"type": "stdio", "command": m.Command[0], "args": m.Command[1:]}
		if len(m.Env) > 0 {
			c["env"] = m.Env
		}
		servers[m.Name] = c
	}
	b, err := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
	if err != nil {
		return err
	}
	s.mcpConfig = filepath.Join(s.Home, "mcp.json")
	return os.WriteFile(s.mcpConfig, b, 0o600)
}

// Send runs `claude -p --output-format stream-json` with the message on
// its standard input, resuming the session after the first message.
func (s *session) Send(ctx context.Context, message string) (runner.Reply, error) {
	args := []string{"-p", "--output-format", "stream-json", "--verbose", "--model", s.agent.Model,
		// Edits in the job's directory are accepted; whatever would ask
		// (a file elsewhere, a tool not allowed) is denied.
		"--permission-mode", "acceptEdits", "--permission-prompts", "none"}
	deny := "WebFetch,WebSearch"
	var allow []string
	if s.agent.AllowCommands {
		allow = append(allow, "Bash")
	} else {
		deny += ",Bash"
	}
	if s.mcpConfig != "" {
		// Only the session's servers, whose tools (mcp__NAME__TOOL, ghx's
		// mcp category as they are) are allowed beforehand: nobody is
		// there to approve them.
		args = append(args, "--mcp-config", s.mcpConfig, "--strict-mcp-config")
		for _, m := range s.MCP {
			allow = append(allow, "mcp__"+m.Name)
		}
	}
	if len(allow) > 0 {
		args = append(args, "--allowedTools", strings.Join(allow, ","))
	}
	args = append(args, "--disallowedTools", deny)
	if s.id != "" {
		args = append(args, "--resume", s.id)
	}
	env := cliagent.Env(s.Home, []string{"CLAUDE_CONFIG_DIR"}, s.agent.Env, "CLAUDE_CONFIG_DIR="+s.config, "XDG_RUNTIME_DIR="+s.runtime,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_NON_ESSENTIAL_MODEL_CALLS=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")
	t := transcript{pending: map[string]int{}, before: s.cost}
	err := cliagent.Stream(ctx, cliagent.Run{Path: s.agent.Path, Args: args, Dir: s.Dir, Env: env, Stdin: message, Marker: s.Home}, t.event)
	if s.id == "" {
		s.id = t.session
	}
	if t.ended {
		s.cost = t.cost
	}
	reply := t.reply()
	// Claude Code exits 1 after a failed result, which says why.
	return reply, s.agent.Outcome(err, t.err, t.ended)
}

// Close stops serving the mocks and removes the session's configuration
// home and runtime directory.
func (s *session) Close() error {
	var err error
	if s.runtime != "" {
		err = os.RemoveAll(s.runtime)
	}
	return errors.Join(s.Session.Close(), err)
}

// event is one line of `claude -p --output-format stream-json --verbose`.
type event struct {
	Type      string    `json:"type"`
	Subtype   string    `json:"subtype"`
	SessionID string    `json:"session_id"`
	Timestamp time.Time `json:"timestamp"`
	Message   struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	// The result's fields.
	IsError    bool    `json:"is_error"`
	Result     string  `json:"result"`
	Errors     []any   `json:"errors"`
	StopReason string  `json:"stop_reason"`
	Terminal   string  `json:"terminal_reason"`
	CostUSD    float64 `json:"total_cost_usd"`
	Usage      *struct {
		Input         int `json:"input_tokens"`
		CacheCreation int `json:"cache_creation_input_tokens"`
		CacheRead     int `json:"cache_read_input_tokens"`
		Output        int `json:"output_tokens"`
		OutputDetails struct {
			Thinking int `json:"thinking_tokens"`
		} `json:"output_tokens_details"`
	} `json:"usage"`
}

// block is a content block of a message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     map[string]any  `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// transcript gathers one run's events.
type transcript struct {
	session  string
	texts    []string
	thinking []string // the thinking blocks' text
	actions  []results.Action
	pending  map[string]int // tool_use id -> index in actions
	usage    llm.Usage
	before   float64 // the session's cost before this run
	cost     float64 // the session's cost after it (total_cost_usd)
	reason   string  // why the run ended (the result's)
	ended    bool    // a result came
	err      string
}

func (t *transcript) event(line []byte) error {
	var e event
	if err := json.Unmarshal(line, &e); err != nil {
		return nil // not an event of ours
	}
	if t.session == "" {
		t.session = e.SessionID
	}
	at := e.Timestamp
	if at.IsZero() {
		at = time.Now()
	}
	switch e.Type {
	case "assistant":
		var blocks []block
		_ = json.Unmarshal(e.Message.Content, &blocks) // a message of another shape has no blocks
		for _, b := range blocks {
			switch b.Type {
			case "text":
				if b.Text != "" {
					t.texts = append(t.texts, b.Text)
				}
			case "thinking":
				if b.Thinking != "" {
					t.thinking = append(t.thinking, b.Thinking)
				}
			case "tool_use":
				t.pending[b.ID] = len(t.actions)
				t.actions = append(t.actions, results.Action{Name: b.Name, Args: b.Input, Start: at})
			}
		}
	case "user":
		var blocks []block
		_ = json.Unmarshal(e.Message.Content, &blocks) // a prompt's text is not a result
		for _, b := range blocks {
			i, ok := t.pending[b.ToolUseID]
			if b.Type != "tool_result" || !ok {
				continue
			}
			delete(t.pending, b.ToolUseID)
			a := &t.actions[i]
			a.End = at
			if text := contentText(b.Content); b.IsError {
				a.Error = text
				if a.Error == "" {
					a.Error = "failed"
				}
			} else {
				a.Result = text
			}
		}
	case "result":
		t.ended = true
		if u := e.Usage; u != nil {
			// Claude Code counts cached prompt tokens apart from its input;
			// our usage counts them in the prompt, as OpenAI does.
			prompt := u.Input + u.CacheRead + u.CacheCreation
			t.usage = llm.Usage{PromptTokens: prompt, CompletionTokens: u.Output, TotalTokens: prompt + u.Output,
				ReasoningTokens: u.OutputDetails.Thinking, CacheReadTokens: u.CacheRead, CacheWriteTokens: u.CacheCreation}
		}
		// What Claude Code says the session cost (its own prices): on
		// --resume it counts from the earlier runs' cost, while its usage
		// is this run's, so this run's cost is the difference.
		t.cost = max(e.CostUSD, 0)
		t.usage.CostUSD = t.cost
		if t.before > 0 && t.cost >= t.before {
			t.usage.CostUSD = math.Round((t.cost-t.before)*1e9) / 1e9
		}
		t.reason = endReason(e)
		if e.IsError {
			t.err = resultError(e)
		}
	}
	return nil
}

// endReason is why a run ended: a failed run's subtype
// ("error_max_turns", "error_during_execution"), else the model's last
// stop reason ("end_turn"), else Claude Code's terminal reason.
func endReason(e event) string {
	switch {
	case e.Subtype != "" && e.Subtype != "success":
		return e.Subtype
	case e.StopReason != "":
		return e.StopReason
	case e.Terminal != "":
		return e.Terminal
	}
	return e.Subtype
}

// resultError says why a run failed: its result text, or its errors, or
// its subtype.
func resultError(e event) string {
	msg := strings.TrimSpace(e.Result)
	if msg == "" && len(e.Errors) > 0 {
		b, _ := json.Marshal(e.Errors) // decoded JSON values
		msg = string(b)
	}
	if msg == "" {
		msg = "the run failed"
	}
	if e.Subtype != "" && e.Subtype != "success" {
		return e.Subtype + ": " + msg
	}
	return msg
}

// contentText is a tool result's text: a string, or its text blocks
// joined.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	_ = json.Unmarshal(raw, &blocks) // content of another shape has no text
	var texts []string
	for _, b := range blocks {
		if b.Type == "text" {
			texts = append(texts, b.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// reply is what the run answered: its text blocks, one a paragraph; a
// tool call that never got its result ends when the run did.
func (t *transcript) reply() runner.Reply {
	for _, i := range t.pending {
		if a := &t.actions[i]; a.End.IsZero() {
			a.End = time.Now()
			a.Error = "no result: the run ended first"
		}
	}
	return runner.Reply{Text: strings.Join(t.texts, "\n\n"), Actions: t.actions, Usage: t.usage,
		Thought: strings.Join(t.thinking, "\n\n"), EndReason: t.reason}
}
