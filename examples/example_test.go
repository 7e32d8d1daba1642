package examples_test

import (
	"context"
	"fmt"
	"os"

	"github.com/agenteval/agenteval/examples"
)

// Example runs every bundled example offline, as `go run ./examples/demo` does
// (which also runs examples/failing: Options.Failing).
func Example() {
	out, err := os.MkdirTemp("", "agenteval-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(out)
	sum, err := examples.Run(context.Background(), examples.Options{Out: out})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d jobs, %d passed\n", sum.Jobs, sum.Passed)
	// Output: 18 jobs, 18 passed
}
