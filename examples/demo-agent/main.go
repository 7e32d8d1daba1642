// Command demo-agent is the examples' deterministic agent behind the exec
// agent protocol, so the agenteval CLI can run it:
//
//	go build -o demo-agent ./examples/demo-agent
//	agenteval run --agent exec:./demo-agent examples/scenarios
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/examples"
)

func main() {
	if err := exec.Serve(context.Background(), os.Stdin, os.Stdout, &examples.Agent{}); err != nil {
		fmt.Fprintln(os.Stderr, "demo-agent:", err)
		os.Exit(1)
	}
}
