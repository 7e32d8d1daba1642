package evaluate

import (
	"context"
	"errors"
	"fmt"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// trajectoryMatchKind returns the trajectory_match evaluation type.
//
// The evaluation compares the step's actions (see [Input.Actions]) with an
// expected list. An expected action matches an actual one when their names
// are equal ignoring case, underscores and hyphens and their arguments
// match under the action's args_match, else the evaluation's (default
// ignore; see [argsMatch]).
//
//   - strict passes when the lists have the same length and the i-th
//     actions match; score = matching positions / the longer length.
//   - unordered passes when each expected action can be paired with a
//     different actual one and none is left over (the same multiset);
//     score = pairs / the longer length.
//   - subset passes when every actual action matches some expected one
//     (the agent did nothing unexpected; repeats and omissions are fine,
//     and no actions at all passes); score = matched actual / actual.
//   - superset passes when every expected action matches some actual one
//     (the agent did at least this; extra actions are fine);
//     score = found expected / expected.
//
// The message names the first mismatch.
func trajectoryMatchKind() *Kind {
	return NewKind("trajectory_match",
		"The step's actions match an expected list: strict order, unordered, subset or superset, with arguments compared exactly, partially or not at all.",
		newTrajectoryMatch)
}

// The trajectory_match modes, as in LangChain agentevals.
const (
	modeStrict    = "strict"
	modeUnordered = "unordered"
	modeSubset    = "subset"
	modeSuperset  = "superset"
)

// trajectoryMatch is the evaluator of trajectoryMatchKind; its semantics are documented there.
type trajectoryMatch struct {
	mode     string
	expected []expectedAction
}

type expectedAction struct {
	name string
	norm string
	args map[string]any
	mode argsMode
}

func newTrajectoryMatch(p *evalparams.TrajectoryMatch) (Evaluator, error) {
	if len(p.Expected) == 0 {
		return nil, errors.New("expected is empty; list at least one action")
	}
	mode := p.Mode
	if mode == "" {
		mode = modeStrict
	}
	switch mode {
	case modeStrict, modeUnordered, modeSubset, modeSuperset:
	default:
		return nil, fmt.Errorf("mode %q is not strict, unordered, subset or superset", p.Mode)
	}
	def := argsIgnore
	if p.ArgsMatch != "" {
		m, err := parseArgsMatch(p.ArgsMatch)
		if err != nil {
			return nil, err
		}
		def = m
	}
	e := &trajectoryMatch{mode: mode, expected: make([]expectedAction, len(p.Expected))}
	for i, x := range p.Expected {
		n := normalizeActionName(x.Action)
		if n == "" {
			return nil, fmt.Errorf("expected[%d]: action is empty", i)
		}
		m := def
		if x.ArgsMatch != "" {
			var err error
			if m, err = parseArgsMatch(x.ArgsMatch); err != nil {
				return nil, fmt.Errorf("expected[%d]: %w", i, err)
			}
		}
		e.expected[i] = expectedAction{name: x.Action, norm: n, args: x.Args, mode: m}
	}
	return e, nil
}

// matches reports whether a matches x. It formats no explanation, which
// matters when pairing compares every expected with every actual action.
func (x *expectedAction) matches(a *results.Action) bool {
	if !sameAction(a.Name, x.norm) {
		return false
	}
	ok, _ := argsMatch(x.mode, x.args, a.Args)
	return ok
}

// match reports whether a matches x, and why not.
func (x *expectedAction) match(a *results.Action) (bool, string) {
	if !sameAction(a.Name, x.norm) {
		return false, fmt.Sprintf("expected %s, got %s", x.name, a.Name)
	}
	if ok, why := argsMatch(x.mode, x.args, a.Args); !ok {
		return false, fmt.Sprintf("%s %s (args_match %s)", a.Name, why, x.mode)
	}
	return true, ""
}

// Evaluate judges in; see the type's documentation.
func (e *trajectoryMatch) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	actual := in.Actions()
	names := actionNames(actual)
	want := make([]string, len(e.expected))
	for i, x := range e.expected {
		want[i] = x.name
	}
	var (
		score float64
		why   string
	)
	switch e.mode {
	case modeStrict:
		score, why = e.strict(actual)
	case modeUnordered:
		score, why = e.unordered(actual)
	case modeSubset:
		score, why = e.subset(actual)
	default:
		score, why = e.superset(actual)
	}
	r := results.Evaluation{Score: score, Details: map[string]any{"mode": e.mode, "expected": want, "actual": names}}
	if why == "" {
		r.Passed, r.Score = true, score
		r.Message = fmt.Sprintf("the %d actions match the expected trajectory (%s)", len(actual), e.mode)
		return r, nil
	}
	r.Details["mismatch"] = why
	r.Message = fmt.Sprintf("trajectory does not match (%s): %s", e.mode, why)
	return r, nil
}

func (e *trajectoryMatch) strict(actual []results.Action) (float64, string) {
	n := max(len(actual), len(e.expected))
	ok, first := 0, ""
	for i := range n {
		var why string
		switch {
		case i >= len(actual):
			why = fmt.Sprintf("action %d: expected %s, but the agent made only %d actions", i+1, e.expected[i].name, len(actual))
		case i >= len(e.expected):
			why = fmt.Sprintf("action %d: unexpected %s; expected only %d actions", i+1, actual[i].Name, len(e.expected))
		default:
			if m, w := e.expected[i].match(&actual[i]); m {
				ok++
			} else {
				why = fmt.Sprintf("action %d: %s", i+1, w)
			}
		}
		if first == "" {
			first = why
		}
	}
	return ratio(ok, n), first
}

func (e *trajectoryMatch) unordered(actual []results.Action) (float64, string) {
	pairOf := e.pair(actual) // expected index → actual index, or -1
	used := make([]bool, len(actual))
	pairs, first := 0, ""
	for i, a := range pairOf {
		if a >= 0 {
			pairs++
			used[a] = true
		} else if first == "" {
			first = e.missing(i, actual)
		}
	}
	if first == "" {
		for j, u := range used {
			if !u {
				first = fmt.Sprintf("unexpected action %d (%s)", j+1, actual[j].Name)
				break
			}
		}
	}
	return ratio(pairs, max(len(actual), len(e.expected))), first
}

// pair finds a largest one-to-one pairing of expected with actual actions
// (augmenting paths; the lists are short). Greedy pairing is not enough:
// with partial arguments one actual call can match several expected ones.
func (e *trajectoryMatch) pair(actual []results.Action) []int {
	m := len(actual)
	ok := make([]bool, len(e.expected)*m) // ok[i*m+j]: expected i matches actual j
	for i := range e.expected {
		for j := range actual {
			ok[i*m+j] = e.expected[i].matches(&actual[j])
		}
	}
	owner := make([]int, m) // actual index → expected index, or -1
	for j := range owner {
		owner[j] = -1
	}
	seen := make([]bool, m)
	var try func(i int) bool
	try = func(i int) bool {
		for j := range actual {
			if !ok[i*m+j] || seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j]) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for i := range e.expected {
		clear(seen)
		try(i)
	}
	pairOf := make([]int, len(e.expected))
	for i := range pairOf {
		pairOf[i] = -1
	}
	for j, i := range owner {
		if i >= 0 {
			pairOf[i] = j
		}
	}
	return pairOf
}

// missing explains why expected action i found no partner: no call of that
// name, or calls whose arguments differ.
func (e *trajectoryMatch) missing(i int, actual []results.Action) string {
	x := &e.expected[i]
	for j := range actual {
		if sameAction(actual[j].Name, x.norm) {
			if m, why := x.match(&actual[j]); !m {
				return fmt.Sprintf("expected action %d (%s) not matched; closest call, action %d: %s", i+1, x.name, j+1, why)
			}
		}
	}
	return fmt.Sprintf("expected action %d (%s) was not called", i+1, x.name)
}

func (e *trajectoryMatch) subset(actual []results.Action) (float64, string) {
	matched, first := 0, ""
	for j := range actual {
		found := false
		for i := range e.expected {
			if e.expected[i].matches(&actual[j]) {
				found = true
				break
			}
		}
		if found {
			matched++
		} else if first == "" {
			first = fmt.Sprintf("action %d (%s) is not among the expected actions", j+1, actual[j].Name)
		}
	}
	if len(actual) == 0 {
		return 1, ""
	}
	return ratio(matched, len(actual)), first
}

func (e *trajectoryMatch) superset(actual []results.Action) (float64, string) {
	found, first := 0, ""
	for i := range e.expected {
		ok := false
		for j := range actual {
			if e.expected[i].matches(&actual[j]) {
				ok = true
				break
			}
		}
		if ok {
			found++
		} else if first == "" {
			first = e.missing(i, actual)
		}
	}
	return ratio(found, len(e.expected)), first
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}
