package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// Termination reasons recorded in results.
const (
	reasonMaxTurns     = "max_turns_reached"
	reasonTotalTimeout = "total_timeout"
)

// defaultFirstMessage opens a conversation whose step has no input.
const defaultFirstMessage = "Hello, I need help."

// Bounds for a conversation given to the runner without the loader's
// defaults (the loader fills the format's: the same values).
const (
	defaultTotalTimeout         = 300 * time.Second
	defaultTurnTimeout          = 30 * time.Second
	defaultTerminationThreshold = 0.8
)

// converse runs a conversation step: the agent answers, turn evaluations run,
// termination conditions are checked on the right speaker, the simulated user
// answers, until a condition holds, max_turns is reached or time runs out.
func (r *run) converse(ctx context.Context, s *scenario.Scenario, step *scenario.RunStep, st *evaluate.StepTrace,
	sess Session, trace *evaluate.Trace, compiled *evaluate.Compiled, evalEnv *evaluate.Env, res *results.Job, seed int64, w *worker) error {
	conv := step.Conversation
	if r.cfg.UserModel == nil && conv.MaxTurns > 1 {
		return fmt.Errorf("a conversation needs a user simulator model (runner.Config.UserModel; --user-model on the CLI)")
	}
	if r.cfg.Judge == nil {
		for i, c := range conv.TerminationConditions {
			if c.LLMJudge != nil && len(c.Keywords) == 0 {
				// Without a judge this condition could never hold: say so
				// rather than run to max_turns as if it had been checked.
				return fmt.Errorf("termination_conditions[%d] (%s) is decided by llm_judge, but no judge model is configured (--judge-model)", i, c.Type)
			}
		}
	}
	total := time.Duration(conv.TotalTimeoutMS) * time.Millisecond
	if total <= 0 {
		total = defaultTotalTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, total, fmt.Errorf("conversation total_timeout_ms %d: %w", conv.TotalTimeoutMS, errTimeout))
	defer cancel()
	perTurn := time.Duration(conv.TimeoutPerTurnMS) * time.Millisecond
	if perTurn <= 0 {
		perTurn = defaultTurnTimeout
	}
	msg := step.Input
	if msg == "" {
		msg = defaultFirstMessage
	}
	stepIdx := len(trace.Steps) - 1
	sim := newSimulator(r.cfg.UserModel, conv.UserSimulator, seed)
	st.Turns = append(st.Turns, results.Turn{Role: "user", Text: msg, At: time.Now()})
	var convErr error
	for turn := 1; ; turn++ {
		t0 := time.Now()
		reply, startup, err := send(ctx, w, perTurn, sess, msg)
		d := time.Since(t0) - startup
		st.Duration += d
		if err != nil {
			if ctx.Err() != nil {
				st.TerminationReason = reasonTotalTimeout
			}
			convErr = fmt.Errorf("turn %d: %w", turn, err)
			break
		}
		st.Reply = reply.Text
		st.Actions = append(st.Actions, reply.Actions...)
		st.Usage = st.Usage.Add(reply.Usage)
		st.Turns = append(st.Turns, results.Turn{Role: "assistant", Text: reply.Text, At: time.Now(), Duration: d, Actions: reply.Actions})
		res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: len(st.Turns) - 1, Scope: results.ScopeTurn, Env: evalEnv})...)
		if reason := r.terminated(ctx, conv, st, "assistant", res); reason != "" {
			st.TerminationReason = reason
			break
		}
		if turn >= conv.MaxTurns {
			st.TerminationReason = reasonMaxTurns
			break
		}
		t1 := time.Now()
		next, usage, err := sim.next(ctx, st.Turns, turn)
		res.UserUsage = res.UserUsage.Add(usage)
		if err != nil {
			if ctx.Err() != nil {
				st.TerminationReason = reasonTotalTimeout
			}
			convErr = fmt.Errorf("user simulator at turn %d: %w", turn, err)
			break
		}
		st.Turns = append(st.Turns, results.Turn{Role: "user", Text: next, At: time.Now(), Duration: time.Since(t1)})
		if reason := r.terminated(ctx, conv, st, "user", res); reason != "" {
			st.TerminationReason = reason
			break
		}
		msg = next
	}
	// Final and step evaluations judge what happened even when it ended early.
	res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: -1, Scope: results.ScopeFinal, Env: evalEnv})...)
	res.Evaluations = append(res.Evaluations, compiled.Evaluate(ctx, evaluate.Input{Trace: trace, Step: stepIdx, Turn: -1, Scope: results.ScopeStep, Env: evalEnv})...)
	return convErr
}

// terminated checks the conditions that concern the speaker who just spoke
// and returns the type of the first that holds. A judge's tokens go to
// res's judge usage.
func (r *run) terminated(ctx context.Context, conv *scenario.Conversation, st *evaluate.StepTrace, speaker string, res *results.Job) string {
	last := st.Turns[len(st.Turns)-1].Text
	for _, c := range conv.TerminationConditions {
		t, ok := r.cfg.Registries.Terminations.Lookup(c.Type)
		if !ok {
			continue // the loader refused it; a hand-made scenario's unknown type never holds
		}
		if t.Holds != nil {
			if t.Holds(st.Turns) {
				return c.Type
			}
			continue
		}
		if t.Speaker != "" && t.Speaker != speaker {
			continue
		}
		keywords := c.Keywords
		if len(keywords) == 0 && c.LLMJudge == nil {
			keywords = t.Keywords
		}
		if containsAny(last, keywords) {
			return c.Type
		}
		if c.LLMJudge != nil && r.cfg.Judge != nil {
			thr := defaultTerminationThreshold
			if c.LLMJudge.Threshold != nil {
				thr = *c.LLMJudge.Threshold
			}
			v, err := r.cfg.Judge.Evaluate(ctx, judge.Input{Prompt: c.LLMJudge.Prompt + "\n" + c.Description,
				Evidence: st.Transcript(), Expected: fmt.Sprintf("%g+", thr)})
			res.JudgeUsage = res.JudgeUsage.Add(v.Usage)
			if err == nil && v.Pass {
				return c.Type
			}
		}
	}
	return ""
}

func containsAny(text string, keywords []string) bool {
	lower := strings.ToLower(text)
	for _, k := range keywords {
		if k != "" && strings.Contains(lower, strings.ToLower(k)) {
			return true
		}
	}
	return false
}

// simulator plays the user of a conversation on a chat model.
type simulator struct {
	model  llm.Model
	cfg    scenario.UserSimulator
	seed   int64
	system string
}

func newSimulator(m llm.Model, cfg *scenario.UserSimulator, seed int64) *simulator {
	s := &simulator{model: m, seed: seed}
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

// next asks the model for the user's next message. The model sees the
// conversation from the user's side: the agent's messages as "user" and its
// own earlier messages as "assistant".
func (s *simulator) next(ctx context.Context, turns []results.Turn, turn int) (string, llm.Usage, error) {
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

// ScriptedUser is a deterministic offline user simulator: it asks follow-up
// questions about its objective and, after `patience` agent replies, thanks
// the agent. It lets conversation scenarios run without a model or network
// (the examples and CI use it); it is no substitute for a real simulator.
func ScriptedUser(patience int) llm.Model {
	if patience < 1 {
		patience = 2
	}
	return llm.ModelFunc(func(_ context.Context, req llm.Request) (llm.Response, error) {
		replies := 0
		objective := ""
		for _, m := range req.Messages {
			switch m.Role {
			case llm.RoleUser:
				replies++ // the agent's messages, seen from the user's side
			case llm.RoleSystem:
				for _, line := range strings.Split(m.Content, "\n") {
					if o, ok := strings.CutPrefix(line, "Objective: "); ok {
						objective = o
					}
				}
			}
		}
		if replies >= patience {
			return llm.Response{Content: "Thank you, that solves my problem."}, nil
		}
		if objective == "" {
			objective = "this"
		}
		return llm.Response{Content: fmt.Sprintf("Could you explain a bit more? I want to %s.", strings.TrimSuffix(lowerFirst(objective), "."))}, nil
	})
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
