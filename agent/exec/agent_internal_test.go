package exec

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnchorWords: the words of an exec command that name files where
// agenteval runs become absolute (the command runs in each job's own
// directory); anything else is left as the shell would read it.
func TestAnchorWords(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	for _, f := range []string{"agent.sh", "agent.py", "bin/agent"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), nil, 0o755))
	}
	t.Chdir(dir)
	q := func(p string) string { return "'" + filepath.Join(dir, p) + "'" }
	for _, c := range []struct{ in, want string }{
		{"./agent.sh", q("agent.sh")},
		{"python3 agent.py --flag", "python3 " + q("agent.py") + " --flag"},
		{"  bin/agent\t-v", "  " + q("bin/agent") + "\t-v"},
		{"python3 missing.py", "python3 missing.py"},
		{"ls bin", "ls bin"},                               // a directory: the agent's own business
		{`python3 "agent.py"  x`, `python3 "agent.py"  x`}, // quoted: left to the shell
		{"FOO=1 ./agent.sh", "FOO=1 " + q("agent.sh")},     // an assignment is not a file
		{"$HOME/agent.sh; ./agent.sh", "$HOME/agent.sh; " + q("agent.sh")},
		{"/usr/bin/env", "/usr/bin/env"},
		{"a\n./agent.sh", "a\n" + q("agent.sh")},
	} {
		assert.Equal(t, c.want, anchorWords(c.in), c.in)
	}
}
