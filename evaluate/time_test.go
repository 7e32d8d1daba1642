package evaluate_test

import (
	"testing"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

func took(d time.Duration) evaluate.Input {
	return stepIn(evaluate.StepTrace{Kind: "input", Reply: "ok", Duration: d})
}

func TestExecutionTime(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	turnIn := turn(1, "hi", "hello")
	turnIn.Trace.Steps[0].Turns[1].Duration = 250 * ms
	turnIn.Trace.Steps[0].Duration = time.Hour
	untimed := evaluate.Input{Trace: &evaluate.Trace{Steps: []evaluate.StepTrace{{Kind: "input"}}}, Scope: results.ScopeStep, Turn: -1}
	runCases(t, "execution_time", []evalCase{
		{name: "within max", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(500.0)}, in: took(120 * ms), pass: true, score: 1, msg: "took 120ms, within bounds"},
		{name: "max is inclusive", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(500.0)}, in: took(500 * ms), pass: true, score: 1},
		{name: "above max", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(500.0)}, in: took(501 * ms), score: 0, msg: "took 501ms, above the maximum of 500ms"},
		{name: "below min", params: &evalparams.ExecutionTime{MinDurationMS: ptr(100.0), MaxDurationMS: ptr(500.0)}, in: took(50 * ms), score: 0, msg: "below the minimum of 100ms"},
		{name: "target exact", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(1000.0), TargetDurationMS: ptr(400.0)}, in: took(400 * ms), pass: true, score: 1, msg: "(target 400ms, score 1.00)"},
		{name: "target slower", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(1000.0), TargetDurationMS: ptr(400.0)}, in: took(600 * ms), pass: true, score: 0.5},
		{name: "target faster", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(1000.0), TargetDurationMS: ptr(400.0)}, in: took(300 * ms), pass: true, score: 0.75},
		{name: "far from target but within max", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(1000.0), TargetDurationMS: ptr(400.0)}, in: took(900 * ms), pass: true, score: 0},
		{name: "target only, close", params: &evalparams.ExecutionTime{TargetDurationMS: ptr(400.0)}, in: took(500 * ms), pass: true, score: 0.75},
		{name: "target only, far", params: &evalparams.ExecutionTime{TargetDurationMS: ptr(400.0)}, in: took(700 * ms), score: 0, msg: "more than half the target of 400ms away from it"},
		{name: "sub-millisecond", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(1.0)}, in: took(500 * time.Microsecond), pass: true, score: 1, msg: "took 0.5ms"},
		{name: "turn uses the turn's duration", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(300.0)}, in: turnIn, pass: true, score: 1, msg: "took 250ms"},
		{name: "no timing", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(300.0)}, in: untimed, evalErr: "the step has no timing"},
		{name: "malformed: no bounds", params: &evalparams.ExecutionTime{}, buildErr: "give max_duration_ms, min_duration_ms or target_duration_ms"},
		{name: "malformed: min above max", params: &evalparams.ExecutionTime{MinDurationMS: ptr(5.0), MaxDurationMS: ptr(1.0)}, buildErr: "min_duration_ms 5 is above max_duration_ms 1"},
		{name: "malformed: negative", params: &evalparams.ExecutionTime{MaxDurationMS: ptr(-1.0)}, buildErr: "max_duration_ms -1 must be"},
		{name: "malformed: zero target", params: &evalparams.ExecutionTime{TargetDurationMS: ptr(0.0)}, buildErr: "target_duration_ms must be above 0"},
	})
}
