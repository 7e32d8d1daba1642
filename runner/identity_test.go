package runner

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
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
	srcs, err := sources.Files(set.Files, sources.Options{})
	require.NoError(t, err)
	jobs, total, err := sources.Combine(srcs, matrix.Shard{})
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

// TestFileSourcesRefuseSharedJobIDs: files that a host loaded one by one
// (not with scenario.Loader.LoadPaths) can still share an id; the run refuses them rather than
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
	_, err := sources.Files(files, sources.Options{})
	require.EqualError(t, err, "a/x.scenario.yaml and b/x.scenario.yaml would give their jobs the same ids (x/-/...); give one of them another id or file name")
	set, err := l.LoadDirFS(fsys, ".")
	require.NoError(t, err)
	_, err = sources.Files(set.Files, sources.Options{})
	require.NoError(t, err)
}

// On resume a matrix yields the jobs the run skips as headers: the same
// ids and indexes, no scenario built; the others are built as always. (A
// plain scenario's jobs share its one scenario: nothing to save there.)
func TestSkippedMatrixJobsAreNotBuilt(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"base.scenario.yaml": {Data: []byte(identityBase)},
		"m.matrix.yaml":      {Data: []byte("name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 2\nmatrix:\n  - parameter: name\n    values: [A, B, C]\n")},
	}
	set, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadDirFS(fsys, ".")
	require.NoError(t, err)
	collect := func(opts sources.Options, sh matrix.Shard) []matrix.Job {
		srcs, err := sources.Files(set.Files, opts)
		require.NoError(t, err)
		jobs, _, err := sources.Combine(srcs, sh)
		require.NoError(t, err)
		var out []matrix.Job
		for j, err := range jobs {
			require.NoError(t, err)
			out = append(out, j)
		}
		return out
	}
	for _, sh := range []matrix.Shard{{}, {Index: 2, Count: 3}} {
		all := collect(sources.Options{}, sh)
		skipped := map[string]bool{}
		for i, j := range all {
			if i%2 == 0 {
				skipped[j.ID] = true
			}
		}
		got := collect(sources.Options{Skip: func(id string) bool { return skipped[id] }}, sh)
		require.Len(t, got, len(all))
		for i, j := range got {
			assert.Equal(t, all[i].ID, j.ID)
			assert.Equal(t, all[i].Index, j.Index)
			if skipped[j.ID] && j.Matrix != "" {
				assert.Nil(t, j.Scenario, "%s is skipped: not built", j.ID)
			} else {
				require.NotNil(t, j.Scenario, j.ID)
				assert.Equal(t, all[i].Scenario.Name, j.Scenario.Name)
			}
		}
	}
}

// BenchmarkResumeSkipsRecordedMatrixJobs walks a 10^4-job matrix whose
// jobs are all recorded: by header (Skip) or building every scenario.
func BenchmarkResumeSkipsRecordedMatrixJobs(b *testing.B) {
	values := make([]string, 1000)
	for i := range values {
		values[i] = fmt.Sprintf("v%d", i)
	}
	fsys := fstest.MapFS{
		"base.scenario.yaml": {Data: []byte(identityBase)},
		"m.matrix.yaml":      {Data: []byte("name: m\nbase_scenario: base.scenario.yaml\nruns_per_combination: 10\nmatrix:\n  - parameter: run[0].input\n    values: [" + strings.Join(values, ", ") + "]\n")},
	}
	set, err := scenario.NewLoader(NewRegistries(), scenario.Options{}).LoadDirFS(fsys, ".")
	require.NoError(b, err)
	var m *scenario.File
	for _, f := range set.Files {
		if f.Matrix != nil {
			m = f
		}
	}
	all := func(string) bool { return true }
	for _, bc := range []struct {
		name string
		skip func(string) bool
	}{{"build", nil}, {"header", all}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				src, err := sources.Matrix(m, sources.Options{Skip: bc.skip})
				require.NoError(b, err)
				n := 0
				for j, err := range src.Jobs(0, matrix.Shard{}) {
					if err != nil || (bc.skip == nil) == (j.Scenario == nil) {
						b.Fatal(err)
					}
					n++
				}
				if n != 10_000 {
					b.Fatal(n)
				}
			}
		})
	}
}
