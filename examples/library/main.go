// Command library runs a scenario against an agent written in Go and
// streams the results to out/results.jsonl: the library's main path, as
// README.md shows it (a test keeps the two the same). Run it from the
// repository's root: go run ./examples/library
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// README:begin (README.md shows from here to README:end; a test keeps them equal)

// weatherAgent is the agent under test: it asks the weather service (which
// the scenario mocks) and reports what it said, with the action it took.
var weatherAgent = agenteval.AgentFunc(func(ctx context.Context, cfg agenteval.SessionConfig, msg string) (agenteval.Reply, error) {
	forecast, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
	if err != nil {
		return agenteval.Reply{}, err
	}
	return agenteval.Reply{
		Text:    fmt.Sprintf("The weather in Paris: %v", forecast),
		Actions: []agenteval.Action{{Name: "GET_WEATHER", Args: map[string]any{"city": "Paris"}}},
	}, nil
})

func run(ctx context.Context) error {
	kit := agenteval.New() // every built-in registered; register your own plugins here
	files, err := kit.Load("examples/scenarios/weather.scenario.yaml")
	if err != nil {
		return err // scenario.Diagnostics: file:line:col: error: field.path: message
	}
	sources, err := runner.FileSources(files, runner.SourceOptions{Runs: 3})
	if err != nil {
		return err
	}
	jobs, total, err := runner.Combine(sources, matrix.Shard{})
	if err != nil {
		return err
	}
	plan := &results.Plan{RunID: "library-example", Started: time.Now().UTC(), TotalJobs: total, ShardJobs: total,
		Agent: "weatherAgent", Sources: []string{files[0].Name}}
	// One writer per folder; an existing file is replaced only when asked
	// (Resume finishes it instead, after checking the plan is the same).
	w, err := results.Open("out/results.jsonl", plan, results.Options{Overwrite: true})
	if err != nil {
		return err
	}
	defer w.Close() // a second Close is safe
	sum, err := runner.RunCounted(ctx, runner.Config{Agent: weatherAgent, Registries: kit.Registries, Results: w}, jobs, total)
	if err != nil {
		return err
	}
	if err := w.Close(); err != nil {
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
