package converse

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/registry"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// MaxTurnsReached is the termination reason of a conversation that ran to
// its max_turns: the name of the built-in termination type that says so.
const MaxTurnsReached = "max_turns_reached"

// defaultThreshold is the judge's score at which a condition decided by its
// llm_judge holds when the condition sets no threshold (the format's default).
const defaultThreshold = 0.8

// Terminated checks conds, the conditions of one conversation, after the
// last of turns, which speaker ("user" or "assistant") just said, and
// returns the type of the first that holds, or "". Each condition is
// decided by its type (types): the type's Holds, else on its Speaker's
// messages by the condition's keywords (the type's without any) and then
// by the condition's llm_judge, which j answers from transcript() (nil j:
// never). The usage is the judge's tokens. A condition whose type types
// does not hold never holds (the loader refuses it in files).
func Terminated(ctx context.Context, types *registry.Registry[*conversation.TerminationType], j *judge.Judge, conds []scenario.TerminationCondition,
	turns []results.Turn, speaker string, transcript func() string) (string, llm.Usage) {
	var usage llm.Usage
	last := turns[len(turns)-1].Text
	for _, c := range conds {
		t, ok := types.Lookup(c.Type)
		if !ok {
			continue
		}
		if t.Holds != nil {
			if t.Holds(turns) {
				return c.Type, usage
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
			return c.Type, usage
		}
		if c.LLMJudge != nil && j != nil {
			thr := defaultThreshold
			if c.LLMJudge.Threshold != nil {
				thr = *c.LLMJudge.Threshold
			}
			v, err := j.Evaluate(ctx, judge.Input{Prompt: c.LLMJudge.Prompt + "\n" + c.Description,
				Evidence: transcript(), Expected: fmt.Sprintf("%g+", thr)})
			usage = usage.Add(v.Usage)
			if err == nil && v.Pass {
				return c.Type, usage
			}
		}
	}
	return "", usage
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
