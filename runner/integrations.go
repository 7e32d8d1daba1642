package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/fixture"
	"github.com/agenteval/agenteval/scenario"
)

// Checkpoints returns a CheckpointScorer that runs checkpoints through
// checker (an Executor such as checkpoint/github's, and a condition registry).
func Checkpoints(checker checkpoint.Checker) CheckpointScorer { return checkpointScorer{checker} }

type checkpointScorer struct{ c checkpoint.Checker }

func (c checkpointScorer) ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]CheckpointResult, error) {
	rep := c.c.Score(ctx, s.Checkpoints)
	out := make([]CheckpointResult, len(rep.Results))
	for i, r := range rep.Results {
		cr := CheckpointResult{ID: r.ID, Description: r.Description, Task: r.Task, Passed: r.Passed, Expected: r.Expected, Error: r.Error}
		if r.Message != "" && !r.Passed && cr.Error == "" {
			cr.Error = r.Message
		}
		if r.Actual != nil {
			if b, err := json.Marshal(r.Actual); err == nil {
				cr.Actual = b
			}
		}
		out[i] = cr
	}
	return out, nil
}

// Fixtures returns a FixtureBinder that binds {{placeholders}} from the
// manifest and, for scenarios with reseed_per_iteration, calls reset first
// (a failed reset fails that run only). With reset nil, such a scenario
// fails with a message saying why.
func Fixtures(m *scenario.Manifest, reset func(ctx context.Context, s *scenario.Scenario) error) FixtureBinder {
	return fixtureBinder{m: m, reset: reset}
}

type fixtureBinder struct {
	m     *scenario.Manifest
	reset func(ctx context.Context, s *scenario.Scenario) error
}

func (f fixtureBinder) Prepare(ctx context.Context, s *scenario.Scenario, reseed bool) (*scenario.Scenario, error) {
	if reseed {
		if f.reset == nil {
			return nil, errors.New("the scenario asks for reseed_per_iteration but no fixture manager can reset its fixtures (give a GitHub token)")
		}
		if err := f.reset(ctx, s); err != nil {
			return nil, fmt.Errorf("resetting the fixture: %w", err)
		}
	}
	return fixture.Bind(s, f.m)
}
