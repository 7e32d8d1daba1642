package github

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors. Every error Execute returns for these conditions wraps
// one of them, so callers can branch with errors.Is and get details with
// errors.As on the typed errors below.
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

// UnknownTaskError reports a task name the executor does not know, with the
// nearest known names.
type UnknownTaskError struct {
	Task        string
	Suggestions []string
}

// Error names the task and the suggestions.
func (e *UnknownTaskError) Error() string {
	msg := fmt.Sprintf("unknown task %q", e.Task)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ") + "?"
	}
	return msg
}

// Unwrap returns ErrUnknownTask.
func (e *UnknownTaskError) Unwrap() error { return ErrUnknownTask }

// InputError reports a bad input field of a task.
type InputError struct {
	Task   string
	Field  string
	Reason string
}

// Error reads "task: input "field" reason".
func (e *InputError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: invalid input: %s", e.Task, e.Reason)
	}
	return fmt.Sprintf("%s: input %q %s", e.Task, e.Field, e.Reason)
}

// Unwrap returns ErrInvalidInput.
func (e *InputError) Unwrap() error { return ErrInvalidInput }

// NotFoundError reports that GitHub has no object the task asked for.
// Message is GitHub's own wording when it gave one, for example
// "Could not resolve to a Repository with the name 'acme/demo'.".
type NotFoundError struct {
	Task    string
	Message string
}

// Error reads "task: not found: message".
func (e *NotFoundError) Error() string { return fmt.Sprintf("%s: not found: %s", e.Task, e.Message) }

// Unwrap returns ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// RateLimitError reports a rate limit the client would not (or could no
// longer) wait out.
type RateLimitError struct {
	// Status is the HTTP status of the refusal (403, 429, or 200 for a
	// GraphQL RATE_LIMITED error).
	Status int
	// Reset is when GitHub said the limit resets; Wait is how long that was
	// from the refusal.
	Reset time.Time
	Wait  time.Duration
	// MaxWait is the Config.MaxWait in force.
	MaxWait time.Duration
}

// Error says when the limit resets and why the executor did not wait.
func (e *RateLimitError) Error() string {
	return fmt.Sprintf("github rate limit exceeded (status %d): resets at %s, in %s, beyond the allowed wait of %s",
		e.Status, e.Reset.UTC().Format(time.RFC3339), e.Wait.Round(time.Second), e.MaxWait)
}

// Unwrap returns ErrRateLimited.
func (e *RateLimitError) Unwrap() error { return ErrRateLimited }

// APIError is any other error GitHub answered with: a non-2xx status, or a
// GraphQL error that is not NOT_FOUND.
type APIError struct {
	Task string
	// Status is the HTTP status (200 for GraphQL errors in a 200 response).
	Status int
	// Type is the GraphQL error type GitHub sent (FORBIDDEN, ...), if any.
	Type    string
	Message string
}

// Error reads "task: github TYPE-or-status: message".
func (e *APIError) Error() string {
	kind := fmt.Sprintf("HTTP %d", e.Status)
	if e.Type != "" {
		kind = e.Type
	}
	return fmt.Sprintf("%s: github %s: %s", e.Task, kind, e.Message)
}
