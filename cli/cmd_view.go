package cli

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/agenteval/agenteval/internal/view"
)

// runView serves the results viewer until interrupted (SIGINT or SIGTERM
// end it gracefully: requests in flight finish).
func runView(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "view", "[--addr HOST:PORT] RESULTS.jsonl|DIR...\n(a DIR stands for every results folder under it, now and as it gains them; shards of one run are merged)")
	addr := fs.String("addr", "127.0.0.1:0", "address to serve on; the default is loopback on a free port (anything else serves the results to whoever reaches it)")
	if code, ok := fs.parse(args); !ok {
		return code
	}
	paths := fs.Args()
	if len(paths) == 0 {
		paths = []string{"out"}
	}
	srv, err := view.New(view.Options{Paths: paths, Redactor: env.redactor})
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval view: %v\n", err)
		return exitUsage
	}
	defer srv.Close()
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval view: --addr %s: %v\n", *addr, err)
		return exitUsage
	}
	fmt.Fprintf(env.stdout, "agenteval view: http://%s/ (Ctrl-C to stop)\n", l.Addr())
	start := time.Now()
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(env.stderr, "agenteval view: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(env.stderr, "agenteval view: stopped after %v\n", time.Since(start).Round(time.Second))
	return exitOK
}
