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

// TaskError is a checkpoint's error when its task failed: the executor
// returned an error, so there is no data to test.
type TaskError struct {
	// Task is the capability task that failed.
	Task string
	// Err is the executor's error.
	Err error
}

// Error returns "task <task>: <err>", or the executor's message alone when
// it already starts with the task's name (as the GitHub executor's do).
func (e *TaskError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, e.Task+":") || strings.HasPrefix(msg, e.Task+" ") {
		return msg
	}
	return fmt.Sprintf("task %s: %s", e.Task, msg)
}

// Unwrap returns the executor's error.
func (e *TaskError) Unwrap() error { return e.Err }

// PanicError is a checkpoint's error when its executor, condition or custom
// scorer panicked. The panic fails that checkpoint only.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

// Error returns "panic: <value>".
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns Value when it is an error, so errors.Is sees through a
// panic(err).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
