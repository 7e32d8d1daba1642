package cli

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/agenteval/agenteval/internal/view"
)

// defaultViewAddr is where the viewer serves unless told otherwise: the
// address report.DefaultViewerURL names.
const defaultViewAddr = "127.0.0.1:8731"

// runView serves the results viewer until interrupted (SIGINT or SIGTERM
// end it gracefully: requests in flight finish).
func runView(ctx context.Context, env *cliEnv, args []string) int {
	fs := newFlags(env, "view", "[--addr HOST:PORT] [--open] RESULTS.jsonl|DIR...\n(a DIR stands for every results folder under it, now and as it gains them; shards of one run are merged)")
	addr := fs.String("addr", "", "address to serve on; the default is loopback port 8731, where the HTML report's links point, or a free port when that one is taken (anything but loopback serves the results to whoever reaches it)")
	open := fs.Bool("open", false, "open the viewer in a browser (xdg-open, or open on macOS) when there is one; otherwise say so")
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
	var l net.Listener
	if *addr == "" {
		// The port the HTML report links to, else any.
		if l, err = net.Listen("tcp", defaultViewAddr); err != nil {
			l, err = net.Listen("tcp", "127.0.0.1:0")
		}
	} else {
		l, err = net.Listen("tcp", *addr)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "agenteval view: --addr %s: %v\n", *addr, err)
		return exitUsage
	}
	url := "http://" + l.Addr().String() + "/"
	fmt.Fprintf(env.stdout, "agenteval view: %s (Ctrl-C to stop)\n", url)
	if *open {
		fmt.Fprintf(env.stderr, "agenteval view: %s\n", openBrowser(env.getenv, url))
	}
	start := time.Now()
	if err := srv.Serve(ctx, l); err != nil {
		fmt.Fprintf(env.stderr, "agenteval view: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(env.stderr, "agenteval view: stopped after %v\n", time.Since(start).Round(time.Second))
	return exitOK
}
