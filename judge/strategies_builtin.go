package judge

import "fmt"

// Names of the built-in strategies.
const (
	allPassName      = "all_pass"
	anyPassName      = "any_pass"
	majorityPassName = "majority_pass"
	weightedName     = "weighted"
)

// defaultWeightedThreshold is the weighted strategy's pass mark when
// Options.Threshold is nil: more than nothing is not enough, half the weight
// is, matching majority_pass for equal weights except that exactly half
// passes here.
const defaultWeightedThreshold = 0.5

// builtins returns new values of the four built-in strategies: all_pass,
// any_pass, majority_pass and weighted (which passes when the passed
// outcomes' share of the total weight reaches Options.Threshold,
// defaultWeightedThreshold when unset).
func builtins() []*Strategy {
	return []*Strategy{
		{Name: allPassName, Doc: "Passes when every evaluation passes.", Decide: guarded(allPassName, decideAllPass)},
		{Name: anyPassName, Doc: "Passes when at least one evaluation passes.", Decide: guarded(anyPassName, decideAnyPass)},
		{Name: majorityPassName, Doc: "Passes when more than half of the evaluations pass; an exact half fails.", Decide: guarded(majorityPassName, decideMajorityPass)},
		{Name: weightedName, Doc: "Passes when the passed evaluations carry at least the threshold share of the total weight (weight defaults to 1, threshold to 0.5).",
			Decide: guarded(weightedName, decideWeighted)},
	}
}

// guarded applies the shared rules before decide, so a built-in called on
// its own (not through Decide) keeps them too.
func guarded(name string, decide func([]Outcome, Options) Decision) func([]Outcome, Options) Decision {
	return func(outcomes []Outcome, opts Options) Decision {
		if d, done := guard(name, outcomes); done {
			return d
		}
		return decide(outcomes, opts)
	}
}

func countPassed(outcomes []Outcome) int {
	n := 0
	for _, o := range outcomes {
		if o.Passed {
			n++
		}
	}
	return n
}

// allPassedReasons are the reasons of all_pass verdicts on up to 32
// evaluations, made once: a passing job's verdict allocates nothing.
var allPassedReasons = func() (r [33]string) {
	for n := range r {
		r[n] = fmt.Sprintf("all %d evaluations passed", n)
	}
	r[1] = "the only evaluation passed"
	return r
}()

func allPassedReason(n int) string {
	if n < len(allPassedReasons) {
		return allPassedReasons[n]
	}
	return fmt.Sprintf("all %d evaluations passed", n)
}

func decideAllPass(outcomes []Outcome, _ Options) Decision {
	p, n := countPassed(outcomes), len(outcomes)
	d := Decision{Passed: p == n, Score: float64(p) / float64(n)}
	if d.Passed {
		d.Reason = allPassedReason(n)
	} else {
		d.Reason = fmt.Sprintf("%d of %d evaluations failed (%s); all_pass needs every evaluation to pass", n-p, n, failedNames(outcomes))
	}
	return d
}

func decideAnyPass(outcomes []Outcome, _ Options) Decision {
	p, n := countPassed(outcomes), len(outcomes)
	d := Decision{Passed: p > 0, Score: float64(p) / float64(n)}
	if d.Passed {
		d.Reason = fmt.Sprintf("%d of %d evaluations passed; any_pass needs at least one", p, n)
	} else {
		d.Reason = fmt.Sprintf("none of %d evaluations passed (%s); any_pass needs at least one", n, failedNames(outcomes))
	}
	return d
}

func decideMajorityPass(outcomes []Outcome, _ Options) Decision {
	p, n := countPassed(outcomes), len(outcomes)
	need := n/2 + 1
	d := Decision{Passed: p >= need, Score: float64(p) / float64(n)}
	verb := "meets"
	if !d.Passed {
		verb = "falls short of"
	}
	d.Reason = fmt.Sprintf("%d of %d evaluations passed; majority_pass needs more than half (%d), which this %s", p, n, need, verb)
	if !d.Passed {
		d.Reason += fmt.Sprintf("; failed: %s", failedNames(outcomes))
	}
	return d
}

func decideWeighted(outcomes []Outcome, opts Options) Decision {
	t := defaultWeightedThreshold
	if opts.Threshold != nil {
		t = *opts.Threshold
	}
	var passed, total float64
	for _, o := range outcomes {
		w := o.weight()
		total += w
		if o.Passed {
			passed += w
		}
	}
	if total == 0 {
		return Decision{Reason: fmt.Sprintf("the %d evaluations have a total weight of 0; weighted needs positive weights", len(outcomes))}
	}
	share := passed / total
	// The epsilon keeps float sums such as 0.1+0.2 from failing a share
	// that is exactly the threshold on paper.
	d := Decision{Passed: share >= t-1e-9, Score: share}
	if d.Passed {
		d.Reason = fmt.Sprintf("passed evaluations carry %g of %g weight (%.4g%%), at least the threshold %.4g%%", passed, total, share*100, t*100)
	} else {
		d.Reason = fmt.Sprintf("passed evaluations carry %g of %g weight (%.4g%%), below the threshold %.4g%%; failed: %s", passed, total, share*100, t*100, failedNames(outcomes))
	}
	return d
}
