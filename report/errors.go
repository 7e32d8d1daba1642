package report

import "fmt"

// planConflictError says two plan records describe different runs, so their
// job indexes cannot be merged.
type planConflictError struct {
	// First and Second name the inputs holding the two plans.
	First, Second string
	// Field is the plan field that differs; A and B are its two values.
	Field string
	A, B  string
}

// Error names both inputs and the differing field.
func (e *planConflictError) Error() string {
	return fmt.Sprintf("conflicting plans: %s has %s %s but %s has %s", e.First, e.Field, e.A, e.Second, e.B)
}

// lineError locates a problem in an input; Read reports malformed lines as
// warnings built from it, and returns it for an unreadable input.
type lineError struct {
	Input string
	Line  int
	Err   error
}

// Error formats the problem as input:line: message.
func (e *lineError) Error() string { return fmt.Sprintf("%s:%d: %v", e.Input, e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *lineError) Unwrap() error { return e.Err }
