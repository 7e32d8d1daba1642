package confine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/internal/confine"
)

func TestPath(t *testing.T) {
	t.Parallel()
	ok := []string{"a.txt", "dir/a.txt", "./a", "a/../b", "a:b.txt", "x/..", `dir\file`, "..a", "a/..b"}
	for _, p := range ok {
		assert.NoError(t, confine.Path(p), p)
	}
	bad := map[string]string{
		"":            "path is empty",
		"/etc/passwd": `path "/etc/passwd" is absolute; paths are relative to the run's directory`,
		`\\server\x`:  `path "\\\\server\\x" is absolute; paths are relative to the run's directory`,
		"C:/x":        `path "C:/x" is absolute; paths are relative to the run's directory`,
		`c:\x`:        `path "c:\\x" is absolute; paths are relative to the run's directory`,
		"..":          `path ".." leaves the run's directory`,
		"../a":        `path "../a" leaves the run's directory`,
		"a/../../b":   `path "a/../../b" leaves the run's directory`,
		`..\a`:        `path "..\\a" leaves the run's directory`,
	}
	for p, want := range bad {
		assert.EqualError(t, confine.Path(p), want, p)
	}
}
