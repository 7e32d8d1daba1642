package runner_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

type printSink struct{}

func (printSink) Write(r *results.Job) error {
	fmt.Printf("%s passed=%v: %s\n", r.ID, r.Passed, r.Reason)
	return nil
}

// Example runs a scenario three times against an agent written as a
// function, streaming each result as it finishes.
func Example() {
	f, err := agenteval.New().Loader(scenario.Options{}).Load("greet.scenario.yaml", []byte(`
name: greet
description: the agent greets by name
environment: {type: local}
run:
  - input: "I am Ada"
    evaluations:
      - {type: string_contains, value: "hello, ada"}
judgment: {strategy: all_pass}
`))
	if err != nil {
		panic(err)
	}
	agent := runner.AgentFunc(func(_ context.Context, _ runner.SessionConfig, msg string) (runner.Reply, error) {
		return runner.Reply{Text: "Hello, " + strings.TrimPrefix(msg, "I am ") + "!"}, nil
	})
	jobs, _, err := agenteval.New().Jobs(agenteval.RunConfig{Runs: 3}, f)
	if err != nil {
		panic(err)
	}
	sum, err := runner.Run(context.Background(), runner.Config{Agent: agent, Concurrency: 1, Results: printSink{}}, jobs)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d of %d passed\n", sum.Passed, sum.Jobs)
	// Output:
	// greet/-/run-1 passed=true: the only evaluation passed
	// greet/-/run-2 passed=true: the only evaluation passed
	// greet/-/run-3 passed=true: the only evaluation passed
	// 3 of 3 passed
}
