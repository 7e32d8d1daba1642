// Command library runs a scenario against an agent written in Go and
// streams the results to out/results.jsonl: the library's main path, as
// README.md shows it (a test keeps the two the same). Run it from the
// repository's root: go run ./examples/library
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// README:begin (README.md shows from here to README:end; a test keeps them equal)

// weatherAgent is the agent under test: it asks the weather service (which
// the scenario mocks) and reports what it said, with the action it took.
var weatherAgent = runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
	forecast, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
	if err != nil {
		return runner.Reply{}, err
	}
	return runner.Reply{
		Text:    fmt.Sprintf("The weather in Paris: %v", forecast),
		Actions: []results.Action{{Name: "GET_WEATHER", Args: map[string]any{"city": "Paris"}}},
	}, nil
})

func run(ctx context.Context) error {
	kit := agenteval.New() // every built-in registered; register your own plugins here
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	if err != nil {
		return err // scenario.Diagnostics: file:line:col: error: field.path: message
	}
	// Results stream to out/results.jsonl as jobs finish (one writer per
	// folder; Resume finishes an interrupted run, Overwrite replaces one).
	sum, err := kit.Run(ctx, agenteval.RunConfig{Agent: weatherAgent, Runs: 3, Out: "out", Overwrite: true}, files...)
	if err != nil {
		return err
	}
	fmt.Printf("%d of %d job(s) passed; results in out/results.jsonl\n", sum.Passed, sum.Jobs)
	return nil
}

// README:end

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}
