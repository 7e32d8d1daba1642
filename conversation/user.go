package conversation

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/llm"
)

// ScriptedUser is a deterministic offline user simulator: it asks follow-up
// questions about its objective and, after `patience` agent replies, thanks
// the agent. It lets conversation scenarios run without a model or network
// (the examples and CI use it); it is no substitute for a real simulator.
// It reads the objective from the runner's simulator prompt ("Objective: ").
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
