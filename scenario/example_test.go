package scenario_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

func ExampleLoader_Load() {
	src := `name: Greeting
description: The agent greets back.
environment:
  type: local
run:
  - input: Hello!
    evaluations:
      - type: string_contain
        value: hello
judgment:
  strategy: all_pass
  treshold: 0.5
`
	f, err := load("greet.scenario.yaml", []byte(src))
	for _, d := range f.Diagnostics {
		fmt.Println(d)
	}
	fmt.Println(err != nil)
	// Output:
	// greet.scenario.yaml:8:15: error: run[0].evaluations[0].type: "string_contain" is not one of command_exit_code_is, context_retention, conversation_flow, conversation_length, execution_time, file_contains, file_exists, llm_judge, regex_match, string_contains, trajectory_contains_action, trajectory_match, user_satisfaction (did you mean "string_contains"?)
	// greet.scenario.yaml:12:3: warning: judgment.treshold: unknown field "treshold"; this object takes strategy, threshold, weights (did you mean "threshold"?)
	// true
}

func ExampleNewLoader() {
	type Sentiment struct {
		Mood string `json:"mood" jsonschema:"enum=happy,enum=sad"`
	}
	kit := agenteval.New()
	err := kit.Evaluations.Register(evaluate.NewKind("sentiment", "The reply has a mood.",
		func(p *Sentiment) (evaluate.Evaluator, error) {
			return evaluate.EvaluatorFunc(func(ctx context.Context, in evaluate.Input) (results.Evaluation, error) {
				_, text := in.Text()
				happy := strings.Contains(text, "!")
				return results.Evaluation{Passed: happy == (p.Mood == "happy")}, nil
			}), nil
		}))
	if err != nil {
		panic(err)
	}
	l := scenario.NewLoader(kit, scenario.Options{})
	f, err := l.Load("mood.scenario.yaml", []byte(`name: Mood
description: The agent is cheerful.
environment: {type: local}
run:
  - input: Tell me a joke
    evaluations:
      - type: sentiment
        mood: happy
judgment: {strategy: all_pass}
`))
	fmt.Println(err, f.Scenario.Run[0].Evaluations[0].Params.(*Sentiment).Mood)
	// Output: <nil> happy
}
