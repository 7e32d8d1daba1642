// Package throttle carries, in a context, the hook through which a model
// call that waits under a rate limit (llm's limiters) tells the runner, so
// that the job gives its seat to another while it waits.
package throttle

import "context"

type hookKey struct{}

// WithHook returns a context whose model calls tell hook when they start
// waiting under a rate limit (true) and when they stop (false): for a
// turn under an endpoint's bound or pace, or before retrying a refused
// request. Calls come in pairs from the calling goroutine.
func WithHook(ctx context.Context, hook func(waiting bool)) context.Context {
	return context.WithValue(ctx, hookKey{}, hook)
}

// Hook returns the hook WithHook set, or nil.
func Hook(ctx context.Context) func(waiting bool) {
	h, _ := ctx.Value(hookKey{}).(func(bool))
	return h
}
