package agentevaltest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenteval/agenteval/agentevaltest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// TestWeatherAgent is the first contact: a host's own agent run on a
// scenario file, importing only agentevaltest (and the standard library).
func TestWeatherAgent(t *testing.T) {
	agent := runner.AgentFunc(func(ctx context.Context, cfg runner.SessionConfig, msg string) (runner.Reply, error) {
		forecast, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return runner.Reply{Text: fmt.Sprintf("The weather in Paris: %v", forecast),
			Actions: []results.Action{{Name: "GET_WEATHER"}}}, err
	})
	agentevaltest.Run(t, agentevaltest.Config{Agent: agent, Runs: 3}, "../examples/scenarios/weather.scenario.yaml")
}
