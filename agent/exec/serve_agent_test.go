package exec

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"

	"github.com/agenteval/agenteval/runner"
)

// servingAgent is this test binary as a persistent exec agent (ServeExec):
// each reply names the process and how many sessions it has served, so
// tests see reuse. Messages ask it to misbehave: "die" (SIGKILL to
// itself), "hang" (never answer), "garbage" (a line that is not the
// protocol), "fail" (an error line), "cwd" (say whether its working
// directory still exists). AGENTEVAL_TEST_STARTUP (a duration) makes it
// take that long to start, as an interpreter loading its modules would.
func servingAgent() {
	if d, err := time.ParseDuration(os.Getenv("AGENTEVAL_TEST_STARTUP")); err == nil {
		time.Sleep(d)
	}
	var sessions atomic.Int64
	agent := agentFunc(func(ctx context.Context, cfg runner.SessionConfig) (runner.Session, error) {
		n := sessions.Add(1)
		return sessionFunc(func(ctx context.Context, msg string) (runner.Reply, error) {
			switch msg {
			case "die":
				fmt.Fprintln(os.Stderr, "dying as asked")
				time.Sleep(50 * time.Millisecond) // let stderr reach the runner first
				p, _ := os.FindProcess(os.Getpid())
				_ = p.Kill()
				select {}
			case "hang":
				fmt.Fprintln(os.Stderr, "hanging as asked")
				select {}
			case "garbage":
				fmt.Fprintln(os.Stderr, "writing garbage as asked")
				fmt.Println("this is not the protocol")
				select {}
			case "fail":
				return runner.Reply{}, fmt.Errorf("failing as asked in %s", cfg.JobID)
			case "cwd":
				if _, err := syscall.Getwd(); err != nil {
					return runner.Reply{Text: "cwd: " + err.Error()}, nil
				}
				return runner.Reply{Text: "cwd: ok"}, nil
			}
			issues, err := cfg.Mocks.Call(ctx, "github", "listIssues", map[string]any{"repo": "acme/demo"})
			if err != nil {
				return runner.Reply{}, err
			}
			var titles []string
			for _, it := range issues.([]any) {
				titles = append(titles, it.(map[string]any)["title"].(string))
			}
			return runner.Reply{Text: fmt.Sprintf("pid %d session %d: Open issues: %s", os.Getpid(), n, strings.Join(titles, ", ")),
				Actions: []results.Action{{Name: "LIST_ISSUES", Args: map[string]any{"repo": "acme/demo"}}},
				Usage:   llm.Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}}, nil
		}), nil
	})
	if err := Serve(context.Background(), os.Stdin, os.Stdout, agent); err != nil {
		fmt.Fprintln(os.Stderr, "serving agent:", err)
		os.Exit(1)
	}
}

type agentFunc func(ctx context.Context, cfg runner.SessionConfig) (runner.Session, error)

func (f agentFunc) NewSession(ctx context.Context, cfg runner.SessionConfig) (runner.Session, error) {
	return f(ctx, cfg)
}

type sessionFunc func(ctx context.Context, msg string) (runner.Reply, error)

func (f sessionFunc) Send(ctx context.Context, msg string) (runner.Reply, error) { return f(ctx, msg) }
func (f sessionFunc) Close() error                                               { return nil }
