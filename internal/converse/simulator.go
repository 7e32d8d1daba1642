// Package converse holds what the runner's conversation loop asks besides
// the agent: the simulated user on a chat model (Simulator, from the
// scenario's user_simulator) and whether a termination condition holds
// (Terminated). conversation.ScriptedUser, the offline user, reads the
// "Objective: " line of the Simulator's system prompt.
package converse

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Simulator plays the user of a conversation on a chat model.
type Simulator struct {
	model  llm.Model
	cfg    scenario.UserSimulator
	seed   int64
	system string
}

// NewSimulator returns the user the scenario's user_simulator describes,
// played by m; seed makes its requests repeatable.
func NewSimulator(m llm.Model, cfg *scenario.UserSimulator, seed int64) *Simulator {
	s := &Simulator{model: m, seed: seed}
	if cfg != nil {
		s.cfg = *cfg
	}
	s.system = simulatorPrompt(s.cfg)
	return s
}

// simulatorPrompt states who the simulated user is and what they want.
func simulatorPrompt(u scenario.UserSimulator) string {
	var b strings.Builder
	b.WriteString("You are role-playing a user talking to an AI assistant. Stay in character and write only the user's next message.\n")
	fmt.Fprintf(&b, "Persona: %s\nObjective: %s\n", u.Persona, u.Objective)
	if u.Style != "" {
		fmt.Fprintf(&b, "Style: %s\n", u.Style)
	}
	if u.EmotionalState != "" {
		fmt.Fprintf(&b, "Emotional state: %s\n", u.EmotionalState)
	}
	if u.KnowledgeLevel != "" {
		fmt.Fprintf(&b, "Knowledge level: %s\n", u.KnowledgeLevel)
	}
	for _, c := range u.Constraints {
		fmt.Fprintf(&b, "Constraint: %s\n", c)
	}
	b.WriteString("When your objective is met, say thank you and that your problem is solved.")
	return b.String()
}

// Next asks the model for the user's next message. The model sees the
// conversation from the user's side: the agent's messages as "user" and its
// own earlier messages as "assistant".
func (s *Simulator) Next(ctx context.Context, turns []results.Turn, turn int) (string, llm.Usage, error) {
	msgs := make([]llm.Message, 0, len(turns)+1)
	msgs = append(msgs, llm.Message{Role: llm.RoleSystem, Content: s.system})
	for _, t := range turns {
		role := llm.RoleUser
		if t.Role == "user" {
			role = llm.RoleAssistant
		}
		msgs = append(msgs, llm.Message{Role: role, Content: t.Text})
	}
	seed := s.seed + int64(turn)
	req := llm.Request{Messages: msgs, Temperature: s.cfg.Temperature, MaxTokens: s.cfg.MaxTokens, Seed: &seed}
	// TEXT_SMALL, TEXT_LARGE and friends name model sizes in the agent
	// scenario format, not models: they keep the simulator's own model.
	if s.cfg.ModelType != "" && !strings.HasPrefix(s.cfg.ModelType, "TEXT_") {
		req.Model = s.cfg.ModelType
	}
	resp, err := s.model.Complete(ctx, req)
	if err != nil {
		return "", llm.Usage{}, err
	}
	text := strings.TrimSpace(resp.Content)
	if text == "" {
		return "", resp.Usage, fmt.Errorf("the simulator model returned an empty message")
	}
	return text, resp.Usage, nil
}
