// Command agenteval validates, expands, runs and reports agent evaluation
// scenarios. Run `agenteval help` for the commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"syscall"

	"github.com/agenteval/agenteval/scenario"
)

// Exit codes shared by every command.
const (
	exitOK    = 0 // everything passed / valid
	exitFail  = 1 // something failed or is invalid
	exitUsage = 2 // the command line (or an input file) is unusable
)

// command is one subcommand: its name, a one-line summary, and its body.
// Bodies read flags from args, write to the streams in env and return an exit code.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) int
}

// cliEnv is what a command may touch, so tests can run commands in-process.
type cliEnv struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	getenv         func(string) string
	isTerminal     bool
}

// commands is the explicit list of subcommands, in help order.
func commands() []command {
	return []command{
		{"validate", "check scenario, GitHub eval, matrix and manifest files", runValidate},
		{"schema", "print the JSON Schema of a document kind", runSchema},
		{"types", "list evaluation types, strategies, conditions, terminations and agents", runTypes},
		{"matrix", "expand a matrix into jobs", runMatrix},
		{"run", "run scenarios and matrices against an agent; results to DIR/results.jsonl", runRun},
		{"report", "summarise results: pass rates, intervals, flakiness; JUnit, Markdown, HTML", runReport},
		{"checkpoint", "score scenarios' checkpoints against GitHub now", runCheckpoint},
		{"fixture", "seed, check, reset or clean up GitHub fixtures", runFixture},
	}
}

func main() {
	if os.Getenv("GOGC") == "" {
		// A run's live heap is small and flat (results stream to disk), so
		// collecting less often trades a few MB for less CPU per job.
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := mainWith(ctx, &cliEnv{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, getenv: os.Getenv, isTerminal: isTerminal(os.Stderr)}, os.Args[1:])
	stop()
	os.Exit(code)
}

func mainWith(ctx context.Context, env *cliEnv, args []string) int {
	cmds := commands()
	switch {
	case len(args) == 0:
		usage(env.stderr)
		return exitUsage
	case len(args) > 1 && args[0] == "help":
		// help VERB [SUB] is VERB [SUB] -h.
		return mainWith(ctx, env, append(args[1:], "-h"))
	case args[0] == "help" || args[0] == "-h" || args[0] == "--help":
		usage(env.stdout)
		return exitOK
	}
	i := slices.IndexFunc(cmds, func(c command) bool { return c.name == args[0] })
	if i < 0 {
		names := make([]string, len(cmds))
		for j, c := range cmds {
			names[j] = c.name
		}
		fmt.Fprintf(env.stderr, "agenteval: unknown command %q%s\n", args[0], didYouMean(args[0], names))
		usage(env.stderr)
		return exitUsage
	}
	return cmds[i].run(ctx, env, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agenteval <command> [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'agenteval <command> -h' (or 'agenteval help <command>') for a command's flags.")
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// didYouMean formats a suggestion suffix, or "".
func didYouMean(s string, names []string) string {
	if best := scenario.Suggest(s, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
