package evaluate_test

import (
	"testing"

	"github.com/agenteval/agenteval/internal/evalparams"
)

func TestConversationLength(t *testing.T) {
	t.Parallel()
	three := final("a", "b", "c", "d", "e", "f")
	runCases(t, "conversation_length", []evalCase{
		{name: "within bounds", params: &evalparams.ConversationLength{MinTurns: 2, MaxTurns: 4}, in: three, pass: true, score: 1, msg: "conversation lasted 3 turns"},
		{name: "optimal", params: &evalparams.ConversationLength{MaxTurns: 5, OptimalTurns: 3}, in: three, pass: true, score: 1, msg: "3 turns (optimal)"},
		{name: "off optimal", params: &evalparams.ConversationLength{OptimalTurns: 2}, in: three, pass: true, score: 0.5, msg: "(1 from the optimum of 2)"},
		{name: "above max", params: &evalparams.ConversationLength{MaxTurns: 2}, in: three, score: 0, msg: "conversation lasted 3 turns, above the maximum of 2"},
		{name: "below min", params: &evalparams.ConversationLength{MinTurns: 4}, in: three, score: 0, msg: "below the minimum of 4"},
		{name: "outside target range", params: &evalparams.ConversationLength{TargetRange: []int{4, 6}}, in: three, score: 0, msg: "outside the target range 4-6"},
		{name: "target range inclusive", params: &evalparams.ConversationLength{TargetRange: []int{1, 3}}, in: three, pass: true, score: 1},
		{name: "turn counts so far", params: &evalparams.ConversationLength{MaxTurns: 1}, in: turn(1, "a", "b", "c", "d"), pass: true, score: 1, msg: "lasted 1 turns"},
		{name: "not a conversation", params: &evalparams.ConversationLength{MaxTurns: 1}, in: reply("x"), score: 0, msg: "conversation_length needs a conversation, but step 0 is a input step"},
		{name: "malformed: range order", params: &evalparams.ConversationLength{TargetRange: []int{5, 2}}, buildErr: "target_range [5, 2] must be [low, high]"},
		{name: "malformed: range size", params: &evalparams.ConversationLength{TargetRange: []int{5}}, buildErr: "target_range has 1 numbers"},
		{name: "malformed: min above max", params: &evalparams.ConversationLength{MinTurns: 5, MaxTurns: 2}, buildErr: "min_turns 5 is above max_turns 2"},
		{name: "malformed: negative", params: &evalparams.ConversationLength{MaxTurns: -1}, buildErr: "max_turns -1 must be at least 1"},
	})
}

func flow(th float64, patterns ...string) *evalparams.ConversationFlow {
	return &evalparams.ConversationFlow{RequiredPatterns: patterns, FlowQualityThreshold: &th}
}

func TestConversationFlow(t *testing.T) {
	t.Parallel()
	support := final(
		"My build is broken. Why does it fail?",
		"I'm sorry, that sounds frustrating. Which Go version are you using?",
		"Go 1.26.",
		"Thanks. Try running go clean -cache and build again.",
		"Still failing. Can a human look at it?",
		"I'll escalate this to our support team.",
	)
	onlyAsks := final("How do I reset it?", "Do you mean the password? Or the device?")
	runCases(t, "conversation_flow", []evalCase{
		{name: "all five", params: flow(1, "question_then_answer", "problem_then_solution", "clarification_cycle", "empathy_then_solution", "escalation_pattern"), in: support,
			pass: true, score: 1, msg: "5 of 5 patterns found"},
		{name: "question answered only by questions", params: flow(0.7, "question_then_answer"), in: onlyAsks, score: 0, msg: "missing: question_then_answer"},
		{name: "question answered", params: flow(0.7, "question_then_answer"), in: final("How do I reset it?", "Hold the button for 5 seconds. Did that work?"), pass: true, score: 1, msg: "found: question_then_answer (turn 2)"},
		{name: "problem without solution", params: flow(0.7, "problem_then_solution"), in: final("I get an error on login", "I see."), score: 0},
		{name: "solution word before problem does not count", params: flow(0.7, "problem_then_solution"), in: final("try it", "You can use it", "now there is an error", "ok"), score: 0},
		{name: "clarification needs the agent to continue", params: flow(0.7, "clarification_cycle"), in: final("help", "Which file?", "main.go"), score: 0},
		{name: "clarification cycle", params: flow(0.7, "clarification_cycle"), in: final("help", "Which file?", "main.go", "Line 3 has a typo."), pass: true, score: 1},
		{name: "empathy without solution", params: flow(0.7, "empathy_then_solution"), in: final("it broke", "I'm so sorry to hear that."), score: 0},
		{name: "solution before empathy does not count", params: flow(0.7, "empathy_then_solution"), in: final("it broke", "Run the installer. Sorry about that."), score: 0},
		{name: "escalation is the agent's", params: flow(0.7, "escalation_pattern"), in: final("get me a supervisor", "Here is how to reset it."), score: 0},
		{name: "partial below threshold", params: flow(0.7, "question_then_answer", "escalation_pattern"), in: onlyAsks, score: 0, msg: "0 of 2 patterns"},
		{name: "partial at threshold", params: flow(0.5, "escalation_pattern", "problem_then_solution"), in: final("it is broken", "Please restart it."), pass: true, score: 0.5,
			msg: "1 of 2 patterns found (50%, threshold 50%); found: problem_then_solution (turn 2); missing: escalation_pattern"},
		{name: "none required", params: flow(0.7), in: support, pass: true, score: 1},
		{name: "words are whole words", params: flow(0.7, "escalation_pattern"), in: final("hi", "The transferable skill is managerial."), score: 0},
		{name: "not a conversation", params: flow(0.7, "escalation_pattern"), in: reply("x"), score: 0, msg: "needs a conversation"},
		{name: "malformed: pattern", params: flow(0.7, "greeting"), buildErr: `unknown pattern "greeting"`},
		{name: "malformed: threshold", params: flow(1.5, "escalation_pattern"), buildErr: "flow_quality_threshold 1.5 is outside 0..1"},
	})
}

func sat(method string, th float64, ind *evalparams.SatisfactionIndicators) *evalparams.UserSatisfaction {
	return &evalparams.UserSatisfaction{MeasurementMethod: method, SatisfactionThreshold: &th, Indicators: ind}
}

func TestUserSatisfaction(t *testing.T) {
	t.Parallel()
	happy := final("This is frustrating, nothing works.", "Try restarting.", "That works, thanks! Perfect.", "Glad to help!")
	unhappy := final("Thanks for looking.", "Try restarting.", "Still broken, this is useless.", "Sorry.")
	agentOnly := final("ok", "Great! Perfect! Thanks!")
	negated := final("hmm", "Try this.", "That was not helpful at all.", "Sorry.")
	runCases(t, "user_satisfaction", []evalCase{
		// frustrated(neg, w1) vs "that works"+"thanks"+"perfect" (pos, w2 each): 6/(6+1).
		{name: "keywords: ends happy", params: sat("keyword_analysis", 0.7, nil), in: happy, pass: true, score: 6.0 / 7, msg: "user satisfaction 86% (threshold 70%, keyword_analysis)"},
		// thanks (pos, w1) vs still broken + useless (neg, w2 each): 1/5.
		{name: "keywords: ends unhappy", params: sat("keyword_analysis", 0.7, nil), in: unhappy, score: 0.2},
		{name: "keywords: the agent's words do not count", params: sat("keyword_analysis", 0.7, nil), in: agentOnly, score: 0.5},
		{name: "keywords: negation", params: sat("keyword_analysis", 0.5, nil), in: negated, score: 0},
		{name: "keywords: custom indicators add to defaults", params: sat("keyword_analysis", 0.7, &evalparams.SatisfactionIndicators{Positive: []string{"LGTM"}}), in: final("lgtm, thanks", "ok"), pass: true, score: 1},
		{name: "keywords: custom negative", params: sat("keyword_analysis", 0.7, &evalparams.SatisfactionIndicators{Negative: []string{"meh"}}), in: final("meh", "ok"), score: 0},
		{name: "keywords: explicit zero threshold passes anything", params: sat("keyword_analysis", 0, nil), in: unhappy, pass: true, score: 0.2},
		{name: "sentiment: ends happy", params: sat("sentiment_analysis", 0.7, nil), in: happy, pass: true, score: -1},
		{name: "sentiment: ends unhappy", params: sat("sentiment_analysis", 0.7, nil), in: unhappy, score: -1, msg: "sentiment_analysis"},
		{name: "sentiment: negation flips", params: sat("sentiment_analysis", 0.5, nil), in: negated, score: 0},
		{name: "sentiment: nothing to go on", params: sat("sentiment_analysis", 0.7, nil), in: final("the sky", "is blue"), score: 0.5},
		{name: "llm_judge without a judge", params: sat("llm_judge", 0.7, nil), in: happy, evalErr: "no judge model is configured"},
		{name: "not a conversation", params: sat("keyword_analysis", 0.7, nil), in: reply("x"), score: 0, msg: "needs a conversation"},
		{name: "malformed: method", params: sat("vibes", 0.7, nil), buildErr: `measurement_method "vibes"`},
		{name: "malformed: threshold", params: sat("keyword_analysis", -0.1, nil), buildErr: "satisfaction_threshold -0.1 is outside 0..1"},
		{name: "malformed: empty indicator", params: sat("keyword_analysis", 0.7, &evalparams.SatisfactionIndicators{Positive: []string{" "}}), buildErr: "indicators.positive has an empty word"},
	})
}

func retention(after int, th float64, facts ...string) *evalparams.ContextRetention {
	return &evalparams.ContextRetention{TestMemoryOf: facts, RetentionTurns: after, MemoryAccuracyThreshold: &th}
}

func TestContextRetention(t *testing.T) {
	t.Parallel()
	// The facts are given in turn 1; with retention_turns 3 they must be
	// used in the third agent turn after it (turn 6) or later.
	c := final(
		"Hi, I'm Ada and I live in   Berlin.",
		"Hello Ada!",
		"What's the weather like?",
		"Sunny.",
		"And tomorrow?",
		"Rain in berlin, Ada.",
		"Thanks.",
		"You're welcome.",
	)
	runCases(t, "context_retention", []evalCase{
		{name: "both retained 3 turns later", params: retention(3, 0.8, "Ada", "Berlin"), in: c, pass: true, score: 1, msg: "2 of 2 facts retained"},
		{name: "not used late enough", params: retention(4, 0.8, "Ada"), in: final("I'm Ada", "Hi Ada", "x", "y", "z", "w", "q", "ok"), pass: false, score: 0,
			msg: `"Ada" (given in turn 1, not used by the agent 4 or more agent turns later)`},
		{name: "short conversation judged on the last reply", params: retention(10, 0.8, "Ada"), in: final("I'm Ada", "Hi", "bye", "Bye, Ada!"), pass: true, score: 1},
		{name: "short conversation, last reply forgets", params: retention(10, 0.8, "Ada"), in: c, score: 0,
			msg: `"Ada" (given in turn 1, not used in the agent's last turn; the conversation ended 4 agent turns later)`},
		{name: "the agent using it too early does not count", params: retention(2, 0.8, "Ada"), in: final("I'm Ada", "Hi Ada", "x", "ok", "y", "ok"), score: 0},
		{name: "never given", params: retention(1, 0.5, "Ada", "Paris"), in: c, pass: true, score: 0.5, msg: `not retained: "Paris" (the user never said it)`},
		{name: "given last", params: retention(1, 0.8, "Paris"), in: final("hi", "hello", "I'm in Paris"), score: 0, msg: "no agent turn after it"},
		{name: "white space is collapsed", params: retention(3, 1, "lives in  Berlin"), in: final("She lives in\nBerlin", "ok", "a", "b", "c", "d", "e", "She lives in Berlin."), pass: true, score: 1},
		{name: "default retention turns", params: &evalparams.ContextRetention{TestMemoryOf: []string{"Ada"}}, in: c, pass: true, score: 1},
		{name: "not a conversation", params: retention(1, 0.8, "x"), in: reply("x"), score: 0, msg: "needs a conversation"},
		{name: "malformed: no facts", params: &evalparams.ContextRetention{}, buildErr: "test_memory_of is empty"},
		{name: "malformed: empty fact", params: retention(1, 0.8, " "), buildErr: "test_memory_of[0] is empty"},
		{name: "malformed: turns", params: retention(-1, 0.8, "x"), buildErr: "retention_turns -1"},
		{name: "malformed: threshold", params: retention(1, 2, "x"), buildErr: "memory_accuracy_threshold 2 is outside 0..1"},
	})
}
