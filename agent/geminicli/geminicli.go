// Package geminicli is the agent type gemini-cli:MODEL: Google's Gemini
// CLI (npm package @google/gemini-cli) under test. Each message is one
// `gemini --output-format stream-json` in the job's directory, the later
// ones resuming the same session (--resume ID), with a home of its own per
// session (its ~/.gemini: settings.json, and the agent's and character's
// instructions as the global GEMINI.md that Gemini CLI reads in every
// project), the model on the Gemini API at GOOGLE_GEMINI_BASE_URL or
// Google's, tool calls approved without asking (nobody is there to
// answer), web tools off, its shell tool offered only with
// --allow-commands, and the session's MCP servers (a suite's mcp_servers,
// the scenario's mocks) in settings.json, trusted. Gemini CLI's
// stream-json events become the reply: its text, each tool call with
// arguments, output, error and timing, the run's tokens (thoughts counted
// as reasoning tokens: stream-json carries no thought text, nor a cost)
// and the result's status as the reply's end reason.
package geminicli

import (
	"context"
	"encoding/json"
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

// version is the @google/gemini-cli release this agent is tested with.
const version = "0.61.0"

var program = cliagent.Program{Name: "gemini", PathEnv: "AGENTEVAL_GEMINI_CLI", Install: "npm install -g @google/gemini-cli@" + version}

// shellTool is Gemini CLI's shell tool; its calls are recorded as
// "shell" calls so that ghx's classifier tells gh from other commands.
const shellTool = "run_shell_command"

// Type returns the agent type "gemini-cli" (gemini-cli:MODEL), for a
// registry of agent types such as agenteval.Kit's. MODEL runs on the
// Gemini API at GOOGLE_GEMINI_BASE_URL (key GEMINI_API_KEY), or on
// Google's without it; with GOOGLE_GENAI_USE_VERTEXAI=true on Vertex AI
// (GOOGLE_CLOUD_PROJECT, GOOGLE_CLOUD_LOCATION, GOOGLE_API_KEY).
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "gemini-cli", Doc: "gemini-cli:MODEL runs Google's Gemini CLI (npm @google/gemini-cli) in the job's directory: MODEL on the Gemini API at GOOGLE_GEMINI_BASE_URL or Google's; AGENTEVAL_GEMINI_CLI gives its path",
		TakesEnv: true, TakesInstructions: true, ModelArg: true, New: newAgent}
}

type agent struct {
	cliagent.Agent
	auth string // Gemini CLI's auth type
}

func newAgent(model string, opts runner.AgentOptions) (runner.Agent, error) {
	ca, getenv, err := cliagent.NewAgent("gemini-cli", "gemini-cli:gemini-2.5-pro", program, model, opts, "GOOGLE_GEMINI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY",
		"GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION")
	if err != nil {
		return nil, err
	}
	a := &agent{Agent: ca, auth: "gemini-api-key"}
	if v := strings.ToLower(getenv("GOOGLE_GENAI_USE_VERTEXAI")); v == "true" || v == "1" {
		a.auth = "vertex-ai"
	}
	return a, nil
}

// NewSession writes the session's ~/.gemini (settings.json, GEMINI.md)
// in a home beside the job's directory.
func (a *agent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	base, err := a.Agent.NewSession(cfg)
	if err != nil {
		return nil, err
	}
	s := &session{agent: a, Session: base}
	if err := a.writeConfig(filepath.Join(s.Home, ".gemini"), s.Instructions, s.MCP); err != nil {
		_ = s.Close()
		return nil, a.Err(err)
	}
	return s, nil
}

// writeConfig writes settings.json (the auth type, no telemetry, usage
// statistics or update checks, the tools not offered: web tools always,
// the shell without --allow-commands; the MCP servers, trusted, as nobody
// is there to confirm their calls) and the instructions as GEMINI.md.
func (a *agent) writeConfig(dir, instructions string, mcp []cliagent.MCPServer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	exclude := []string{"web_fetch", "google_web_search"}
	if !a.AllowCommands {
		exclude = append(exclude, shellTool)
	}
	settings := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": a.auth}},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"tools":     map[string]any{"exclude": exclude},
	}
	if len(mcp) > 0 {
		settings["mcpServers"] = mcpConfig(mcp)
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o644); err != nil {
		return err
	}
	if instructions == "" {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "GEMINI.md"), []byte(instructions+"\n"), 0o644)
}

// mcpConfig is settings.json's mcpServers: a local server's command,
// arguments and environment, a remote one's URL and headers (a bearer
// token as ${NAME}, which Gemini CLI expands from its environment).
func mcpConfig(servers []cliagent.MCPServer) map[string]any {
	out := map[string]any{}
	for _, m := range servers {
		if m.URL != "" {
			headers := map[string]string{}
			maps.Copy(headers, m.Headers)
			if m.BearerTokenEnv != "" {
				headers["Authorization"] = "Bearer ${" + m.BearerTokenEnv + "}"
			}
			out[m.Name] = map[string]any{"httpUrl": m.URL, "headers": headers, "trust": true}
			continue
		}
		c := map[string]any{"command": m.Command[0], "args": m.Command[1:], "trust": true}
		if len(m.Env) > 0 {
			c["env"] = m.Env
		}
		out[m.Name] = c
	}
	return out
}

type session struct {
	*cliagent.Session
	agent *agent
	id    string    // Gemini CLI's session id, once the first message made one
	total llm.Usage // the session's tokens so far, as Gemini CLI counts them
}

// Send runs `gemini --output-format stream-json` with the message on its
// standard input, resuming the session after the first message.
func (s *session) Send(ctx context.Context, message string) (runner.Reply, error) {
	// yolo approves every tool offered; the shell is offered only with
	// --allow-commands, and the file tools refuse paths outside the
	// workspace (the job's directory).
	args := []string{"--output-format", "stream-json", "--model", s.agent.Model, "--approval-mode", "yolo", "--skip-trust"}
	if s.id != "" {
		args = append(args, "--resume", s.id)
	}
	env := cliagent.Env(s.Home, []string{"GEMINI_CLI_", "GEMINI_SYSTEM_MD"}, s.agent.Env, "GEMINI_CLI_HOME="+s.Home, "NO_COLOR=1")
	t := transcript{pending: map[string]int{}, before: s.total, mcp: s.MCP}
	err := cliagent.Stream(ctx, cliagent.Run{Path: s.agent.Path, Args: args, Dir: s.Dir, Env: env, Stdin: message, Marker: s.Home}, t.event)
	if s.id == "" {
		s.id = t.session
	}
	if t.ended {
		s.total = t.total
	}
	return t.reply(), s.agent.Outcome(err, t.err, t.ended)
}

// event is one line of `gemini --output-format stream-json`.
type event struct {
	Type       string         `json:"type"`
	Timestamp  time.Time      `json:"timestamp"`
	SessionID  string         `json:"session_id"`
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	Delta      bool           `json:"delta"`
	ToolName   string         `json:"tool_name"`
	ToolID     string         `json:"tool_id"`
	Parameters map[string]any `json:"parameters"`
	Status     string         `json:"status"`
	Output     *string        `json:"output"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Stats    *struct {
		Total  int `json:"total_tokens"`
		Input  int `json:"input_tokens"`
		Output int `json:"output_tokens"`
		Cached int `json:"cached"`
	} `json:"stats"`
}

// transcript gathers one run's events.
type transcript struct {
	session string
	texts   []string
	text    strings.Builder // the assistant message being streamed
	actions []results.Action
	pending map[string]int       // tool_id -> index in actions
	mcp     []cliagent.MCPServer // the session's MCP servers, whose tools are named mcp_SERVER_TOOL
	before  llm.Usage            // the session's tokens before this run
	total   llm.Usage            // the session's tokens after it
	ended   bool                 // a result came
	reason  string               // the result's status, or its error's type
	err     string
}

func (t *transcript) event(line []byte) error {
	var e event
	if err := json.Unmarshal(line, &e); err != nil {
		return nil // not an event of ours
	}
	at := e.Timestamp
	if at.IsZero() {
		at = time.Now()
	}
	switch e.Type {
	case "init":
		t.session = e.SessionID
	case "message":
		if e.Role != "assistant" {
			return nil
		}
		if !e.Delta {
			t.flush()
		}
		t.text.WriteString(e.Content)
	case "tool_use":
		t.flush()
		name := e.ToolName
		if name == shellTool {
			name = "shell"
		} else if rest, ok := strings.CutPrefix(name, "mcp_"); ok {
			// Gemini CLI names an MCP tool mcp_SERVER_TOOL; one of no
			// server of ours keeps its name (ghx's mcp category still).
			if n := cliagent.MCPToolName(rest, t.mcp); n != rest {
				name = n
			}
		}
		t.pending[e.ToolID] = len(t.actions)
		t.actions = append(t.actions, results.Action{Name: name, Args: e.Parameters, Start: at})
	case "tool_result":
		i, ok := t.pending[e.ToolID]
		if !ok {
			return nil
		}
		delete(t.pending, e.ToolID)
		a := &t.actions[i]
		a.End = at
		if e.Output != nil {
			a.Result = *e.Output
		}
		if e.Status != "success" {
			a.Error = e.Status
			if e.Error != nil && e.Error.Message != "" {
				a.Error = e.Error.Message
			}
			if a.Error == "" {
				a.Error = "failed"
			}
		}
	case "result":
		t.flush()
		t.ended = true
		t.reason = e.Status
		if e.Status != "success" && e.Error != nil && e.Error.Type != "" {
			t.reason = e.Error.Type // FatalTurnLimitedError, FatalCancellationError, ...
		}
		if s := e.Stats; s != nil {
			// Gemini CLI counts cached tokens within the prompt, as OpenAI
			// does; its total also holds the thoughts, which its output
			// leaves out.
			completion := max(s.Total-s.Input, s.Output)
			t.total = llm.Usage{PromptTokens: s.Input, CompletionTokens: completion, TotalTokens: s.Input + completion,
				ReasoningTokens: completion - s.Output, CacheReadTokens: s.Cached}
		}
		if e.Status != "success" {
			t.err = "the run failed"
			if e.Error != nil && e.Error.Message != "" {
				t.err = e.Error.Message
			}
		}
	case "error":
		if e.Severity == "error" && e.Message != "" {
			t.err = e.Message
		}
	}
	return nil
}

// flush ends the assistant message being streamed.
func (t *transcript) flush() {
	if t.text.Len() > 0 {
		t.texts = append(t.texts, t.text.String())
		t.text.Reset()
	}
}

// reply is what the run answered: its messages, one a paragraph, its tool
// calls (one whose result never came ends when the run did), and the
// tokens it added to the session (a resumed session's counts start from
// the earlier runs').
func (t *transcript) reply() runner.Reply {
	t.flush()
	for _, i := range t.pending {
		if a := &t.actions[i]; a.End.IsZero() {
			a.End = time.Now()
			a.Error = "no result: the run ended first"
		}
	}
	u := t.total
	if b := t.before; b != (llm.Usage{}) && u.PromptTokens >= b.PromptTokens && u.CompletionTokens >= b.CompletionTokens {
		u = llm.Usage{PromptTokens: u.PromptTokens - b.PromptTokens, CompletionTokens: u.CompletionTokens - b.CompletionTokens,
			TotalTokens: u.TotalTokens - b.TotalTokens, ReasoningTokens: u.ReasoningTokens - b.ReasoningTokens,
			CacheReadTokens: u.CacheReadTokens - b.CacheReadTokens}
	}
	return runner.Reply{Text: strings.Join(t.texts, "\n\n"), Actions: t.actions, Usage: u, EndReason: t.reason}
}
