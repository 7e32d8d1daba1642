package evaluate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// MaxWords is the parameter struct of a host's own evaluation type. Its
// json and jsonschema tags define what a scenario file may say, for the
// loader and for the generated JSON Schema alike.
type MaxWords struct {
	// Max is the most words the reply may have.
	Max int `json:"max" jsonschema:"minimum=1"`
}

// Registering a custom evaluation type: the host's kind joins the built-ins
// in one registry, which then loads, validates, compiles and evaluates
// scenarios that use it exactly as it does the built-ins.
func Example_customKind() {
	maxWords := evaluate.NewKind("max_words", "The reply has at most max words.",
		func(p *MaxWords) (evaluate.Evaluator, error) {
			if p.Max < 1 {
				return nil, errors.New("max must be at least 1")
			}
			return evaluate.EvaluatorFunc(func(_ context.Context, in evaluate.Input) (results.Evaluation, error) {
				what, text := in.Text()
				n := len(strings.Fields(text))
				if n > p.Max {
					return results.Evaluation{Message: fmt.Sprintf("%s has %d words, more than %d", what, n, p.Max)}, nil
				}
				return results.Evaluation{Passed: true, Score: 1, Message: fmt.Sprintf("%s has %d words", what, n)}, nil
			}), nil
		})
	kit := agenteval.New()
	if err := kit.Evaluations.Register(maxWords); err != nil {
		panic(err)
	}

	loader := kit.Loader(scenario.Options{})
	f, err := loader.Load("brief.scenario.yaml", []byte(`name: brief
description: the agent answers briefly
environment: {type: local}
run:
  - input: What is 2+2?
    evaluations:
      - type: max_words
        max: 5
      - type: string_contains
        value: "4"
judgment: {strategy: all_pass}
`))
	if err != nil {
		panic(err)
	}
	compiled, err := evaluate.Compile(kit.Evaluations, f.Scenario)
	if err != nil {
		panic(err)
	}

	trace := &evaluate.Trace{ScenarioID: "brief", Steps: []evaluate.StepTrace{{Kind: "input", Input: "What is 2+2?", Reply: "It is 4, of course, as everyone knows."}}}
	for _, r := range compiled.Evaluate(context.Background(), evaluate.Input{Trace: trace, Turn: -1, Scope: results.ScopeStep}) {
		fmt.Printf("%s passed=%v: %s\n", r.Type, r.Passed, r.Message)
	}
	// Output:
	// max_words passed=false: reply has 8 words, more than 5
	// string_contains passed=true: reply contains "4" (case-insensitive)
}
