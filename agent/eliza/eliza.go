// Package eliza is the agent kind that puts a real ElizaOS agent under test:
// `eliza` (the ElizaOS packages the test setup installs) or
// `eliza:PROJECT_DIR` (an ElizaOS project's own node_modules, .env and
// agent). It runs the Node bridge shipped in this package (bridge/, embedded
// in the binary) as an exec agent: the bridge boots an ElizaOS AgentRuntime
// per session with the scenario's character and plugins, a PGLite database
// of the session's own, the scenario's mocks behind runtime.getService, and
// answers each message when the runtime's message service has handled it,
// with the actions its memories record (see bridge/eliza-bridge.mjs).
package eliza

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	agentexec "github.com/agenteval/agenteval/agent/exec"
	"github.com/agenteval/agenteval/runner"
)

//go:embed bridge/eliza-bridge.mjs
var bridgeSource []byte

// Type returns the agent type "eliza" (eliza or eliza:PROJECT_DIR builds
// newAgent(PROJECT_DIR)), for a registry of agent types such as agenteval.Kit's.
func Type() *runner.AgentType {
	return &runner.AgentType{Name: "eliza",
		Doc:      "eliza[:PROJECT_DIR] runs the scenario against a real ElizaOS runtime (the project's node_modules, else AGENTEVAL_NPM_DIR's packages); its plugin-openai calls OPENAI_BASE_URL",
		TakesEnv: true, New: newAgent}
}

// newAgent returns the agent that runs scenarios against a real ElizaOS runtime.
// project is an ElizaOS project's directory, whose node_modules, .env and
// exported agent (character and plugins) the runtime is made from; "" uses
// the ElizaOS packages installed globally under the npm folder
// (AGENTEVAL_NPM_DIR, else $XDG_CACHE_HOME/agenteval/npm, as
// scripts/test.sh installs its npm_packages). The runtime's model calls go
// to OPENAI_BASE_URL with OPENAI_API_KEY, read through opts.Getenv. The
// agent pools its Node processes within a run as the exec agent does.
func newAgent(project string, opts runner.AgentOptions) (runner.Agent, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if _, err := exec.LookPath("node"); err != nil {
		return nil, errors.New("eliza agent: node is not installed (ElizaOS needs Node.js 20 or later: apt-get install nodejs)")
	}
	if project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return nil, fmt.Errorf("eliza agent: project %s: %w", project, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("eliza agent: project %s is not a directory (give an ElizaOS project's directory, as in eliza:./my-agent)", project)
		}
		project = abs
	}
	cache, err := cacheDir(getenv)
	if err != nil {
		return nil, err
	}
	// The bridge runs from the binary's own bytes (node --eval): no file
	// of it is written anywhere. Its PGLite template is made in the run's
	// work folder, once per run, unless AGENTEVAL_ELIZA_CACHE names a
	// folder of the user's to keep it in across runs.
	env := slices.Clone(opts.Env)
	env = append(env,
		"AGENTEVAL_ELIZA_BRIDGE_SOURCE="+string(bridgeSource),
		"AGENTEVAL_ELIZA_PROJECT="+project,
		"AGENTEVAL_NPM_DIR="+npmDir(getenv, cache))
	if d := getenv("AGENTEVAL_ELIZA_CACHE"); d != "" {
		env = append(env, "AGENTEVAL_ELIZA_CACHE="+d)
	}
	for _, k := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	opts.Env = env
	a, err := agentexec.New(`exec node --input-type=module --eval "$AGENTEVAL_ELIZA_BRIDGE_SOURCE"`, opts)
	if err != nil {
		return nil, err
	}
	// Every job gets a directory in the run's work folder, where its
	// session keeps its database: nothing is written outside the run.
	a.(interface{ RequireDir() }).RequireDir()
	return a, nil
}

// cacheDir is agenteval's cache folder, where scripts/test.sh installs its
// npm_packages (read, never written, by the agent): $XDG_CACHE_HOME/agenteval,
// else ~/.cache/agenteval.
func cacheDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "agenteval"), nil
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("eliza agent: no cache folder (set XDG_CACHE_HOME or HOME): %w", err)
		}
	}
	return filepath.Join(home, ".cache", "agenteval"), nil
}

// npmDir is where scripts/test.sh installs its npm_packages.
func npmDir(getenv func(string) string, cache string) string {
	if d := getenv("AGENTEVAL_NPM_DIR"); d != "" {
		return d
	}
	return filepath.Join(cache, "npm")
}
