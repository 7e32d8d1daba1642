package evaluate

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// conversationLengthKind returns the conversation_length evaluation type.
//
// The evaluation counts a conversation's turns, n, as the number of
// agent (assistant) turns, the unit of max_turns. For a turn evaluation it
// counts up to that turn.
//
// Pass: min_turns ≤ n ≤ max_turns and, when target_range [a, b] is given,
// a ≤ n ≤ b; all bounds inclusive, missing ones open.
//
// Score: 0 on a failure. Otherwise 1 without optimal_turns, and with
// optimal_turns O, 1 − |n − O| / O clamped to [0, 1]: 1 at the optimum,
// falling linearly to 0 at twice it (or at 0 turns).
//
// A step that is not a conversation fails with a message saying so.
func conversationLengthKind() *Kind {
	return conversational(NewKind("conversation_length", "A conversation's number of turns lies within bounds.", newConversationLength))
}

// conversationLength is the evaluator of conversationLengthKind; its semantics are documented there.
type conversationLength struct {
	min, max, optimal int
	rng               []int
}

func newConversationLength(p *evalparams.ConversationLength) (Evaluator, error) {
	for _, b := range []struct {
		name string
		v    int
	}{{"min_turns", p.MinTurns}, {"max_turns", p.MaxTurns}, {"optimal_turns", p.OptimalTurns}} {
		if b.v < 0 {
			return nil, fmt.Errorf("%s %d must be at least 1", b.name, b.v)
		}
	}
	if p.MinTurns > 0 && p.MaxTurns > 0 && p.MinTurns > p.MaxTurns {
		return nil, fmt.Errorf("min_turns %d is above max_turns %d", p.MinTurns, p.MaxTurns)
	}
	if p.TargetRange != nil {
		if len(p.TargetRange) != 2 {
			return nil, fmt.Errorf("target_range has %d numbers; give [low, high]", len(p.TargetRange))
		}
		if p.TargetRange[0] < 0 || p.TargetRange[0] >= p.TargetRange[1] {
			return nil, fmt.Errorf("target_range [%d, %d] must be [low, high] with 0 ≤ low < high", p.TargetRange[0], p.TargetRange[1])
		}
	}
	if p.MinTurns == 0 && p.MaxTurns == 0 && p.OptimalTurns == 0 && p.TargetRange == nil {
		// Nothing to check is allowed (the schema allows it) and passes;
		// it still reports the length, which is useful in reports.
		return &conversationLength{}, nil
	}
	return &conversationLength{min: p.MinTurns, max: p.MaxTurns, optimal: p.OptimalTurns, rng: p.TargetRange}, nil
}

// Evaluate judges in; see the type's documentation.
func (e *conversationLength) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	turns, ok := conversationTurns(in)
	if !ok {
		return results.Evaluation{Message: notConversation("conversation_length", in)}, nil
	}
	n := assistantTurns(turns)
	r := results.Evaluation{Details: map[string]any{"turns": n}}
	var why []string
	if e.min > 0 && n < e.min {
		why = append(why, fmt.Sprintf("below the minimum of %d", e.min))
	}
	if e.max > 0 && n > e.max {
		why = append(why, fmt.Sprintf("above the maximum of %d", e.max))
	}
	if e.rng != nil && (n < e.rng[0] || n > e.rng[1]) {
		why = append(why, fmt.Sprintf("outside the target range %d-%d", e.rng[0], e.rng[1]))
	}
	msg := fmt.Sprintf("conversation lasted %d turns", n)
	score := 1.0
	if e.optimal > 0 {
		d := n - e.optimal
		switch {
		case d == 0:
			msg += " (optimal)"
		default:
			msg += fmt.Sprintf(" (%d from the optimum of %d)", int(math.Abs(float64(d))), e.optimal)
		}
		score = max(0, 1-math.Abs(float64(d))/float64(e.optimal))
		r.Details["optimal_turns"] = e.optimal
	}
	if len(why) > 0 {
		r.Message = msg + ", " + strings.Join(why, " and ")
		return r, nil
	}
	r.Passed, r.Score, r.Message = true, score, msg
	return r, nil
}
