package cli

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/examples"
)

// TestMain lets the test binary be the agenteval command itself: for the
// txtar scripts under testdata/script (testscript installs it as
// "agenteval"), and for tests that start a real process to kill it.
func TestMain(m *testing.M) {
	if os.Getenv("AGENTEVAL_TEST_DEMO_AGENT") == "1" {
		// The examples' deterministic agent behind the exec protocol, as
		// examples/demo-agent serves it.
		if err := exec.Serve(context.Background(), os.Stdin, os.Stdout, &examples.Agent{}); err != nil {
			os.Exit(1)
		}
		return
	}
	if os.Getenv("AGENTEVAL_TEST_MAIN") == "1" {
		agentevalMain()
		return
	}
	testscript.Main(m, map[string]func(){"agenteval": agentevalMain})
}

// agentevalMain is cmd/agenteval's main: Main with the built-in kit.
func agentevalMain() { os.Exit(Main(context.Background(), agenteval.New(), os.Args[1:])) }

// TestScripts runs the end-to-end CLI scripts in testdata/script: each
// txtar file holds its input files and the commands, outputs and exit
// statuses a user would see.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{Dir: "testdata/script", RequireExplicitExec: true, Cmds: scriptCmds, Setup: scriptSetup})
}
