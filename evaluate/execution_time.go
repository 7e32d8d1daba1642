package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// executionTimeKind returns the execution_time evaluation type.
//
// The evaluation checks the agent's own time: StepTrace.Duration for a step
// or a conversation's end, the turn's Duration for a turn evaluation. It
// does not include the runner's own waiting, which is why its numbers are
// smaller than ElizaOS's.
//
// Pass: min_duration_ms ≤ d ≤ max_duration_ms, both inclusive, a missing
// bound being open. With only target_duration_ms T, there are no bounds and
// the check passes when d is within half of T either way (score ≥ 0.5).
//
// Score: 0 when the check fails. Otherwise 1 without a target, and with a
// target T, 1 − |d − T| / T clamped to [0, 1]: 1 at the target, 0.5 at half
// or one and a half times it, 0 at twice it.
//
// A step with neither a duration nor a start time has no timing; the check
// then cannot judge and returns an error.
func executionTimeKind() *Kind {
	return NewKind("execution_time",
		"The agent's own time for the step lies within bounds; the score falls with distance from the target.",
		newExecutionTime)
}

// executionTime is the evaluator of executionTimeKind; its semantics are documented there.
type executionTime struct {
	min, max, target *float64
}

func newExecutionTime(p *evalparams.ExecutionTime) (Evaluator, error) {
	if p.MaxDurationMS == nil && p.MinDurationMS == nil && p.TargetDurationMS == nil {
		return nil, errors.New("give max_duration_ms, min_duration_ms or target_duration_ms")
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"max_duration_ms", p.MaxDurationMS}, {"min_duration_ms", p.MinDurationMS}, {"target_duration_ms", p.TargetDurationMS}} {
		if b.v != nil && (*b.v < 0 || math.IsNaN(*b.v) || math.IsInf(*b.v, 0)) {
			return nil, fmt.Errorf("%s %v must be a number of milliseconds ≥ 0", b.name, *b.v)
		}
	}
	if p.MinDurationMS != nil && p.MaxDurationMS != nil && *p.MinDurationMS > *p.MaxDurationMS {
		return nil, fmt.Errorf("min_duration_ms %v is above max_duration_ms %v", *p.MinDurationMS, *p.MaxDurationMS)
	}
	if p.TargetDurationMS != nil && *p.TargetDurationMS == 0 {
		return nil, errors.New("target_duration_ms must be above 0; use max_duration_ms for an upper bound")
	}
	return &executionTime{min: p.MinDurationMS, max: p.MaxDurationMS, target: p.TargetDurationMS}, nil
}

// Evaluate judges in; see the type's documentation.
func (e *executionTime) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	st := in.StepTrace()
	d, started := st.Duration, st.Started
	if in.Scope == results.ScopeTurn {
		t := &st.Turns[in.Turn]
		d, started = t.Duration, t.At
	}
	if d <= 0 && started.IsZero() {
		return results.Evaluation{}, errors.New("the step has no timing: neither a duration nor a start time was recorded")
	}
	ms := float64(d) / float64(time.Millisecond)
	r := results.Evaluation{Details: map[string]any{"duration_ms": ms}}
	var why []string
	if e.max != nil {
		r.Details["max_duration_ms"] = *e.max
		if ms > *e.max {
			why = append(why, fmt.Sprintf("above the maximum of %gms", *e.max))
		}
	}
	if e.min != nil {
		r.Details["min_duration_ms"] = *e.min
		if ms < *e.min {
			why = append(why, fmt.Sprintf("below the minimum of %gms", *e.min))
		}
	}
	score := 1.0
	if e.target != nil {
		t := *e.target
		score = max(0, 1-math.Abs(ms-t)/t)
		r.Details["target_duration_ms"] = t
		if e.min == nil && e.max == nil && score < 0.5 {
			why = append(why, fmt.Sprintf("more than half the target of %gms away from it", t))
		}
	}
	took := fmt.Sprintf("took %s", fmtMS(ms))
	if len(why) > 0 {
		r.Message = took + ", " + strings.Join(why, " and ")
		return r, nil
	}
	r.Passed, r.Score = true, score
	r.Message = took + ", within bounds"
	if e.target != nil {
		r.Message += fmt.Sprintf(" (target %gms, score %.2f)", *e.target, score)
	}
	return r, nil
}

// fmtMS renders milliseconds without noise: "1234ms", "0.5ms".
func fmtMS(ms float64) string {
	if ms >= 10 {
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.3gms", ms)
}
