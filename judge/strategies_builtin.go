package judge

import "fmt"

// Names of the built-in strategies.
const (
	AllPassName      = "all_pass"
	AnyPassName      = "any_pass"
	MajorityPassName = "majority_pass"
	WeightedName     = "weighted"
)

// DefaultWeightedThreshold is the weighted strategy's pass mark when
// Options.Threshold is nil: more than nothing is not enough, half the weight
// is, matching majority_pass for equal weights except that exactly half
// passes here.
const DefaultWeightedThreshold = 0.5

// AllPass passes when every outcome passed.
func AllPass() Strategy { return allPass{} }

// AnyPass passes when at least one outcome passed.
func AnyPass() Strategy { return anyPass{} }

// MajorityPass passes when more than half of the outcomes passed.
func MajorityPass() Strategy { return majorityPass{} }

// Weighted passes when the passed outcomes' share of the total weight
// reaches Options.Threshold (DefaultWeightedThreshold when unset).
func Weighted() Strategy { return weighted{} }

func countPassed(outcomes []Outcome) int {
	n := 0
	for _, o := range outcomes {
		if o.Passed {
			n++
		}
	}
	return n
}

type allPass struct{}

func (allPass) Name() string { return AllPassName }
func (allPass) Doc() string  { return "Passes when every evaluation passes." }
func (s allPass) Decide(outcomes []Outcome, _ Options) Decision {
	if d, done := Guard(s.Name(), outcomes); done {
		return d
	}
	p, n := countPassed(outcomes), len(outcomes)
	d := Decision{Passed: p == n, Score: float64(p) / float64(n)}
	if d.Passed {
		d.Reason = fmt.Sprintf("all %d evaluations passed", n)
		if n == 1 {
			d.Reason = "the only evaluation passed"
		}
	} else {
		d.Reason = fmt.Sprintf("%d of %d evaluations failed (%s); all_pass needs every evaluation to pass", n-p, n, failedNames(outcomes))
	}
	return d
}

type anyPass struct{}

func (anyPass) Name() string { return AnyPassName }
func (anyPass) Doc() string  { return "Passes when at least one evaluation passes." }
func (s anyPass) Decide(outcomes []Outcome, _ Options) Decision {
	if d, done := Guard(s.Name(), outcomes); done {
		return d
	}
	p, n := countPassed(outcomes), len(outcomes)
	d := Decision{Passed: p > 0, Score: float64(p) / float64(n)}
	if d.Passed {
		d.Reason = fmt.Sprintf("%d of %d evaluations passed; any_pass needs at least one", p, n)
	} else {
		d.Reason = fmt.Sprintf("none of %d evaluations passed (%s); any_pass needs at least one", n, failedNames(outcomes))
	}
	return d
}

type majorityPass struct{}

func (majorityPass) Name() string { return MajorityPassName }
func (majorityPass) Doc() string {
	return "Passes when more than half of the evaluations pass; an exact half fails."
}
func (s majorityPass) Decide(outcomes []Outcome, _ Options) Decision {
	if d, done := Guard(s.Name(), outcomes); done {
		return d
	}
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

type weighted struct{}

func (weighted) Name() string { return WeightedName }
func (weighted) Doc() string {
	return "Passes when the passed evaluations carry at least the threshold share of the total weight (weight defaults to 1, threshold to 0.5)."
}
func (s weighted) Decide(outcomes []Outcome, opts Options) Decision {
	if d, done := Guard(s.Name(), outcomes); done {
		return d
	}
	t := DefaultWeightedThreshold
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
