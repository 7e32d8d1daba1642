// Command demo runs every bundled example with the examples' deterministic
// agent, a scripted user and an in-process fake of GitHub: no network, no
// keys. Results go to out/results.jsonl; `agenteval report` reads them.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/agenteval/agenteval/examples"
)

func main() {
	out := flag.String("out", "out", "directory for results.jsonl")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, err := examples.Run(ctx, examples.Options{Out: *out, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	if sum.Passed != sum.Jobs {
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "all %d example jobs passed; try: go run ./cmd/agenteval report --format md %s/results.jsonl\n", sum.Jobs, *out)
}
