package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// ScoreCheckpoints scores s's checkpoints as their results records keep
// them (runner.CheckpointScorer: a Checker is the runner's scorer). An
// error says which checkpoints could not be decided (a task GitHub refused,
// a lost connection, a scorer's error), with the results there are: the job
// is then incomplete, never failed.
func (c Checker) ScoreCheckpoints(ctx context.Context, s *scenario.Scenario) ([]results.Checkpoint, error) {
	rep := c.Score(ctx, s.Checkpoints)
	out := make([]results.Checkpoint, len(rep.Results))
	var undecided []string
	for i, r := range rep.Results {
		cr := results.Checkpoint{ID: r.ID, Description: r.Description, Task: r.Task, Passed: r.Passed, Expected: r.Expected, Error: r.Error}
		if r.Message != "" && !r.Passed && cr.Error == "" {
			cr.Error = r.Message
		}
		if r.Actual != nil {
			if b, err := json.Marshal(r.Actual); err == nil {
				cr.Actual = b
			}
		}
		out[i] = cr
		if r.Err != nil {
			undecided = append(undecided, fmt.Sprintf("%s (%v)", r.ID, r.Err))
		}
	}
	if len(undecided) > 0 {
		// A task that failed (GitHub refused, the network broke, a scorer
		// erred) says nothing about the state: no verdict, not a failure.
		return out, fmt.Errorf("%d of %d checkpoint(s) could not be decided: %s", len(undecided), len(out), strings.Join(undecided, "; "))
	}
	return out, nil
}

// Recorded returns an executor whose task answers go through c:
// recording, each task runs on exec and its data (or error) is stored at
// the job's site; replaying, each is answered from c alone, so exec may be
// nil and checkpoints are scored with no server and no token.
func Recorded(exec Executor, c *llm.Cassette) Executor {
	return ExecutorFunc(func(ctx context.Context, task string, input map[string]any) (any, error) {
		type taskCall struct {
			Task  string         `json:"task"`
			Input map[string]any `json:"input"`
		}
		req := taskCall{task, input}
		// Checkpoints may be scored concurrently: each task and input keeps
		// its own ordinals.
		b, err := json.Marshal(req)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		call := task + ":" + hex.EncodeToString(sum[:8])
		return llm.Play(ctx, c, "checkpoint", "", call, req, func(ctx context.Context) (any, error) {
			if exec == nil {
				return nil, errors.New("checkpoint: no executor to record from")
			}
			return exec.Execute(ctx, task, input)
		})
	})
}
