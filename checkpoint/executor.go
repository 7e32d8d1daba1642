package checkpoint

import "context"

// Executor runs one capability task (for example "pr.commits.list") against a
// live system and returns its data as plain JSON values: map[string]any,
// []any, string, bool, nil and numbers (any Go numeric type).
//
// Host programs plug their own executor in place of the GitHub one (a CLI
// wrapper, a GitHub App, a recorded fixture). Implementations must be safe for
// concurrent use.
type Executor interface {
	Execute(ctx context.Context, task string, input map[string]any) (any, error)
}

// ExecutorFunc adapts a function to the Executor interface.
type ExecutorFunc func(ctx context.Context, task string, input map[string]any) (any, error)

// Execute calls f.
func (f ExecutorFunc) Execute(ctx context.Context, task string, input map[string]any) (any, error) {
	return f(ctx, task, input)
}
