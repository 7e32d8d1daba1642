package evaluatetest

import (
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
)

type namedInput struct {
	name string
	in   evaluate.Input
}

// standardInputs returns one Input of every shape a runner produces, each
// with its own trace, so an evaluator must cope with all of them.
func standardInputs() []namedInput {
	at := time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)
	env := &evaluate.Env{}
	one := func(st evaluate.StepTrace) *evaluate.Trace {
		return &evaluate.Trace{ScenarioID: "evaluatetest", Steps: []evaluate.StepTrace{st}, Started: at, Ended: at.Add(time.Minute)}
	}
	conv := func() *evaluate.Trace {
		return one(evaluate.StepTrace{Kind: "conversation", Input: "I need help with my build.", Reply: "Glad it works.", Started: at, Duration: 3 * time.Second,
			Turns: []results.Turn{
				{Role: "user", Text: "I need help with my build.", At: at},
				{Role: "assistant", Text: "Which error do you see?", At: at.Add(time.Second), Duration: time.Second},
				{Role: "user", Text: "undefined: x", At: at.Add(2 * time.Second)},
				{Role: "assistant", Text: "Declare x first.", At: at.Add(3 * time.Second), Duration: time.Second,
					Actions: []results.Action{{Name: "read_file", Args: map[string]any{"path": "main.go"}}}},
				{Role: "user", Text: "Thanks, that works!", At: at.Add(4 * time.Second)},
				{Role: "assistant", Text: "Glad it works.", At: at.Add(5 * time.Second), Duration: time.Second},
			}})
	}
	return []namedInput{
		{"an input step", evaluate.Input{Trace: one(evaluate.StepTrace{Kind: "input", Input: "List the open issues.", Reply: "There are 2 open issues: #1 and #2.",
			Actions: []results.Action{{Name: "list_issues", Args: map[string]any{"state": "open"}, Result: []any{1.0, 2.0}}}, Started: at, Duration: time.Second}),
			Turn: -1, Scope: results.ScopeStep, Env: env}},
		{"an empty input step", evaluate.Input{Trace: one(evaluate.StepTrace{Kind: "input"}), Turn: -1, Scope: results.ScopeStep, Env: env}},
		{"a code step", evaluate.Input{Trace: one(evaluate.StepTrace{Kind: "code", Stdout: "ok\n", Stderr: "warn", ExitCode: 1, Started: at, Duration: time.Millisecond}),
			Turn: -1, Scope: results.ScopeStep, Env: env}},
		{"a conversation's end", evaluate.Input{Trace: conv(), Turn: -1, Scope: results.ScopeFinal, Env: env}},
		{"a conversation step", evaluate.Input{Trace: conv(), Turn: -1, Scope: results.ScopeStep, Env: env}},
		{"a conversation turn", evaluate.Input{Trace: conv(), Turn: 3, Scope: results.ScopeTurn, Env: env}},
		{"no environment", evaluate.Input{Trace: one(evaluate.StepTrace{Kind: "input", Reply: "x"}), Turn: -1, Scope: results.ScopeStep}},
	}
}
