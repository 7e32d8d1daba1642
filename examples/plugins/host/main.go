// Command host is a host's own agenteval binary: the built-in kit with the
// host's plugins registered, and the whole command line on it, so
// validate, schema, types and run know its evaluation type, strategy,
// condition type and agent.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/cli"
	"github.com/agenteval/agenteval/examples/plugins"
)

func main() {
	kit := agenteval.New()
	if err := plugins.Register(kit); err != nil {
		fmt.Fprintln(os.Stderr, "host:", err)
		os.Exit(2)
	}
	os.Exit(cli.Main(context.Background(), kit, os.Args[1:]))
}
