package runner

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

const identityBase = "name: t\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations: [{type: string_contains, value: hi}]\njudgment: {strategy: all_pass}\n"

// TestTwoMatricesOverOneBaseGetTheirOwnJobIDs: ElizaOS ships two
// simple-test.matrix.yaml in different directories over one base with the
// same values; their jobs are different jobs of the run and must not share
// ids (the report would drop half of them as duplicates).
func TestTwoMatricesOverOneBaseGetTheirOwnJobIDs(t *testing.T) {
	t.Parallel()
	matrixFile := func(base string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("name: Simple Test Matrix\nbase_scenario: " + base + "\nmatrix:\n  - parameter: name\n    values: [Test A, Test B]\n")}
	}
	fsys := fstest.MapFS{
		"cli/examples/test-github-issues.scenario.yaml": {Data: []byte(identityBase)},
		"cli/examples/simple-test.matrix.yaml":          matrixFile("test-github-issues.scenario.yaml"),
		"cli/simple-test.matrix.yaml":                   matrixFile("examples/test-github-issues.scenario.yaml"),
	}
	set, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadDirFS(fsys, "cli")
	require.NoError(t, err)
	sources, err := FileSources(set.Files, SourceOptions{})
	require.NoError(t, err)
	jobs, total, err := Combine(sources, matrix.Shard{})
	require.NoError(t, err)
	assert.EqualValues(t, 5, total)
	ids := map[string]int64{}
	for j, err := range jobs {
		require.NoError(t, err)
		prev, dup := ids[j.ID]
		assert.False(t, dup, "job %d has the id of job %d: %s", j.Index, prev, j.ID)
		ids[j.ID] = j.Index
		assert.Contains(t, []string{"examples/test-github-issues", "test-github-issues"}, j.Scenario.ID, "results still name the base scenario")
	}
	assert.Len(t, ids, 5)
}

// TestFileSourcesRefuseSharedJobIDs: files that a host loaded without
// scenario.AssignIDs can still share an id; the run refuses them rather than
// record one's jobs as the other's.
func TestFileSourcesRefuseSharedJobIDs(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"a/x.scenario.yaml": {Data: []byte(identityBase)},
		"b/x.scenario.yaml": {Data: []byte(identityBase)},
	}
	l := scenario.NewLoader(NewRegistries(), scenario.Options{})
	var files []*scenario.File
	for _, n := range []string{"a/x.scenario.yaml", "b/x.scenario.yaml"} {
		f, err := l.LoadFS(fsys, n)
		require.NoError(t, err)
		files = append(files, f)
	}
	_, err := FileSources(files, SourceOptions{})
	require.EqualError(t, err, "a/x.scenario.yaml and b/x.scenario.yaml would give their jobs the same ids (x/-/...); give one of them another id or file name")
	scenario.AssignIDs(files)
	_, err = FileSources(files, SourceOptions{})
	require.NoError(t, err)
}
