package evaluate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// conversationFlowKind returns the conversation_flow evaluation type.
//
// The evaluation looks for each required pattern in the conversation
// (up to the turn under evaluation, for a turn evaluation) with keyword
// heuristics, not a model, so that it is fast, free and repeatable.
// Keywords match whole words, case-insensitively.
//
//   - question_then_answer: a user turn containing "?" directly followed by
//     an assistant turn that is not itself only questions (some sentence
//     of it does not end with "?").
//   - problem_then_solution: a user turn with a problem word (problem,
//     issue, error, bug, broken, crash, fails, not working, can't, unable,
//     stuck, wrong, help, ...) followed later by an assistant turn with a
//     solution word (try, you can, here's how, steps, to fix, solution,
//     run, install, update, restart, should, ...).
//   - clarification_cycle: an assistant turn containing "?", the user's
//     next turn answering it (not empty and not only questions), then a
//     further assistant turn: the agent asked, learned and went on.
//   - empathy_then_solution: an assistant turn with an empathy phrase
//     (sorry, I understand, that sounds, frustrating, unfortunately,
//     apologize, ...) followed by a solution word later in the same turn
//     or in a later assistant turn.
//   - escalation_pattern: an assistant turn that escalates (escalate,
//     supervisor, manager, specialist, human agent, support team,
//     transfer, open a ticket, ...).
//
// Score = patterns found / patterns required (1 when none are required).
// Pass: score ≥ flow_quality_threshold (default 0.7). Details say where
// each pattern was found.
func conversationFlowKind() *Kind {
	return conversational(NewKind("conversation_flow", "Required dialogue patterns occur in a conversation.", newConversationFlow))
}

// conversationFlow is the evaluator of conversationFlowKind; its semantics are documented there.
type conversationFlow struct {
	patterns  []string
	threshold float64
}

// flowDetector returns the detector of a pattern, which returns the index
// of the turn where the pattern completes, or -1; nil for an unknown name.
func flowDetector(name string) func(turns []results.Turn, lower []string) int {
	switch name {
	case "question_then_answer":
		return questionThenAnswer
	case "problem_then_solution":
		return problemThenSolution
	case "clarification_cycle":
		return clarificationCycle
	case "empathy_then_solution":
		return empathyThenSolution
	case "escalation_pattern":
		return escalation
	}
	return nil
}

var (
	problemWords = []string{"problem", "problems", "issue", "issues", "error", "errors", "bug", "bugs", "broken", "crash", "crashes", "crashed",
		"fail", "fails", "failing", "failed", "failure", "doesn't work", "does not work", "not working", "won't", "can't", "cannot", "unable",
		"stuck", "wrong", "help", "trouble"}
	solutionWords = []string{"try", "you can", "you could", "here's how", "here is how", "steps", "step", "to fix", "fix", "fixed", "solution",
		"solve", "resolve", "resolved", "should", "run", "install", "update", "upgrade", "restart", "reset", "change", "set", "use", "click", "go to"}
	empathyWords = []string{"sorry", "apologize", "apologise", "apologies", "i understand", "understandable", "that sounds", "frustrating",
		"i hear you", "i can see", "unfortunately", "i know how", "that must be", "thank you for your patience", "i get it"}
	escalationWords = []string{"escalate", "escalating", "escalated", "escalation", "supervisor", "manager", "specialist", "human agent",
		"a human", "support team", "transfer", "transferring", "open a ticket", "support ticket", "senior engineer", "on-call"}
)

func newConversationFlow(p *evalparams.ConversationFlow) (Evaluator, error) {
	e := &conversationFlow{threshold: 0.7}
	if p.FlowQualityThreshold != nil {
		e.threshold = *p.FlowQualityThreshold
	}
	if e.threshold < 0 || e.threshold > 1 {
		return nil, fmt.Errorf("flow_quality_threshold %v is outside 0..1", e.threshold)
	}
	for _, name := range p.RequiredPatterns {
		if flowDetector(name) == nil {
			return nil, fmt.Errorf("unknown pattern %q (known: clarification_cycle, empathy_then_solution, escalation_pattern, problem_then_solution, question_then_answer)", name)
		}
		if !slices.Contains(e.patterns, name) {
			e.patterns = append(e.patterns, name)
		}
	}
	return e, nil
}

// Evaluate judges in; see the type's documentation.
func (e *conversationFlow) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	turns, ok := conversationTurns(in)
	if !ok {
		return results.Evaluation{Message: notConversation("conversation_flow", in)}, nil
	}
	lower := make([]string, len(turns))
	for i, t := range turns {
		lower[i] = strings.ToLower(t.Text)
	}
	found := map[string]any{}
	var yes, no []string
	for _, name := range e.patterns {
		if at := flowDetector(name)(turns, lower); at >= 0 {
			found[name] = at
			yes = append(yes, fmt.Sprintf("%s (turn %d)", name, at+1))
		} else {
			found[name] = nil
			no = append(no, name)
		}
	}
	score := ratio(len(yes), len(e.patterns))
	r := results.Evaluation{Score: score, Details: map[string]any{"patterns": found, "threshold": e.threshold}}
	r.Passed = score >= e.threshold
	r.Message = fmt.Sprintf("%d of %d patterns found (%.0f%%, threshold %.0f%%)", len(yes), len(e.patterns), score*100, e.threshold*100)
	if len(yes) > 0 {
		r.Message += "; found: " + strings.Join(yes, ", ")
	}
	if len(no) > 0 {
		r.Message += "; missing: " + strings.Join(no, ", ")
	}
	return r, nil
}

func anyWord(lower string, words []string) bool {
	for _, w := range words {
		if containsWord(lower, w) {
			return true
		}
	}
	return false
}

// firstWord returns the offset of the earliest whole-word match of any of
// words, or -1.
func firstWord(lower string, words []string) int {
	best := -1
	for _, w := range words {
		if i := indexWord(lower, w, 0); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

// onlyQuestions reports whether every sentence of s ends with "?".
func onlyQuestions(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for sentence := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '.' || r == '!' || r == '\n' }) {
		if strings.TrimSpace(sentence) == "" {
			continue
		}
		// Within a piece, text after the last "?" is a statement.
		last := strings.LastIndexByte(sentence, '?')
		if last < 0 || strings.TrimSpace(sentence[last+1:]) != "" {
			return false
		}
	}
	return true
}

// answers reports whether t answers something: it has text and is not
// only questions.
func answers(t results.Turn) bool { return strings.TrimSpace(t.Text) != "" && !onlyQuestions(t.Text) }

func questionThenAnswer(turns []results.Turn, _ []string) int {
	for i := 0; i+1 < len(turns); i++ {
		if turns[i].Role == roleUser && strings.Contains(turns[i].Text, "?") && turns[i+1].Role == roleAssistant && answers(turns[i+1]) {
			return i + 1
		}
	}
	return -1
}

func problemThenSolution(turns []results.Turn, lower []string) int {
	for i := range turns {
		if turns[i].Role != roleUser || !anyWord(lower[i], problemWords) {
			continue
		}
		for j := i + 1; j < len(turns); j++ {
			if turns[j].Role == roleAssistant && anyWord(lower[j], solutionWords) {
				return j
			}
		}
		return -1 // a later problem turn has fewer turns after it
	}
	return -1
}

func clarificationCycle(turns []results.Turn, _ []string) int {
	for i := 0; i+2 < len(turns); i++ {
		if turns[i].Role != roleAssistant || !strings.Contains(turns[i].Text, "?") {
			continue
		}
		if turns[i+1].Role != roleUser || !answers(turns[i+1]) {
			continue
		}
		for j := i + 2; j < len(turns); j++ {
			if turns[j].Role == roleAssistant && strings.TrimSpace(turns[j].Text) != "" {
				return j
			}
		}
	}
	return -1
}

func empathyThenSolution(turns []results.Turn, lower []string) int {
	for i := range turns {
		if turns[i].Role != roleAssistant {
			continue
		}
		at := firstWord(lower[i], empathyWords)
		if at < 0 {
			continue
		}
		if anyWord(lower[i][at:], solutionWords) {
			return i
		}
		for j := i + 1; j < len(turns); j++ {
			if turns[j].Role == roleAssistant && anyWord(lower[j], solutionWords) {
				return j
			}
		}
	}
	return -1
}

func escalation(turns []results.Turn, lower []string) int {
	for i := range turns {
		if turns[i].Role == roleAssistant && anyWord(lower[i], escalationWords) {
			return i
		}
	}
	return -1
}
