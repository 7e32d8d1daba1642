package agentevaltest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenteval/agenteval/agentevaltest"
)

// TestWeatherAgent is the first contact: a host's own agent run on a
// scenario file, importing only agentevaltest (and the standard library).
func TestWeatherAgent(t *testing.T) {
	agent := agentevaltest.AgentFunc(func(ctx context.Context, cfg agentevaltest.SessionConfig, msg string) (agentevaltest.Reply, error) {
		forecast, err := cfg.Mocks.Call(ctx, "weather", "forecast", map[string]any{"city": "Paris"})
		return agentevaltest.Reply{Text: fmt.Sprintf("The weather in Paris: %v", forecast),
			Actions: []agentevaltest.Action{{Name: "GET_WEATHER"}}}, err
	})
	agentevaltest.Run(t, agentevaltest.Config{Agent: agent, Runs: 3}, "../examples/scenarios/weather.scenario.yaml")
}
