package agenteval_test

import (
	"context"
	"fmt"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// A host program's common path: one import, a kit with the built-ins, the
// host's own agent (here a function that calls the scenario's mocked
// weather service), a file loaded and run.
func ExampleKit_Run() {
	kit := agenteval.New()
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	if err != nil {
		fmt.Println(err) // file:line:col: error: field.path: message (did you mean …)
		return
	}
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
		forecast, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: fmt.Sprintf("The weather in Paris: %v", forecast),
			Actions: []results.Action{{Name: "GET_WEATHER"}}}, err
	})
	sum, err := kit.Run(context.Background(), agenteval.RunConfig{Agent: agent, Runs: 3}, files...)
	fmt.Printf("%d jobs, %d passed, err %v\n", sum.Jobs, sum.Passed, err)
	// Output: 3 jobs, 3 passed, err <nil>
}
