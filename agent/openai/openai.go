// Package openai is the agent that puts a chat model under test: the agent
// type openai:MODEL (Type) talks to an OpenAI-compatible endpoint, and New
// makes any llm.Model an agent. The scenario's mocks are offered to the
// model as tools; each tool call is answered by them and reported as an
// action of the reply, with the tokens the model spent.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/runner"
)

// modelAgent is an agent under test backed by a chat model (an
// OpenAI-compatible endpoint, or any llm.Model). The scenario's mocks are
// offered to the model as tools named service__method; each tool call is
// answered by the mocks and recorded as an action.
type modelAgent struct {
	model llm.Model
	// MaxToolRounds bounds tool-call rounds per message (default 8).
	MaxToolRounds int
	// Instructions, when set, are the first system message of every
	// session (a suite agent's instructions), before the character's.
	Instructions string
}

// newModelAgent returns an agent that talks to model.
func newModelAgent(model llm.Model) *modelAgent { return &modelAgent{model: model, MaxToolRounds: 8} }

// New returns an agent that talks to model, offering the scenario's mocks
// as tools; instructions, when set, are the first system message of every
// session.
func New(model llm.Model, instructions string) runner.Agent {
	a := newModelAgent(model)
	a.Instructions = instructions
	return a
}

// Type returns the agent type "openai" (openai:MODEL), for a registry of
// agent types such as agenteval.Kit's: the base URL comes from
// OPENAI_BASE_URL and the key from OPENAI_API_KEY, read through
// AgentOptions.Getenv.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "openai", Doc: "openai:MODEL talks to an OpenAI-compatible chat endpoint (OPENAI_BASE_URL, OPENAI_API_KEY); a scenario's character.llm.model, temperature and max_tokens override MODEL and the sampling",
		TakesInstructions: true, ModelArg: true, New: newOpenAIAgentFromSpec}
}

// newOpenAIAgentFromSpec builds the openai:MODEL agent. The base URL comes
// from OPENAI_BASE_URL and the key from OPENAI_API_KEY.
func newOpenAIAgentFromSpec(model string, opts runner.AgentOptions) (runner.Agent, error) {
	if model == "" {
		return nil, errors.New("openai agent: name a model, as in openai:gpt-4o-mini")
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	m, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: getenv("OPENAI_BASE_URL"), APIKey: getenv("OPENAI_API_KEY"), Model: model,
		Limits: opts.Limits, MaxRequests: opts.EndpointLimits.MaxRequests, TokensPerMinute: opts.EndpointLimits.TokensPerMinute})
	if err != nil {
		return nil, fmt.Errorf("openai agent: %w", err)
	}
	var chat llm.Model = m
	if opts.WrapModel != nil {
		chat = opts.WrapModel(m, "openai:"+model)
	}
	return New(chat, opts.Instructions), nil
}

// NewSession starts a conversation with the character as system prompt
// (system, system_prompt, name and bio) and the character's model and
// sampling (see scenario.Character.Sampling): a character that names
// llm.model is answered by that model, whatever model the agent was built
// with, so a matrix over character.llm.model compares models.
func (a *modelAgent) NewSession(_ context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	s := &modelSession{agent: a, cfg: cfg}
	if a.Instructions != "" {
		s.history = append(s.history, llm.Message{Role: llm.RoleSystem, Content: a.Instructions})
	}
	if c := cfg.Character; c != nil {
		var sys strings.Builder
		for _, p := range []string{c.System, c.SystemPrompt} {
			if p != "" {
				sys.WriteString("\n" + p)
			}
		}
		if c.Name != "" {
			fmt.Fprintf(&sys, "\nYou are %s.", c.Name)
		}
		for _, b := range c.Bio {
			sys.WriteString("\n" + b)
		}
		if t := strings.TrimSpace(sys.String()); t != "" {
			s.history = append(s.history, llm.Message{Role: llm.RoleSystem, Content: t})
		}
		s.model, s.temperature, s.maxTokens = c.Sampling()
	}
	if cfg.Scenario != nil && cfg.Scenario.Setup != nil {
		seen := map[string]bool{}
		for _, m := range cfg.Scenario.Setup.Mocks {
			name := toolName(m.Service, m.Method)
			if seen[name] {
				continue
			}
			seen[name] = true
			s.tools = append(s.tools, llm.Tool{Name: name, Description: fmt.Sprintf("Call %s.%s.", m.Service, m.Method),
				Parameters: json.RawMessage(`{"type":"object","additionalProperties":true}`)})
			s.toolTargets = append(s.toolTargets, [2]string{m.Service, m.Method})
		}
	}
	return s, nil
}

func toolName(service, method string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
				return r
			}
			return '_'
		}, s)
	}
	if service == "" {
		return clean(method)
	}
	return clean(service) + "__" + clean(method)
}

type modelSession struct {
	agent       *modelAgent
	cfg         runner.SessionConfig
	history     []llm.Message
	tools       []llm.Tool
	toolTargets [][2]string
	model       string // the character's model; "" keeps the agent's
	temperature *float64
	maxTokens   int
}

func (s *modelSession) Send(ctx context.Context, message string) (runner.Reply, error) {
	s.history = append(s.history, llm.Message{Role: llm.RoleUser, Content: message})
	var reply runner.Reply
	rounds := max(1, s.agent.MaxToolRounds)
	for range rounds + 1 {
		resp, err := s.agent.model.Complete(ctx, llm.Request{Messages: s.history, Tools: s.tools, Model: s.model, Temperature: s.temperature, MaxTokens: s.maxTokens})
		if err != nil {
			return reply, err
		}
		reply.Usage = reply.Usage.Add(resp.Usage)
		s.history = append(s.history, llm.Message{Role: llm.RoleAssistant, Content: resp.Content, ToolCalls: resp.ToolCalls})
		if len(resp.ToolCalls) == 0 {
			reply.Text = resp.Content
			return reply, nil
		}
		for _, tc := range resp.ToolCalls {
			act := evaluate.Action{Name: tc.Name, Start: time.Now()}
			var args map[string]any
			if len(tc.Arguments) > 0 {
				_ = json.Unmarshal(tc.Arguments, &args)
			}
			act.Args = args
			service, method := s.target(tc.Name)
			res, err := s.cfg.Mocks.Call(ctx, service, method, args)
			act.End = time.Now()
			var content string
			if err != nil {
				act.Error = err.Error()
				content = `{"error":` + strconvQuote(err.Error()) + `}`
			} else {
				act.Result = res
				b, _ := json.Marshal(res)
				content = string(b)
			}
			reply.Actions = append(reply.Actions, act)
			s.history = append(s.history, llm.Message{Role: llm.RoleTool, ToolCallID: tc.ID, Content: content})
		}
	}
	return reply, fmt.Errorf("openai agent: still calling tools after %d rounds", rounds)
}

func (s *modelSession) target(tool string) (string, string) {
	for i, t := range s.tools {
		if t.Name == tool {
			return s.toolTargets[i][0], s.toolTargets[i][1]
		}
	}
	service, method, ok := strings.Cut(tool, "__")
	if !ok {
		return "", tool
	}
	return service, method
}

func (s *modelSession) Close() error { return nil }

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
