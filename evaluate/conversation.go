package evaluate

import (
	"strconv"

	"github.com/agenteval/agenteval/results"
)

// Helpers shared by the conversation evaluations.

// roleUser and roleAssistant are the roles of a conversation's turns.
const (
	roleUser      = "user"
	roleAssistant = "assistant"
)

// conversationTurns returns the turns a conversation evaluation reads: for
// results.ScopeTurn, the conversation up to and including the turn under
// evaluation; otherwise all of it. ok is false when the step is not a
// conversation.
func conversationTurns(in Input) (turns []results.Turn, ok bool) {
	st := in.StepTrace()
	if st.Kind != "conversation" && len(st.Turns) == 0 {
		return nil, false
	}
	if in.Scope == results.ScopeTurn {
		return st.Turns[:in.Turn+1], true
	}
	return st.Turns, true
}

// notConversation is the message of a conversation evaluation on a step
// that is not one.
func notConversation(typ string, in Input) string {
	return typ + " needs a conversation, but step " + strconv.Itoa(in.Step) + " is a " + kindOr(in.StepTrace().Kind) + " step without turns"
}

func kindOr(k string) string {
	if k == "" {
		return "plain"
	}
	return k
}

// assistantTurns counts the agent's turns.
func assistantTurns(turns []results.Turn) int {
	n := 0
	for _, t := range turns {
		if t.Role == roleAssistant {
			n++
		}
	}
	return n
}
