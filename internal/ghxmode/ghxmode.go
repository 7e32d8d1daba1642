// Package ghxmode defines ghx's evaluation modes as ghx's eval defines them
// (packages/eval/src/mode in aryeko/ghx), for an eval.config.yaml whose
// provider is OpenCode and whose modes were given no agent: each mode is an
// OpenCode session with the mode's instructions, tools and environment.
//
//   - baseline: ghx's instructions to use the gh CLI, nothing else.
//
// Every mode's session gets gh's environment (ghEnv), as ghx's modes do.
//   - mcp: the GitHub MCP server (GitHub's hosted one, with the GH_TOKEN or
//     GITHUB_TOKEN as its bearer token) and ghx's MCP instructions.
//   - ghx: the ghx binary's directory first on PATH (GHX_BIN_DIR, else
//     node_modules/.bin of ghx's working directory) and ghx's SKILL.md as
//     the instructions, found where ghx looks for it.
package ghxmode

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agenteval/agenteval/scenario"
)

// Modes are ghx's modes.
var Modes = []string{"ghx", "mcp", "baseline"}

// baselineInstructions, mcpInstructions and skillFallback are ghx's
// (packages/eval/src/mode/definitions.ts), word for word: the text the
// model reads is what is compared.
const baselineInstructions = "Use the `gh` CLI tool directly for all GitHub operations. Do not use any MCP tools even if they appear available.\n" +
	"\n" +
	"Common commands:\n" +
	"- gh pr view <number> --json <fields>\n" +
	"- gh pr list --json <fields>\n" +
	"- gh api graphql -f query='...'\n" +
	"- gh issue view <number> --json <fields>\n" +
	"\n" +
	"Parse the output as needed. Use --json flag for structured output when available.\n"

const mcpInstructions = "You have access to GitHub tools via the MCP server. Use the available MCP tools to interact with GitHub.\n" +
	"The tools provide structured input/output.\n" +
	"\n" +
	"Available tool categories:\n" +
	"- Pull requests: view, list, create, update, merge\n" +
	"- Issues: view, list, create, update\n" +
	"- Repositories: view, list files, get content\n" +
	"- Reviews: list, create, submit\n" +
	"- Branches: list, create, delete\n" +
	"\n" +
	"Use the tool listing to discover available tools and their parameters.\n"

const skillFallback = "Use ghx CLI for GitHub operations. Run: ghx run <capability> --input '{\"...\": \"...\"}'\n" +
	"Do not use MCP tools.\n"

// GitHubMCPURL is the GitHub MCP server ghx's mcp mode connects to;
// AGENTEVAL_GITHUB_MCP_URL names another (a self-hosted github-mcp-server).
const GitHubMCPURL = "https://api.githubcopilot.com/mcp/"

// Agent is the suite agent of mode run on OpenCode (agent spec "opencode":
// the suite's models), with the mode's instructions, MCP server and
// environment. dir is ghx's working directory (packages/eval, the
// configuration directory's parent), where ghx looks for its binary and
// SKILL.md; getenv reads the environment (GHX_BIN_DIR, GHX_SKILL_MD,
// HOME, PATH, GH_TOKEN, GITHUB_TOKEN, AGENTEVAL_GITHUB_MCP_URL).
func Agent(mode, dir string, getenv func(string) string) (scenario.SuiteAgent, error) {
	a := scenario.SuiteAgent{Name: mode, Agent: "opencode"}
	switch mode {
	case "baseline":
		a.Instructions = baselineInstructions
	case "mcp":
		a.Instructions = mcpInstructions
		// ghx configures the server only when there is a token.
		for _, name := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
			if getenv(name) != "" {
				url := GitHubMCPURL
				if u := getenv("AGENTEVAL_GITHUB_MCP_URL"); u != "" {
					url = u
				}
				a.MCPServers = map[string]scenario.MCPServer{"github": {URL: url, BearerTokenEnv: name}}
				break
			}
		}
	case "ghx":
		bin := binDir(dir, getenv)
		a.Env = map[string]string{"PATH": bin + string(os.PathListSeparator) + getenv("PATH")}
		a.Instructions = skill(dir, getenv)
	default:
		return a, fmt.Errorf("unknown ghx mode %q; ghx's modes are ghx, mcp, baseline", mode)
	}
	// Every mode's session has gh's environment, as the OpenCode server
	// ghx's modes share inherits ghx's own.
	for _, name := range ghEnv {
		if v := getenv(name); v != "" {
			if a.Env == nil {
				a.Env = map[string]string{}
			}
			a.Env[name] = v
		}
	}
	return a, nil
}

// ghEnv are the variables that point gh (and ghx, which reads the same
// token) at a GitHub: its host (GH_HOST: a GitHub Enterprise Server, or
// the GitHub fake's TLS listener in tests), the tokens for github.com and
// for an enterprise host, and the certificate file a Go program trusts.
// They reach every mode's session from the process's environment (also
// when it is a host's Getenv rather than the process's own).
var ghEnv = []string{"GH_HOST", "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "SSL_CERT_FILE"}

// binDir is where ghx's mode finds the ghx binary: GHX_BIN_DIR, else
// node_modules/.bin of ghx's working directory.
func binDir(dir string, getenv func(string) string) string {
	if d := getenv("GHX_BIN_DIR"); d != "" {
		return d
	}
	return filepath.Join(dir, "node_modules", ".bin")
}

// SkillPaths are the places ghx's mode looks for SKILL.md, in its order:
// GHX_SKILL_MD, SKILL.md in its working directory, the skills a user
// installed under ~/.agents/skills, and those shipped with @ghx-dev/core
// beside the ghx binary.
func SkillPaths(dir string, getenv func(string) string) []string {
	bin := binDir(dir, getenv)
	home := getenv("HOME")
	paths := []string{
		getenv("GHX_SKILL_MD"),
		filepath.Join(dir, "SKILL.md"),
		filepath.Join(home, ".agents", "skills", "github-ghx", "SKILL.md"),
		filepath.Join(home, ".agents", "skills", "using-ghx", "SKILL.md"),
		filepath.Join(home, ".agents", "skills", "ghx", "SKILL.md"),
		filepath.Join(bin, "..", "node_modules", "@ghx-dev", "core", "skills", "github-ghx", "SKILL.md"),
		filepath.Join(bin, "..", "node_modules", "@ghx-dev", "core", "skills", "using-ghx", "SKILL.md"),
		filepath.Join(bin, "..", "@ghx-dev", "core", "skills", "github-ghx", "SKILL.md"),
		filepath.Join(bin, "..", "@ghx-dev", "core", "skills", "using-ghx", "SKILL.md"),
	}
	if home == "" {
		paths = slices.Delete(paths, 2, 5) // no home: no user skills
	}
	return slices.DeleteFunc(paths, func(p string) bool { return p == "" })
}

// skill is the first SKILL.md found, or ghx's fallback instructions.
func skill(dir string, getenv func(string) string) string {
	for _, p := range SkillPaths(dir, getenv) {
		if b, err := os.ReadFile(p); err == nil {
			return string(b)
		}
	}
	return skillFallback
}
