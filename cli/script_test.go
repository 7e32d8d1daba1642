package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenteval/agenteval"
	agentexec "github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/examples"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm/llmtest"
)

// TestMain lets the test binary be the agenteval command itself: for the
// txtar scripts under testdata/script (testscript installs it as
// "agenteval"), and for tests that start a real process to kill it.
func TestMain(m *testing.M) {
	if os.Getenv("AGENTEVAL_TEST_DEMO_AGENT") == "1" {
		// The examples' deterministic agent behind the exec protocol, as
		// examples/demo-agent serves it.
		if err := agentexec.Serve(context.Background(), os.Stdin, os.Stdout, &examples.Agent{}); err != nil {
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
	testscript.Run(t, testscript.Params{Dir: "testdata/script", RequireExplicitExec: true, Cmds: scriptCmds, Setup: func(env *testscript.Env) error {
		if err := scriptSetup(env); err != nil {
			return err
		}
		return setupScript(env)
	}, Condition: scriptCondition})
}

// setupScript gives each script a scripted model server: $LLMTEST_URL is
// its API root, and it answers every request with the script's
// llm-reply.txt (a 400 when the script has none). It also keeps the
// user's cache and npm folders, which testscript's HOME would hide.
func setupScript(env *testscript.Env) error {
	srv := llmtest.Start()
	reply := filepath.Join(env.WorkDir, "llm-reply.txt")
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		b, err := os.ReadFile(reply)
		if err != nil {
			return llmtest.Error(400, "llmtest_unscripted", "the script has no llm-reply.txt")
		}
		return llmtest.Text(string(b))
	})
	env.Setenv("LLMTEST_URL", srv.URL)
	env.Defer(srv.Close)
	// The eliza agent finds the npm folder (its migrated PGLite template
	// is made in the run's work folder, as a user's run makes it).
	env.Setenv("AGENTEVAL_NPM_DIR", testtool.NPMDir())
	return nil
}

// scriptCondition answers the scripts' own conditions: [eliza] holds when
// the ElizaOS packages are installed in the npm folder; under CI=true,
// where scripts/test.sh installs them, their absence is an error.
func scriptCondition(cond string) (bool, error) {
	if cond != "eliza" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return false, ciMissing("node")
	}
	dir := testtool.NPMDir()
	for _, p := range elizaPackages {
		name := p[:strings.LastIndex(p, "@")]
		if _, err := os.Stat(filepath.Join(dir, "lib", "node_modules", filepath.FromSlash(name), "package.json")); err != nil {
			return false, ciMissing(p + " in " + dir)
		}
	}
	return true, nil
}

// ciMissing is nil (the condition is simply false) except under CI=true.
func ciMissing(what string) error {
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		return fmt.Errorf("%s is not installed: CI=true, where scripts/test.sh installs it", what)
	}
	return nil
}
