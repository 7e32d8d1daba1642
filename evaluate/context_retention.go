package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// contextRetentionKind returns the context_retention evaluation type.
//
// The evaluation checks that the agent still uses what the user told it
// several turns later. For each fact of test_memory_of:
//
//  1. the fact is given in the first user turn that contains it
//     (case-insensitive, runs of white space compared as one space);
//  2. it is retained when an assistant turn at least retention_turns agent
//     turns after that one (default 3) contains it too. When the
//     conversation ends sooner, its last assistant turn after the fact
//     stands in, so a short conversation is judged on its final answer
//     rather than failed for its length;
//  3. a fact the user never gave, or gave in the last turn with no agent
//     turn after it, is not retained, and the message says which.
//
// Score = facts retained / facts. Pass: score ≥ memory_accuracy_threshold
// (default 0.8). Matching is literal, so list facts as the words the user
// says ("Berlin", "order 1234"), not as descriptions ("the user's city").
func contextRetentionKind() *Kind {
	return conversational(NewKind("context_retention", "The agent remembers facts given earlier in a conversation.", newContextRetention))
}

// contextRetention is the evaluator of contextRetentionKind; its semantics are documented there.
type contextRetention struct {
	facts     []string
	norm      []string
	after     int
	threshold float64
}

func newContextRetention(p *evalparams.ContextRetention) (Evaluator, error) {
	if len(p.TestMemoryOf) == 0 {
		return nil, errors.New("test_memory_of is empty; list the facts the agent must remember")
	}
	e := &contextRetention{after: 3, threshold: 0.8}
	if p.RetentionTurns != 0 {
		e.after = p.RetentionTurns
	}
	if e.after < 1 {
		return nil, fmt.Errorf("retention_turns %d must be at least 1", p.RetentionTurns)
	}
	if p.MemoryAccuracyThreshold != nil {
		e.threshold = *p.MemoryAccuracyThreshold
	}
	if e.threshold < 0 || e.threshold > 1 {
		return nil, fmt.Errorf("memory_accuracy_threshold %v is outside 0..1", e.threshold)
	}
	for i, f := range p.TestMemoryOf {
		n := collapseSpace(f)
		if n == "" {
			return nil, fmt.Errorf("test_memory_of[%d] is empty", i)
		}
		e.facts = append(e.facts, f)
		e.norm = append(e.norm, n)
	}
	return e, nil
}

// collapseSpace trims s and turns each run of white space into one space.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// Evaluate judges in; see the type's documentation.
func (e *contextRetention) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	turns, ok := conversationTurns(in)
	if !ok {
		return results.Evaluation{Message: notConversation("context_retention", in)}, nil
	}
	texts := make([]string, len(turns))
	ordinal := make([]int, len(turns)) // assistant turns up to and including i
	n := 0
	for i, t := range turns {
		texts[i] = collapseSpace(t.Text)
		if t.Role == roleAssistant {
			n++
		}
		ordinal[i] = n
	}
	kept := 0
	facts := make([]map[string]any, len(e.facts))
	var lost []string
	for k, f := range e.norm {
		d := map[string]any{"fact": e.facts[k]}
		facts[k] = d
		given := -1
		for i, t := range turns {
			if t.Role == roleUser && containsFold(texts[i], f) {
				given = i
				break
			}
		}
		if given < 0 {
			lost = append(lost, fmt.Sprintf("%s (the user never said it)", quote(e.facts[k])))
			continue
		}
		d["given_turn"] = given + 1
		if ordinal[given] == n {
			lost = append(lost, fmt.Sprintf("%s (given in turn %d, no agent turn after it)", quote(e.facts[k]), given+1))
			continue
		}
		// The first agent turn that counts: retention_turns agent turns
		// after the fact, or the last one when the conversation is shorter.
		need := min(ordinal[given]+e.after, n)
		recalled := -1
		for i := given + 1; i < len(turns); i++ {
			if turns[i].Role == roleAssistant && ordinal[i] >= need && containsFold(texts[i], f) {
				recalled = i
				break
			}
		}
		if recalled < 0 {
			if need < ordinal[given]+e.after {
				lost = append(lost, fmt.Sprintf("%s (given in turn %d, not used in the agent's last turn; the conversation ended %d agent turns later)", quote(e.facts[k]), given+1, need-ordinal[given]))
			} else {
				lost = append(lost, fmt.Sprintf("%s (given in turn %d, not used by the agent %d or more agent turns later)", quote(e.facts[k]), given+1, e.after))
			}
			continue
		}
		d["recalled_turn"] = recalled + 1
		kept++
	}
	score := ratio(kept, len(e.facts))
	r := results.Evaluation{Score: score, Passed: score >= e.threshold, Details: map[string]any{"facts": facts, "retention_turns": e.after, "threshold": e.threshold}}
	r.Message = fmt.Sprintf("%d of %d facts retained (%.0f%%, threshold %.0f%%)", kept, len(e.facts), score*100, e.threshold*100)
	if len(lost) > 0 {
		r.Message += "; not retained: " + strings.Join(lost, ", ")
	}
	return r, nil
}
