package matrix

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

// peerDir holds matrix files of the public agent scenario system (copied
// from ../shared, see testdata/shared/PROVENANCE.md).
const peerDir = "../testdata/shared/peer/eliza"

// TestPeerMatrices expands every *.matrix.yaml of the reference with the
// counts the reference itself produces, and checks each job's scenario
// against the loader's decode of the same overrides.
func TestPeerMatrices(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(peerDir, "*.matrix.yaml"))
	require.NotEmpty(t, files, peerDir)
	want := map[string]int64{
		"simple-test.matrix.yaml":           2,
		"github-issue-analysis.matrix.yaml": 3,
		"conversation-matrix.matrix.yaml":   16,
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
			f, _ := l.LoadFile(name)
			p, diags := Compile(f, Options{})
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
}

// TestGitHubBase sweeps a GitHub eval scenario (ghx JSON): paths address the
// runtime model it converts to, where the prompt is run[0].input.
func TestGitHubBase(t *testing.T) {
	src, err := os.ReadFile("../testdata/shared/peer/ghx-scenarios/pr-review-comment-001.json")
	require.NoError(t, err)
	m := "name: ghx\nbase_scenario: pr-review-comment-001.json\nruns_per_combination: 3\nmatrix:\n" +
		"  - parameter: run[0].input\n    values: [one, two]\n" +
		"  - parameter: allowed_retries\n    values: [0, 2]\n"
	fsys := fstest.MapFS{"pr-review-comment-001.json": {Data: src}, "g.matrix.yaml": {Data: []byte(m)}}
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, _ := l.LoadFS(fsys, "g.matrix.yaml")
	p, diags := Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	n := 0
	for j, err := range p.Jobs(t.Context()) {
		require.NoError(t, err)
		assert.Equal(t, "pr-review-comment-001", j.ScenarioID)
		assert.Equal(t, j.Params[0].Value, j.Scenario.Run[0].Input)
		assert.Equal(t, p.base.Checkpoints, j.Scenario.Checkpoints)
		n++
	}
	assert.Equal(t, 12, n)
}
