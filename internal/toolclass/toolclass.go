// Package toolclass sorts an agent's tool calls into categories: ghx's
// eval classifier (packages/eval/src/collector/tool-classifier.ts) rule for
// rule, and categories a suite defines, checked before ghx's.
package toolclass

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// ghx's categories, in the order its collector reports them.
const (
	GHX     = "ghx"
	MCP     = "mcp"
	GhCLI   = "gh_cli"
	Bash    = "bash"
	FileOps = "file_ops"
	Other   = "other"
)

var builtin = [...]string{GHX, MCP, GhCLI, Bash, FileOps, Other}

// Builtin lists ghx's categories in the order its collector reports them.
func Builtin() []string { return slices.Clone(builtin[:]) }

// Indexes of the built-in categories in Builtin's order.
const (
	ghxIndex = iota
	mcpIndex
	ghCLIIndex
	bashIndex
	fileOpsIndex
	otherIndex
)

// Classify returns ghx's category of a call of the tool name with the
// arguments args (nil when the call has none), exactly as ghx's
// classifyToolCall does:
//
//  1. ghx: the name is "ghx" or starts with "ghx." or "ghx_";
//  2. mcp: it starts with "github_", "mcp_" (so "mcp__");
//  3. file_ops: read_file, write_file, edit_file, list_files,
//     list_directory, create_file, delete_file, view_file, Read, Write,
//     Edit, Glob;
//  4. a shell tool (bash, shell, terminal, Bash, run_terminal_cmd,
//     computer) is gh_cli when its command (args' command, else cmd, else
//     input, the first that is present and not null; it must be a string)
//     starts with gh, after leading white space, or names a gh path
//     (/usr/bin/gh, .\gh), followed by white space or its end; otherwise
//     bash;
//  5. other.
//
// Names are case-sensitive. "echo x && gh pr view" is bash and "ghx run"
// through a shell is bash too, as in ghx.
func Classify(name string, args map[string]any) string {
	return builtin[classify(name, args)]
}

func classify(name string, args map[string]any) int {
	switch {
	case name == "ghx" || strings.HasPrefix(name, "ghx.") || strings.HasPrefix(name, "ghx_"):
		return ghxIndex
	case strings.HasPrefix(name, "github_") || strings.HasPrefix(name, "mcp_"):
		return mcpIndex
	case isFileOp(name):
		return fileOpsIndex
	case IsShellTool(name):
		if isGhCommand(command(args)) {
			return ghCLIIndex
		}
		return bashIndex
	}
	return otherIndex
}

func isFileOp(name string) bool {
	switch name {
	case "read_file", "write_file", "edit_file", "list_files", "list_directory", "create_file", "delete_file", "view_file",
		"Read", "Write", "Edit", "Glob":
		return true
	}
	return false
}

// IsShellTool reports whether ghx takes name for a shell tool, whose
// command decides between gh_cli and bash.
func IsShellTool(name string) bool {
	switch name {
	case "bash", "shell", "terminal", "Bash", "run_terminal_cmd", "computer":
		return true
	}
	return false
}

// command returns a shell call's command as ghx reads it:
// `input.command ?? input.cmd ?? input.input`, which must be a string.
func command(args map[string]any) string {
	for _, k := range [...]string{"command", "cmd", "input"} {
		if v, ok := args[k]; ok && v != nil {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// isGhCommand is ghx's test on the command after trimStart:
// /^gh(?:\s|$)/ or /[/\\]gh(?:\s|$)/.
func isGhCommand(cmd string) bool {
	cmd = trimJSSpaceLeft(cmd)
	if ghAt(cmd, 0) {
		return true
	}
	for i := 0; i < len(cmd); i++ {
		if (cmd[i] == '/' || cmd[i] == '\\') && ghAt(cmd, i+1) {
			return true
		}
	}
	return false
}

// ghAt reports whether s has "gh" at i followed by JavaScript white space
// or the end of s.
func ghAt(s string, i int) bool {
	if !strings.HasPrefix(s[i:], "gh") {
		return false
	}
	rest := s[i+2:]
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return isJSSpace(r)
}

// trimJSSpaceLeft is JavaScript's String.prototype.trimStart.
func trimJSSpaceLeft(s string) string {
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		if !isJSSpace(r) {
			break
		}
		s = s[n:]
	}
	return s
}

// isJSSpace is JavaScript's white space and line terminators, which both
// trimStart and \s match. It differs from unicode.IsSpace: U+FEFF is one,
// U+0085 is not.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Category is a category of tool calls of a suite's own: a call is in it
// when its tool's name is one of Tools or starts with one of Prefixes, or,
// for a shell tool, when its command matches one of Commands.
type Category struct {
	Name     string
	Tools    []string
	Prefixes []string
	Commands []string
}

type compiled struct {
	index    int
	tools    []string
	prefixes []string
	commands []*regexp.Regexp
}

// Classifier sorts tool calls into a suite's categories, then ghx's. Its
// methods do not allocate and are safe for concurrent use.
type Classifier struct {
	names []string
	own   []compiled
}

// New returns a classifier that checks cats in order before ghx's
// categories. A category named like one of ghx's adds to it; the others
// come after ghx's in Names.
func New(cats []Category) (*Classifier, error) {
	c := &Classifier{names: Builtin()}
	for _, cat := range cats {
		if cat.Name == "" {
			return nil, fmt.Errorf("toolclass: a category needs a name")
		}
		idx := slices.Index(c.names, cat.Name)
		if idx < 0 {
			idx = len(c.names)
			c.names = append(c.names, cat.Name)
		}
		k := compiled{index: idx, tools: slices.Clone(cat.Tools), prefixes: slices.Clone(cat.Prefixes)}
		for _, expr := range cat.Commands {
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("toolclass: category %s: %w", cat.Name, err)
			}
			k.commands = append(k.commands, re)
		}
		c.own = append(c.own, k)
	}
	return c, nil
}

// Names returns the category names: ghx's in its order, then the suite's
// new ones in theirs. Index returns positions in it.
func (c *Classifier) Names() []string { return c.names }

// Index returns the position in Names of the category of a call of the
// tool name with the arguments args.
func (c *Classifier) Index(name string, args map[string]any) int {
	for i := range c.own {
		k := &c.own[i]
		if slices.Contains(k.tools, name) {
			return k.index
		}
		for _, p := range k.prefixes {
			if strings.HasPrefix(name, p) {
				return k.index
			}
		}
		if len(k.commands) > 0 && IsShellTool(name) {
			cmd := command(args)
			for _, re := range k.commands {
				if re.MatchString(cmd) {
					return k.index
				}
			}
		}
	}
	return classify(name, args)
}

// Classify returns the name of the category of a call.
func (c *Classifier) Classify(name string, args map[string]any) string {
	return c.names[c.Index(name, args)]
}
