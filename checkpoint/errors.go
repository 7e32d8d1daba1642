package checkpoint

import (
	"errors"
	"fmt"
	"strings"
)

// Errors that callers branch on. Match them with errors.Is; the errors
// returned wrap them with the details.
var (
	// ErrUnknownType means a condition's type is not in the registry.
	ErrUnknownType = errors.New("unknown condition type")
	// ErrUnknownScorer means a custom condition names a scorer that is not registered.
	ErrUnknownScorer = errors.New("unknown custom scorer")
	// ErrInvalidCondition means a condition lacks a field its type needs or
	// has one of the wrong type (count_gte with a string value, say).
	ErrInvalidCondition = errors.New("invalid condition")
	// ErrNoCheckpoints means there was nothing to score. A report without
	// checkpoints does not pass: nothing was shown to hold.
	ErrNoCheckpoints = errors.New("no checkpoints: nothing was checked, so the scenario cannot pass")
)

// Error is a checkpoint's error when it could not be decided for a reason
// other than a malformed condition (those wrap the sentinels above): its
// task failed (Err is the executor's error, so there is no data to test), or
// its executor, condition or custom scorer panicked (Panic is set). Either
// fails that checkpoint only. Match it with errors.As.
type Error struct {
	// Task is the checkpoint's capability task ("" for a panic outside one).
	Task string
	// Err is the executor's error; for a panic, the panic value when it is
	// an error (so errors.Is sees through a panic(err)).
	Err error
	// Panic is what was passed to panic; nil when the task failed.
	Panic any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// newPanicError records a recovered panic of a checkpoint's task.
func newPanicError(task string, v any, stack []byte) *Error {
	err, _ := v.(error)
	return &Error{Task: task, Err: err, Panic: v, Stack: stack}
}

// Error returns "panic: <value>" for a panic; for a failed task "task
// <task>: <err>", or the executor's message alone when it already starts
// with the task's name (as the GitHub executor's do).
func (e *Error) Error() string {
	if e.Panic != nil {
		return fmt.Sprintf("panic: %v", e.Panic)
	}
	msg := "<nil>"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if strings.HasPrefix(msg, e.Task+":") || strings.HasPrefix(msg, e.Task+" ") {
		return msg
	}
	return fmt.Sprintf("task %s: %s", e.Task, msg)
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }
