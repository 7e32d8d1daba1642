// Command demo runs every bundled example with the examples' deterministic
// agent, a scripted user and an in-process fake of GitHub: no network, no
// keys. Results go to out/results.jsonl; `agenteval report` and
// `agenteval view` read them. One example (examples/failing) fails on
// purpose, so there is a failure to look at; the demo exits 0 when every
// other job passes and those fail.
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
	sum, err := examples.Run(ctx, examples.Options{Out: *out, Log: os.Stderr, Failing: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(2)
	}
	if sum.Passed != sum.Jobs-sum.OnPurpose || sum.Completed != sum.Jobs {
		fmt.Fprintf(os.Stderr, "demo: want %d passed and %d failed on purpose\n", sum.Jobs-sum.OnPurpose, sum.OnPurpose)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "as expected: %d example jobs passed, %d failed on purpose (examples/failing)\n"+
		"see why: go run ./cmd/agenteval view %s    or: go run ./cmd/agenteval report --format md %s/results.jsonl\n",
		sum.Passed, sum.OnPurpose, *out, *out)
}
