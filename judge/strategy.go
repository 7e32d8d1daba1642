package judge

import (
	"fmt"
	"strings"
)

// Outcome is one evaluation's result as a judgment strategy sees it; the
// strategies know nothing about where outcomes come from (string checks,
// LLM judges, GitHub checkpoints, repeated runs).
type Outcome struct {
	// Name identifies the outcome in reasons.
	Name string
	// Passed is the evaluation's own pass/fail.
	Passed bool
	// Score is the evaluation's score in [0, 1]. The built-in strategies
	// decide on Passed and Weight; Score is there for host strategies that
	// average or rank.
	Score float64
	// Weight counts for the weighted strategy: nil means the default 1, an
	// explicit 0 (an evaluation written with weight: 0) counts nothing, and
	// a negative weight counts as 0.
	Weight *float64
	// Critical outcomes veto: when one fails, the decision fails under
	// every strategy, whatever the others say.
	Critical bool
}

// weight returns the effective weight of o.
func (o Outcome) weight() float64 {
	switch {
	case o.Weight == nil:
		return 1
	case *o.Weight < 0:
		return 0
	}
	return *o.Weight
}

// Options parameterise a strategy.
type Options struct {
	// Threshold is the weighted strategy's pass mark, a fraction of the
	// total weight in [0, 1]. nil means defaultWeightedThreshold.
	Threshold *float64
}

// Decision is a strategy's judgment over a set of outcomes.
type Decision struct {
	Passed bool
	// Score is the strategy's measure in [0, 1]: the fraction of outcomes
	// that passed, or for weighted the fraction of weight that passed.
	Score float64
	// Reason says why, in words a person can act on.
	Reason string
}

// Strategy turns outcomes into one decision: a plugin value, registered in
// a [registry.Registry] ([NewRegistry]) under its Name (the value of judgment.strategy in files).
type Strategy struct {
	// Name is the identifier used in scenario files, such as "all_pass".
	Name string
	// Doc is a one-sentence description, shown in help and schemas.
	Doc string
	// Decide judges the outcomes. It must be safe for concurrent use and
	// must not modify the slice it is given. It is called only with
	// outcomes the shared rules left open (see [Decide]): at least one, and
	// no failed critical one.
	Decide func(outcomes []Outcome, opts Options) Decision
}

// guard applies the rules that hold under every strategy and reports
// whether they settled the decision: no outcomes never pass, and a failed
// critical outcome vetoes a pass. [Decide] applies it before any strategy,
// so the rules hold for every strategy, a host's included.
func guard(name string, outcomes []Outcome) (Decision, bool) {
	if len(outcomes) == 0 {
		return Decision{Reason: fmt.Sprintf("there are no evaluations to judge; %s never passes an empty set, so add at least one evaluation", name)}, true
	}
	var failed []string
	for _, o := range outcomes {
		if o.Critical && !o.Passed {
			failed = append(failed, label(o))
		}
	}
	if len(failed) == 0 {
		return Decision{}, false
	}
	passed := 0
	for _, o := range outcomes {
		if o.Passed {
			passed++
		}
	}
	noun := "evaluation"
	if len(failed) > 1 {
		noun = "evaluations"
	}
	return Decision{
		Score: float64(passed) / float64(len(outcomes)),
		Reason: fmt.Sprintf("critical %s %s failed; a failed critical evaluation fails the run under every strategy (%d of %d evaluations passed)",
			noun, strings.Join(failed, ", "), passed, len(outcomes)),
	}, true
}

// label names an outcome in a reason.
func label(o Outcome) string {
	if o.Name == "" {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q", o.Name)
}

// failedNames lists the names of failed outcomes for a reason, shortened
// when there are many.
func failedNames(outcomes []Outcome) string {
	const show = 5
	var names []string
	n := 0
	for _, o := range outcomes {
		if !o.Passed {
			n++
			if len(names) < show {
				names = append(names, label(o))
			}
		}
	}
	s := strings.Join(names, ", ")
	if n > show {
		s += fmt.Sprintf(" and %d more", n-show)
	}
	return s
}
