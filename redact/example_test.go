package redact_test

import (
	"fmt"

	"github.com/agenteval/agenteval/redact"
)

// A Redactor masks the secrets it was given, and whatever has the shape of
// a credential (an Authorization header's value, a GitHub token, an OpenAI
// key) even when nobody told it.
func ExampleRedactor_String() {
	r := redact.New("correct-horse-battery")
	fmt.Println(r.String("password correct-horse-battery, header Authorization: Bearer abc.def.ghi"))
	fmt.Println(r.String("token ghp_0123456789abcdefghijklmnopqrstuvwxyz in a log line"))
	// Output:
	// password [REDACTED], header Authorization: Bearer [REDACTED]
	// token [REDACTED] in a log line
}
