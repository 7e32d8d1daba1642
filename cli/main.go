// Package cli is the agenteval command line, built on one agenteval.Kit:
// validate, schema, types, matrix, plan, run, report, checkpoint and
// fixture. The shipped agenteval binary is Main with the built-in kit; a
// host builds its own binary, with its plugins registered on its kit, in a
// few lines:
//
//	func main() {
//		kit := agenteval.New()
//		if err := myplugins.Register(kit); err != nil {
//			log.Fatal(err)
//		}
//		os.Exit(cli.Main(context.Background(), kit, os.Args[1:]))
//	}
//
// and every command (validate, schema, types, run...) knows the plugins.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/internal/termsafe"
	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/redact"
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
	// environ lists the environment as KEY=VALUE; nil means the variables
	// agenteval reads, through getenv.
	environ    func() []string
	isTerminal bool
	// stdoutTerminal says stdout is a terminal (run --steps auto).
	stdoutTerminal bool
	// redactor knows the process's secrets (set by mainWith; commands add
	// those their flags carry). stdout and stderr pass through it, and so
	// does every file a command writes.
	redactor *redact.Redactor
	// kit holds every registry the commands use (agenteval.New() unless a
	// test brings its own, with its plugins registered).
	kit *agenteval.Kit
	// loadMemoryLimit, when not 0, is the soft memory limit run and plan
	// set while they load their inputs, collecting once they are loaded
	// (Main sets it; GOMEMLIMIT overrides it).
	loadMemoryLimit int64
}

// secretVariables are the variables agenteval itself reads that may hold
// secrets, for an environment given only as getenv (the enterprise tokens
// are handed to ghx's modes for gh).
var secretVariables = []string{"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "OPENAI_API_KEY", "OPENAI_BASE_URL"}

// withRedactor returns a copy of env whose output streams mask every secret
// the environment holds.
func withRedactor(env *cliEnv) *cliEnv {
	e := *env
	environ := []string{}
	if env.environ != nil {
		environ = env.environ()
	} else {
		for _, k := range secretVariables {
			if v := env.getenv(k); v != "" {
				environ = append(environ, k+"="+v)
			}
		}
	}
	e.redactor = redact.FromEnvironment(environ)
	// Secrets are masked first, then what would act on a terminal is
	// shown as escapes (agent stderr, GitHub's messages, scenario names).
	e.stdout = e.redactor.Writer(termsafe.Writer(env.stdout))
	e.stderr = e.redactor.Writer(termsafe.TerminalWriter(env.stderr))
	return &e
}

// envSecretRules are the user's secret rules from the environment:
// AGENTEVAL_SECRET_NAMES holds globs over variable names (separated by
// commas or white space), AGENTEVAL_SECRET_PATTERNS regular expressions,
// one a line.
func envSecretRules(getenv func(string) string) redact.Rules {
	var rs redact.Rules
	rs.Names = strings.FieldsFunc(getenv("AGENTEVAL_SECRET_NAMES"), func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	for _, line := range strings.Split(getenv("AGENTEVAL_SECRET_PATTERNS"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			rs.Patterns = append(rs.Patterns, line)
		}
	}
	return rs
}

// addSecretRules adds the user's rules (from the environment, flags or a
// suite) to env's redactor, which every output passes through.
func addSecretRules(env *cliEnv, rs redact.Rules) error {
	if len(rs.Names) == 0 && len(rs.Patterns) == 0 {
		return nil
	}
	var environ []string
	if env.environ != nil {
		environ = env.environ()
	}
	return env.redactor.AddRules(environ, rs)
}

// commands is the explicit list of subcommands, in help order.
func commands() []command {
	return []command{
		{"validate", "check scenario, GitHub eval, matrix and manifest files", runValidate},
		{"schema", "print the JSON Schema of a document kind", runSchema},
		{"types", "list evaluation types, strategies, conditions, terminations and agents", runTypes},
		{"matrix", "expand a matrix into jobs", runMatrix},
		{"plan", "forecast a run: jobs, model calls by role, tokens, cost and wall time", runPlan},
		{"run", "run scenarios and matrices against an agent; results to DIR/results.jsonl", runRun},
		{"report", "summarise results: pass rates, intervals, flakiness; JUnit, Markdown, HTML", runReport},
		{"view", "browse results in a local web page: runs, jobs searched and filtered, why each failed, transcripts, two runs side by side", runView},
		{"checkpoint", "score scenarios' checkpoints against GitHub now", runCheckpoint},
		{"fixture", "seed, check, reset or clean up GitHub fixtures", runFixture},
	}
}

// Main runs the command args (without the program's name, as
// os.Args[1:]) on kit with the process's streams and environment, until
// ctx ends or an interrupt or SIGTERM arrives, and returns the exit code:
// 0 everything passed or is valid, 1 something failed or is invalid, 2 the
// command line or an input file is unusable.
//
// After SIGINT or SIGTERM a command has signalGrace to stop by itself
// before Main returns anyway.
func Main(ctx context.Context, kit *agenteval.Kit, args []string) int {
	if os.Getenv("GOMEMLIMIT") == "" && len(args) > 0 && (args[0] == "report" || args[0] == "plan") {
		// A report holds a fixed amount a job and a combination (see package
		// report), twice over for report compare, and the collector lets the
		// heap grow to twice what is live: at 10^6 jobs a side that is
		// 600 MB. A soft limit makes it collect sooner instead; a live heap
		// over it is still served (the runtime bounds the extra work). plan
		// --history holds a fixed amount a job key beside a loaded matrix:
		// 230 MB live at 10^6 of each, 550 MB of RSS without the limit.
		debug.SetMemoryLimit(reportMemoryLimit)
	}
	var loadLimit int64
	if os.Getenv("GOMEMLIMIT") == "" {
		loadLimit = reportMemoryLimit
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	done := make(chan int, 1)
	go func() {
		done <- mainWith(ctx, &cliEnv{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, getenv: os.Getenv, environ: os.Environ,
			isTerminal: isTerminal(os.Stderr), stdoutTerminal: isTerminal(os.Stdout), kit: kit, loadMemoryLimit: loadLimit}, args)
	}()
	return untilSignal(ctx, stop, done, signalGrace, os.Stderr)
}

// reportMemoryLimit is report's and plan's soft memory limit, and run's
// while it loads its inputs (GOMEMLIMIT overrides both): parsing a matrix builds
// its whole node tree (about 200 bytes a value) before letting most of it
// go, and at 10^6 values the collector's headroom over that transient
// peak, not what the run keeps, made run's peak RSS.
const reportMemoryLimit = 400 << 20

// signalGrace is how long a command has, after SIGINT or SIGTERM, to stop
// by itself (run records what it has and ends its agents; every command
// gets the cancelled context) before the process ends anyway, so that
// every command stops within a second whatever it was busy with.
const signalGrace = 900 * time.Millisecond

// untilSignal returns the command's exit code (from done), or, once ctx
// is cancelled by a signal, the code it returns within grace, else
// exitFail with a line on stderr. After the first signal the default
// handling is back: a second one ends the process at once.
func untilSignal(ctx context.Context, stop func(), done <-chan int, grace time.Duration, stderr io.Writer) int {
	select {
	case code := <-done:
		stop()
		return code
	case <-ctx.Done():
	}
	stop()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case code := <-done:
		return code
	case <-t.C:
		fmt.Fprintln(stderr, "agenteval: interrupted; stopped")
		return exitFail
	}
}

func mainWith(ctx context.Context, env *cliEnv, args []string) int {
	if env.redactor == nil {
		env = withRedactor(env)
		if err := addSecretRules(env, envSecretRules(env.getenv)); err != nil {
			fmt.Fprintf(env.stderr, "agenteval: %v\n", err)
			return exitUsage
		}
	}
	if env.kit == nil {
		e := *env
		e.kit = agenteval.New()
		env = &e
	}
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
	if best := textdist.Suggest(s, names); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
