package scenario

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirectoryWalkSkipsForeignFiles: a walk skips YAML it cannot place
// with a warning, while the same file named on its own is an error.
func TestDirectoryWalkSkipsForeignFiles(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"d/ci.yaml":          {Data: []byte("jobs:\n  build: {runs-on: ubuntu}\n")},
		"d/ok.scenario.yaml": {Data: []byte("name: ok\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations: [{type: string_contains, value: hi}]\njudgment: {strategy: all_pass}\n")},
		"d/broken.yaml":      {Data: []byte("a: [\n")},
	}
	l := NewLoader(testRegistries{}, Options{})
	set, err := l.LoadDirFS(fsys, "d")
	require.Error(t, err, "a file that does not parse is still an error")
	var codes []string
	for _, d := range set.Diagnostics {
		codes = append(codes, d.File+" "+d.Code+" "+d.Severity.String())
	}
	assert.Contains(t, codes, "d/ci.yaml skipped warning")
	assert.Contains(t, codes, "d/broken.yaml syntax error")
	assert.Len(t, set.scenarios(), 1)
	_, err = l.LoadFS(fsys, "d/ci.yaml")
	assert.Error(t, err, "named on its own, an unplaceable file is an error")
}
