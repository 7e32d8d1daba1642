// Package codex is the agent type codex:MODEL: OpenAI's Codex CLI (npm
// package @openai/codex) under test. Each message is one `codex exec
// --json` in the job's directory, the later ones resuming the same thread
// (`codex exec resume ID`), with a CODEX_HOME of its own per session (the
// agent's and character's instructions as its AGENTS.md), the model on the
// OpenAI-compatible endpoint at OPENAI_BASE_URL (Responses API) or
// OpenAI's, and its shell tools only with --allow-commands. Codex's JSON
// events become the reply: its messages, its reasoning items (the reply's
// thought), each command, MCP call, file change and web search as an
// action, the turn's tokens, and how the turn ended (completed or failed;
// Codex reports no cost).
package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/agent/internal/cliagent"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// version is the @openai/codex release this agent is tested with.
const version = "0.171.0"

var program = cliagent.Program{Name: "codex", PathEnv: "AGENTEVAL_CODEX", Install: "npm install -g @openai/codex@" + version}

// Type returns the agent type "codex" (codex:MODEL), for a registry of
// agent types such as agenteval.Kit's. MODEL runs on the OpenAI-compatible
// endpoint at OPENAI_BASE_URL (Responses API; key OPENAI_API_KEY), or on
// OpenAI's without it.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "codex", Doc: "codex:MODEL runs OpenAI's Codex CLI (npm @openai/codex) in the job's directory: MODEL on the OpenAI-compatible endpoint OPENAI_BASE_URL (Responses API) or OpenAI's; AGENTEVAL_CODEX gives its path",
		TakesEnv: true, TakesInstructions: true, ModelArg: true, New: newAgent}
}

type agent struct {
	cliagent.Agent
	config []string // -c overrides
}

func newAgent(model string, opts runner.AgentOptions) (runner.Agent, error) {
	ca, getenv, err := cliagent.NewAgent("codex", "codex:gpt-5-codex", program, model, opts, "OPENAI_BASE_URL", "OPENAI_API_KEY")
	if err != nil {
		return nil, err
	}
	a := &agent{Agent: ca, config: []string{"analytics.enabled=false", "check_for_update_on_startup=false", `approval_policy="never"`}}
	if base := getenv("OPENAI_BASE_URL"); base != "" {
		provider := "{name=" + strconv.Quote("agenteval (OPENAI_BASE_URL)") + ",base_url=" + strconv.Quote(base) + `,wire_api="responses"`
		if getenv("OPENAI_API_KEY") != "" {
			provider += `,env_key="OPENAI_API_KEY"` // read from the environment, never written
		}
		a.config = append(a.config, `model_provider="agenteval"`, "model_providers.agenteval="+provider+"}")
	}
	return a, nil
}

// NewSession makes the session's CODEX_HOME beside the job's directory
// (the instructions as its AGENTS.md) and serves the scenario's mocks as
// an MCP server of the session.
func (a *agent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	base, err := a.Agent.NewSession(cfg)
	if err != nil {
		return nil, err
	}
	s := &session{agent: a, Session: base, codexHome: filepath.Join(base.Home, ".codex")}
	if err := s.prepare(); err != nil {
		_ = s.Close()
		return nil, a.Err(err)
	}
	return s, nil
}

func (s *session) prepare() error {
	if err := os.MkdirAll(s.codexHome, 0o755); err != nil {
		return err
	}
	if s.Instructions != "" {
		// Codex reads $CODEX_HOME/AGENTS.md as the user's own instructions.
		if err := os.WriteFile(filepath.Join(s.codexHome, "AGENTS.md"), []byte(s.Instructions+"\n"), 0o644); err != nil {
			return err
		}
	}
	s.mcpConfig = mcpConfig(s.MCP)
	return nil
}

// mcpConfig is Codex's mcp_servers as -c overrides: a stdio server's
// command, arguments and env, a remote one's url, bearer token variable
// (Codex reads the token from the environment) and headers.
func mcpConfig(servers []cliagent.MCPServer) []string {
	var out []string
	for _, m := range servers {
		key := "mcp_servers." + m.Name + "."
		// Nobody is there to approve a call: every tool of the server is
		// approved beforehand.
		out = append(out, key+`default_tools_approval_mode="approve"`)
		if m.URL != "" {
			out = append(out, key+"url="+strconv.Quote(m.URL))
			if m.BearerTokenEnv != "" {
				out = append(out, key+"bearer_token_env_var="+strconv.Quote(m.BearerTokenEnv))
			}
			if len(m.Headers) > 0 {
				out = append(out, key+"http_headers="+tomlTable(m.Headers))
			}
			continue
		}
		out = append(out, key+"command="+strconv.Quote(m.Command[0]))
		args := make([]string, len(m.Command)-1)
		for i, a := range m.Command[1:] {
			args[i] = strconv.Quote(a)
		}
		out = append(out, key+"args=["+strings.Join(args, ",")+"]")
		if len(m.Env) > 0 {
			out = append(out, key+"env="+tomlTable(m.Env))
		}
	}
	return out
}

// tomlTable is an inline TOML table of strings, in key order.
func tomlTable(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, strconv.Quote(k)+"="+strconv.Quote(m[k]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

type session struct {
	*cliagent.Session
	agent     *agent
	mcpConfig []string // -c overrides of the session's MCP servers
	codexHome string
	thread    string    // Codex's thread id, once the first message made one
	total     llm.Usage // the thread's tokens so far, as Codex counts them
}

// Send runs `codex exec --json` (or `codex exec resume ID`) with the
// message on its standard input.
func (s *session) Send(ctx context.Context, message string) (runner.Reply, error) {
	args := []string{"exec", "--json", "--skip-git-repo-check", "--ignore-user-config", "--color", "never", "-m", s.agent.Model}
	if s.agent.AllowCommands {
		// The job's directory is the workspace: Codex's own sandbox needs
		// kernel features containers often lack, so it is not relied on.
		args = append(args, "--dangerously-bypass-approvals-and-sandbox")
	} else {
		args = append(args, "--sandbox", "read-only", "--disable", "shell_tool", "--disable", "unified_exec")
	}
	for _, c := range slices.Concat(s.agent.config, s.mcpConfig) {
		args = append(args, "-c", c)
	}
	if s.thread != "" {
		args = append(args, "resume", s.thread)
	}
	args = append(args, "-")
	env := cliagent.Env(s.Home, []string{"CODEX_"}, s.agent.Env, "CODEX_HOME="+s.codexHome)
	t := transcript{started: map[string]time.Time{}, before: s.total}
	err := cliagent.Stream(ctx, cliagent.Run{Path: s.agent.Path, Args: args, Dir: s.Dir, Env: env, Stdin: message, Marker: s.Home}, t.event)
	if s.thread == "" {
		s.thread = t.thread
	}
	if t.total != (llm.Usage{}) {
		s.total = t.total
	}
	return t.reply(), s.agent.Outcome(err, t.err, true)
}

// event is one line of `codex exec --json`.
type event struct {
	Type     string    `json:"type"`
	ThreadID string    `json:"thread_id"`
	Item     *item     `json:"item"`
	Usage    *usage    `json:"usage"`
	Error    *errorMsg `json:"error"`
	Message  string    `json:"message"`
}

type item struct {
	ID               string          `json:"id"`
	Type             string          `json:"type"`
	Text             string          `json:"text"`
	Message          string          `json:"message"`
	Command          string          `json:"command"`
	AggregatedOutput string          `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Status           string          `json:"status"`
	Server           string          `json:"server"`
	Tool             string          `json:"tool"`
	Arguments        json.RawMessage `json:"arguments"`
	Result           json.RawMessage `json:"result"`
	Error            *errorMsg       `json:"error"`
	Changes          []any           `json:"changes"`
	Query            string          `json:"query"`
}

type usage struct {
	Input       int `json:"input_tokens"`
	Cached      int `json:"cached_input_tokens"`
	CacheWrite  int `json:"cache_write_input_tokens"`
	Output      int `json:"output_tokens"`
	Reasoning   int `json:"reasoning_output_tokens"`
	TotalTokens int `json:"total_tokens"`
}

type errorMsg struct {
	Message string `json:"message"`
}

// transcript gathers one run's events.
type transcript struct {
	thread    string
	texts     []string
	reasoning []string // the reasoning items' text
	reason    string   // "completed" or "failed": how the turn ended
	actions   []results.Action
	started   map[string]time.Time
	open      []*item   // items started and not completed, in order
	before    llm.Usage // the thread's tokens before this run
	total     llm.Usage // the thread's tokens after it (turn.completed)
	err       string
}

func (t *transcript) event(line []byte) error {
	var e event
	if err := json.Unmarshal(line, &e); err != nil {
		return nil // not an event of ours
	}
	switch e.Type {
	case "thread.started":
		t.thread = e.ThreadID
	case "item.started":
		if e.Item != nil {
			t.started[e.Item.ID] = time.Now()
			t.open = append(t.open, e.Item)
		}
	case "item.completed":
		if e.Item != nil {
			t.open = slices.DeleteFunc(t.open, func(it *item) bool { return it.ID == e.Item.ID })
			t.completed(e.Item)
		}
	case "turn.completed":
		t.reason = "completed"
		if u := e.Usage; u != nil {
			// Codex counts the thread's tokens, cached input within the
			// input and reasoning within the output, as OpenAI does.
			t.total = llm.Usage{PromptTokens: u.Input, CompletionTokens: u.Output, TotalTokens: u.Input + u.Output,
				ReasoningTokens: u.Reasoning, CacheReadTokens: u.Cached, CacheWriteTokens: u.CacheWrite}
		}
	case "turn.failed":
		t.reason = "failed"
		if e.Error != nil {
			t.err = e.Error.Message
		} else {
			t.err = "the turn failed"
		}
	case "error":
		t.err = e.Message
	}
	return nil
}

func (t *transcript) completed(it *item) {
	now := time.Now()
	start, ok := t.started[it.ID]
	if !ok {
		start = now
	}
	a := results.Action{Start: start, End: now}
	switch it.Type {
	case "agent_message":
		if it.Text != "" {
			t.texts = append(t.texts, it.Text)
		}
		return
	case "reasoning":
		if text := strings.TrimSpace(it.Text); text != "" {
			t.reasoning = append(t.reasoning, text)
		}
		return
	case "command_execution":
		a.Name = "shell"
		a.Args = map[string]any{"command": innerCommand(it.Command)}
		a.Result = it.AggregatedOutput
		if it.ExitCode != nil && *it.ExitCode != 0 {
			a.Error = fmt.Sprintf("exit status %d", *it.ExitCode)
		} else if it.Status == "failed" || it.Status == "declined" {
			a.Error = it.Status
		}
	case "mcp_tool_call":
		a.Name = "mcp__" + it.Server + "__" + it.Tool
		_ = json.Unmarshal(it.Arguments, &a.Args)
		var result any
		if json.Unmarshal(it.Result, &result) == nil {
			a.Result = result
		}
		if it.Error != nil {
			a.Error = it.Error.Message
		} else if it.Status == "failed" {
			a.Error = "failed"
		}
	case "file_change":
		a.Name = "apply_patch"
		a.Args = map[string]any{"changes": it.Changes}
		if it.Status == "failed" {
			a.Error = "failed"
		}
	case "web_search":
		a.Name = "web_search"
		a.Args = map[string]any{"query": it.Query}
	default:
		return // plans, and Codex's warnings
	}
	t.actions = append(t.actions, a)
}

// innerCommand is the command Codex ran through a shell ("/bin/bash -lc
// 'gh pr list'" is "gh pr list"), so ghx's classifier sees it.
func innerCommand(cmd string) string {
	for _, prefix := range []string{"/bin/bash -lc ", "bash -lc ", "/bin/bash -c ", "bash -c ", "/bin/sh -c ", "sh -c ", "/bin/zsh -lc ", "zsh -lc "} {
		rest, ok := strings.CutPrefix(cmd, prefix)
		if !ok {
			continue
		}
		if len(rest) >= 2 && rest[0] == '\'' && rest[len(rest)-1] == '\'' {
			// One single-quoted word; '\'' is an escaped quote inside it.
			return strings.ReplaceAll(rest[1:len(rest)-1], `'\''`, `'`)
		}
		if u, err := strconv.Unquote(rest); err == nil && rest[0] == '"' {
			return u
		}
		return rest
	}
	return cmd
}

// reply is this run's answer: its messages, actions (an item started and
// never completed, as when the step timed out, is a failed action), and
// the tokens it added to the thread.
func (t *transcript) reply() runner.Reply {
	for _, it := range t.open {
		n := len(t.actions)
		t.completed(it)
		if len(t.actions) > n {
			t.actions[n].Error = "no result: the run ended first"
		}
	}
	t.open = nil
	var u llm.Usage
	if t.total != (llm.Usage{}) {
		b := t.before
		u = llm.Usage{PromptTokens: t.total.PromptTokens - b.PromptTokens, CompletionTokens: t.total.CompletionTokens - b.CompletionTokens,
			TotalTokens: t.total.TotalTokens - b.TotalTokens, ReasoningTokens: t.total.ReasoningTokens - b.ReasoningTokens,
			CacheReadTokens: t.total.CacheReadTokens - b.CacheReadTokens, CacheWriteTokens: t.total.CacheWriteTokens - b.CacheWriteTokens}
		if u.PromptTokens < 0 || u.CompletionTokens < 0 {
			u = t.total // Codex counted this turn alone
		}
	}
	return runner.Reply{Text: strings.Join(t.texts, "\n\n"), Actions: t.actions, Usage: u,
		Thought: strings.Join(t.reasoning, "\n\n"), EndReason: t.reason}
}
