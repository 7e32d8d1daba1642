package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/agenteval/agenteval/checkpoint"
	"github.com/agenteval/agenteval/llm"
)

// RecordCheckpoints returns an executor whose task answers go through c:
// recording, each task runs on exec and its data (or error) is stored at
// the job's site; replaying, each is answered from c alone, so exec may be
// nil and checkpoints are scored with no server and no token.
func RecordCheckpoints(exec checkpoint.Executor, c *llm.Cassette) checkpoint.Executor {
	return checkpoint.ExecutorFunc(func(ctx context.Context, task string, input map[string]any) (any, error) {
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
				return nil, errors.New("runner: no checkpoint executor to record from")
			}
			return exec.Execute(ctx, task, input)
		})
	})
}
