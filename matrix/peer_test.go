package matrix

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// peerDir holds matrix files of the public agent scenario system; the test
// runs where the shared folder exists.
const peerDir = "../../shared/peer/eliza"

// TestPeerMatrices expands every *.matrix.yaml of the reference with the
// counts the reference itself produces, and checks each job's scenario
// against the loader's decode of the same overrides.
func TestPeerMatrices(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(peerDir, "*.matrix.yaml"))
	if len(files) == 0 {
		t.Skip("no peer matrix files at " + peerDir)
	}
	want := map[string]int64{
		"simple-test.matrix.yaml":           2,
		"github-issue-analysis.matrix.yaml": 3,
		"conversation-matrix.matrix.yaml":   16,
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			l := scenario.NewLoader(scenario.Options{})
			f, _ := l.LoadFile(name)
			p, diags := Compile(f, Options{Loader: l})
			require.False(t, diags.HasErrors(), "%v", diags)
			n, err := p.Count()
			require.NoError(t, err)
			if w, ok := want[filepath.Base(name)]; ok {
				assert.Equal(t, w, n)
			}
			var got int64
			for j, err := range p.Jobs(t.Context()) {
				require.NoError(t, err)
				assert.Equal(t, got, j.Index)
				checkAgainstLoader(t, l, f, p, j)
				got++
			}
			assert.Equal(t, n, got)
		})
	}
	_ = os.Getenv
}
