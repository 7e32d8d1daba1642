// Command agenteval validates, expands, runs and reports agent evaluation
// scenarios: package cli with the built-in kit. Run `agenteval help` for
// the commands.
package main

import (
	"context"
	"os"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/cli"
)

func main() {
	os.Exit(cli.Main(context.Background(), agenteval.New(), os.Args[1:]))
}
