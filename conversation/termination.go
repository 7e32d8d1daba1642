// Package conversation holds what a conversation step needs besides the
// runner's loop that a host may name: the termination condition types
// (TerminationType, a registry of plugin values) and ScriptedUser, an
// offline simulated user (the runner plays the scenario's user_simulator
// on a chat model).
package conversation

import (
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
)

// TerminationType is a conversation termination condition type: a plugin
// value, registered in runner.Registries.Terminations under its Name (the value of
// termination_conditions[].type in files). A condition of the type holds
// when Holds says so; else, on Speaker's messages, when one contains a
// keyword (the condition's own, else the type's default Keywords) or when
// the condition's llm_judge says so.
type TerminationType struct {
	// Name is the type as written in files (user_expresses_satisfaction).
	Name string
	// Doc says how the condition is decided; `agenteval types` shows it.
	Doc string
	// Speaker is whose messages the condition is checked on: "user" (the
	// simulated user), "assistant" (the agent) or "" (either).
	Speaker string
	// Keywords end the conversation when Speaker says one, for a condition
	// that gives neither keywords nor llm_judge. A type without Keywords
	// or Holds needs one of those in every condition (the loader says so).
	Keywords []string
	// Holds, when set, decides the condition from the conversation so far
	// on its own, without keywords or a judge (conversation_stuck).
	Holds func(turns []results.Turn) bool
}

// NewRegistry returns a registry holding the seven termination types of
// the agent scenario format, registered exactly as a host registers its
// own.
func NewRegistry() *registry.Registry[*TerminationType] {
	r := registry.New("termination type", func(t *TerminationType) string { return t.Name }, func(t *TerminationType) error {
		switch t.Speaker {
		case "", speakerUser, speakerAssistant:
			return nil
		}
		return fmt.Errorf("speaker %q: want user, assistant or empty for either", t.Speaker)
	})
	if err := r.Register(builtinTerminations()...); err != nil {
		panic(err) // the built-in names are distinct; a clash is a bug in this package
	}
	return r
}

const (
	speakerUser      = "user"
	speakerAssistant = "assistant"
)

func builtinTerminations() []*TerminationType {
	ts := []*TerminationType{
		// The conversation loop ends every conversation at max_turns; the
		// condition only says so.
		{Name: "max_turns_reached", Doc: "ends the conversation after max_turns agent turns (always in force)", Holds: func([]results.Turn) bool { return false }},
		{Name: "user_expresses_satisfaction", Speaker: speakerUser, Keywords: []string{"thank you", "thanks", "that helps", "that solves", "perfect", "great, that", "problem solved", "that works"}},
		{Name: "agent_provides_solution", Speaker: speakerAssistant, Keywords: []string{"here's how", "here is how", "the solution", "to fix this", "you can fix", "steps:", "try this"}},
		{Name: "conversation_stuck", Doc: "holds when a speaker repeats their previous message", Holds: stuck},
		{Name: "escalation_needed", Speaker: speakerAssistant, Keywords: []string{"escalate", "human agent", "support team", "transfer you", "specialist"}},
		{Name: "goal_achieved", Keywords: []string{"goal achieved", "all set", "done!", "that solves", "resolved"}},
		{Name: "custom_condition"},
	}
	for _, t := range ts {
		if t.Doc == "" {
			t.Doc = keywordDoc(t)
		}
	}
	return ts
}

// keywordDoc says how a keyword-decided type is checked.
func keywordDoc(t *TerminationType) string {
	who := map[string]string{speakerUser: "the simulated user's messages", speakerAssistant: "the agent's messages", "": "either speaker's messages"}[t.Speaker]
	if len(t.Keywords) == 0 {
		return "checked on " + who + " by its keywords or llm_judge (one of them is required)"
	}
	return fmt.Sprintf("checked on %s by its keywords or llm_judge; by default the keywords %q", who, t.Keywords)
}

// stuck reports whether the last two messages of either speaker repeat.
func stuck(turns []results.Turn) bool {
	n := len(turns)
	if n < 3 {
		return false
	}
	a, b := turns[n-1], turns[n-3]
	return strings.EqualFold(strings.TrimSpace(a.Text), strings.TrimSpace(b.Text))
}
