package github

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The kinds of [Error]. Every error the executor and the client return for
// these conditions wraps one of them, so callers branch with errors.Is and
// read the details with errors.As on *[Error].
var (
	// ErrUnknownTask: the task name is not in the registry.
	ErrUnknownTask = errors.New("unknown task")
	// ErrInvalidInput: a task input is missing, ill-typed or unknown.
	ErrInvalidInput = errors.New("invalid task input")
	// ErrNotFound: GitHub has no such repository, issue, pull request, ...
	ErrNotFound = errors.New("not found")
	// ErrRateLimited: GitHub's rate limit is exhausted for longer than
	// Config.MaxWait allows waiting.
	ErrRateLimited = errors.New("github rate limit exceeded")
)

// Error is the package's one error type: a task that failed, and why. Kind
// says which of the conditions above it is (nil for any other error GitHub
// answered with: a non-2xx status, or a GraphQL error that is not
// NOT_FOUND); the other fields are set as the kind has them.
type Error struct {
	// Kind is ErrUnknownTask, ErrInvalidInput, ErrNotFound, ErrRateLimited,
	// or nil for another error from GitHub; Unwrap returns it.
	Kind error
	// Task is the task that failed.
	Task string
	// Field is the input at fault (ErrInvalidInput; empty when the input
	// as a whole is).
	Field string
	// Suggestions are the known task names nearest to Task (ErrUnknownTask).
	Suggestions []string
	// Status is the HTTP status of GitHub's answer (200 for GraphQL errors
	// in a 200 response; 403, 429 or 200 for a rate limit).
	Status int
	// Type is the GraphQL error type GitHub sent (FORBIDDEN, ...), if any.
	Type string
	// Message says what went wrong: GitHub's own wording when it gave one
	// (for example "Could not resolve to a Repository with the name
	// 'acme/demo'."), or what is wrong with the input.
	Message string
	// Reset is when GitHub said the rate limit resets, and Wait how long
	// that was from the refusal; MaxWait is the Config.MaxWait in force
	// (ErrRateLimited).
	Reset         time.Time
	Wait, MaxWait time.Duration
}

// Error describes the failure in one line: "task: not found: message",
// "task: input "field" reason", "task: github TYPE-or-status: message", ...
func (e *Error) Error() string {
	switch e.Kind {
	case ErrUnknownTask:
		msg := fmt.Sprintf("unknown task %q", e.Task)
		if len(e.Suggestions) > 0 {
			msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
		}
		return msg
	case ErrInvalidInput:
		if e.Field == "" {
			return fmt.Sprintf("%s: invalid input: %s", e.Task, e.Message)
		}
		return fmt.Sprintf("%s: input %q %s", e.Task, e.Field, e.Message)
	case ErrNotFound:
		return fmt.Sprintf("%s: not found: %s", e.Task, e.Message)
	case ErrRateLimited:
		msg := fmt.Sprintf("github rate limit exceeded (status %d): resets at %s, in %s, beyond the allowed wait of %s",
			e.Status, e.Reset.UTC().Format(time.RFC3339), e.Wait.Round(time.Second), e.MaxWait)
		if e.Task != "" {
			msg = e.Task + ": " + msg
		}
		return msg
	}
	kind := fmt.Sprintf("HTTP %d", e.Status)
	if e.Type != "" {
		kind = e.Type
	}
	return fmt.Sprintf("%s: github %s: %s", e.Task, kind, e.Message)
}

// Unwrap returns Kind.
func (e *Error) Unwrap() error { return e.Kind }
