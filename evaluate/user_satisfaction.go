package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/results"
)

// userSatisfactionKind returns the user_satisfaction evaluation type.
//
// The evaluation scores how satisfied the user is, from the user's own
// turns only (the agent calling its answer "great" says nothing about the
// user), in the conversation up to the turn under evaluation. Because what
// matters is how the user ends, user turn k (1-based) weighs k: later
// turns count more.
//
//   - keyword_analysis: whole-word, case-insensitive matches of the
//     positive and negative indicators (the scenario's plus the defaults).
//     A positive indicator preceded within two words by a negation ("not
//     helpful") counts as negative. score = positive / (positive +
//     negative), weighted; 0.5 when nothing matches.
//   - sentiment_analysis: a small built-in lexicon of valences from -3 to
//     +3 with the same negation rule; score = positive valence / total
//     valence, weighted; 0.5 when no word carries sentiment.
//   - llm_judge (the default): Env.Judge grades the user's satisfaction on
//     0..1 from the transcript, with the threshold as the expectation. With
//     no judge configured the evaluation cannot judge and errors.
//
// Pass: score ≥ satisfaction_threshold (default 0.7). An explicit 0 is
// honoured.
func userSatisfactionKind() *Kind {
	return conversational(NewKind("user_satisfaction", "The simulated user ends satisfied, by keywords, sentiment or a model's judgement.", newUserSatisfaction))
}

// Default satisfaction indicators, those of ElizaOS plus a few common
// phrases. A scenario's indicators are added to them, not put in their place.
var (
	defaultPositive = []string{"thank you", "thanks", "great", "perfect", "helpful", "solved", "fixed", "working", "that works", "awesome", "appreciate"}
	defaultNegative = []string{"frustrated", "frustrating", "unhelpful", "confused", "angry", "useless", "waste of time", "doesn't work",
		"does not work", "didn't work", "still broken", "annoying", "terrible", "disappointed"}
)

// userSatisfaction is the evaluator of userSatisfactionKind; its semantics are documented there.
type userSatisfaction struct {
	method    string
	threshold float64
	pos, neg  []string
}

func newUserSatisfaction(p *evalparams.UserSatisfaction) (Evaluator, error) {
	e := &userSatisfaction{method: p.MeasurementMethod, threshold: 0.7}
	if e.method == "" {
		e.method = "llm_judge"
	}
	if p.SatisfactionThreshold != nil {
		e.threshold = *p.SatisfactionThreshold
	}
	if e.threshold < 0 || e.threshold > 1 {
		return nil, fmt.Errorf("satisfaction_threshold %v is outside 0..1", e.threshold)
	}
	switch e.method {
	case "keyword_analysis", "sentiment_analysis", "llm_judge":
	default:
		return nil, fmt.Errorf("measurement_method %q is not sentiment_analysis, keyword_analysis or llm_judge", p.MeasurementMethod)
	}
	e.pos, e.neg = defaultPositive, defaultNegative
	if ind := p.Indicators; ind != nil {
		add := func(base, extra []string, which string) ([]string, error) {
			out := append([]string(nil), base...)
			for _, w := range extra {
				w = strings.ToLower(strings.TrimSpace(w))
				if w == "" {
					return nil, fmt.Errorf("indicators.%s has an empty word", which)
				}
				out = append(out, w)
			}
			return out, nil
		}
		var err error
		if e.pos, err = add(e.pos, ind.Positive, "positive"); err != nil {
			return nil, err
		}
		if e.neg, err = add(e.neg, ind.Negative, "negative"); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Needs reports a judge for the llm_judge method.
func (e *userSatisfaction) Needs() Needs { return Needs{Judge: e.method == "llm_judge"} }

// satisfactionPrompt is the question the judge grades.
const satisfactionPrompt = "How satisfied is the user with the agent by the end of this conversation? " +
	"Grade from 0 (very dissatisfied) to 1 (fully satisfied), judging from the user's own messages, the last ones most."

// Evaluate judges in; see the type's documentation.
func (e *userSatisfaction) Evaluate(ctx context.Context, in Input) (results.Evaluation, error) {
	turns, ok := conversationTurns(in)
	if !ok {
		return results.Evaluation{Message: notConversation("user_satisfaction", in)}, nil
	}
	r := results.Evaluation{Details: map[string]any{"method": e.method, "threshold": e.threshold}}
	var score float64
	switch e.method {
	case "llm_judge":
		if in.Env == nil || in.Env.Judge == nil {
			return r, errors.New("no judge model is configured; user_satisfaction with measurement_method llm_judge needs one (or use keyword_analysis or sentiment_analysis)")
		}
		v, err := in.Env.Judge.Evaluate(ctx, judge.Input{
			Prompt:   satisfactionPrompt,
			Evidence: transcriptOf(turns),
			Expected: fmt.Sprintf(">=%g", e.threshold),
		})
		if err != nil {
			return r, judgeError(err)
		}
		score = v.Score
		r.Usage = v.Usage
		r.Details["reasoning"] = v.Reasoning
		r.Details["model"] = v.Model
	default:
		var pos, neg float64
		weight := 0.0
		for _, t := range turns {
			if t.Role != roleUser {
				continue
			}
			weight++
			var p, n float64
			if e.method == "keyword_analysis" {
				p, n = e.keywords(t.Text)
			} else {
				p, n = sentiment(t.Text)
			}
			pos += weight * p
			neg += weight * n
		}
		score = 0.5
		if pos+neg > 0 {
			score = pos / (pos + neg)
		}
		r.Details["positive"], r.Details["negative"] = pos, neg
	}
	r.Score = score
	r.Passed = score >= e.threshold
	r.Message = fmt.Sprintf("user satisfaction %.0f%% (threshold %.0f%%, %s)", score*100, e.threshold*100, e.method)
	if reason, ok := r.Details["reasoning"].(string); ok && reason != "" {
		r.Message += ": " + excerpt(reason)
	}
	return r, nil
}

// keywords counts indicator matches in text; a negated positive counts as
// negative.
func (e *userSatisfaction) keywords(text string) (pos, neg float64) {
	lower := strings.ToLower(text)
	for _, w := range e.pos {
		for i := indexWord(lower, w, 0); i >= 0; i = indexWord(lower, w, i+len(w)) {
			if negatedAt(lower, i) {
				neg++
			} else {
				pos++
			}
		}
	}
	for _, w := range e.neg {
		neg += float64(countWord(lower, w))
	}
	return pos, neg
}

// negatedAt reports whether one of the two words before offset i is a
// negation.
func negatedAt(lower string, i int) bool {
	words := strings.Fields(lower[:i])
	for k := max(0, len(words)-2); k < len(words); k++ {
		if negator(strings.Trim(words[k], ".,;:!?\"()")) {
			return true
		}
	}
	return false
}

// transcriptOf renders turns as "role: text" lines, like
// [StepTrace.Transcript].
func transcriptOf(turns []results.Turn) string {
	st := StepTrace{Turns: turns}
	return st.Transcript()
}
