package scenario

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const identityScenario = "name: t\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations: [{type: string_contains, value: hi}]\njudgment: {strategy: all_pass}\n"

// identityTree is laid out as ElizaOS's packages/cli was: two valid files
// of one name in different directories, and two simple-test matrices over
// one base.
func identityTree() fstest.MapFS {
	matrix := func(base string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("name: Simple Test Matrix\nbase_scenario: " + base + "\nmatrix:\n  - parameter: name\n    values: [Test A, Test B]\n")}
	}
	return fstest.MapFS{
		"cli/examples/analyze-past-trade.scenario.yaml":               {Data: []byte(identityScenario)},
		"cli/docs/example_scenarios/analyze-past-trade.scenario.yaml": {Data: []byte(identityScenario)},
		"cli/examples/test-github-issues.scenario.yaml":               {Data: []byte(identityScenario)},
		"cli/examples/simple-test.matrix.yaml":                        matrix("test-github-issues.scenario.yaml"),
		"cli/simple-test.matrix.yaml":                                 matrix("examples/test-github-issues.scenario.yaml"),
		"cli/examples/declared.scenario.yaml":                         {Data: []byte("id: pr-fix-001\n" + identityScenario)},
	}
}

func fileIDs(t *testing.T, files []*File) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range files {
		out[f.Name] = f.ID
		if f.Scenario != nil {
			assert.Equal(t, f.ID, f.Scenario.ID, "a scenario's file id is its id")
		}
		if f.Base != nil {
			out["base of "+f.Name] = f.Base.ID
		}
	}
	return out
}

// TestDerivedIDsComeFromPathsUnderTheCommonRoot: two valid files of one
// name in different directories are two scenarios, not a duplicate (issue 13
// point 2), named by their paths under the deepest directory holding both;
// matrices are named by their own path, so two simple-test matrices over one
// base give their jobs different ids (issue 11 point 4); a file whose name
// no other file shares keeps its bare name; a written id is kept.
func TestDerivedIDsComeFromPathsUnderTheCommonRoot(t *testing.T) {
	t.Parallel()
	set, err := NewLoader(testRegistries{}, Options{}).LoadDirFS(identityTree(), "cli")
	require.NoError(t, err, "%v", set.Diagnostics)
	assert.Equal(t, map[string]string{
		"cli/docs/example_scenarios/analyze-past-trade.scenario.yaml": "docs/example_scenarios/analyze-past-trade",
		"cli/examples/analyze-past-trade.scenario.yaml":               "examples/analyze-past-trade",
		"cli/examples/declared.scenario.yaml":                         "pr-fix-001",
		"cli/examples/simple-test.matrix.yaml":                        "examples/simple-test",
		"base of cli/examples/simple-test.matrix.yaml":                "test-github-issues",
		"cli/examples/test-github-issues.scenario.yaml":               "test-github-issues",
		"cli/simple-test.matrix.yaml":                                 "simple-test",
		"base of cli/simple-test.matrix.yaml":                         "test-github-issues",
	}, fileIDs(t, set.Files))
}

// TestDerivedIDsAreStable: the ids depend on the paths only: not on the
// order of the files, not on being assigned twice, and a file loaded on its
// own keeps its bare name.
func TestDerivedIDsAreStable(t *testing.T) {
	t.Parallel()
	fsys := identityTree()
	l := NewLoader(testRegistries{}, Options{})
	load := func(names ...string) []*File {
		var out []*File
		for _, n := range names {
			f, err := l.LoadFS(fsys, n)
			require.NoError(t, err)
			out = append(out, f)
		}
		return out
	}
	a := load("cli/examples/analyze-past-trade.scenario.yaml", "cli/docs/example_scenarios/analyze-past-trade.scenario.yaml")
	assert.Equal(t, "analyze-past-trade", a[0].ID, "loaded on its own")
	assignIDs(a)
	want := fileIDs(t, a)
	assert.Equal(t, "examples/analyze-past-trade", want["cli/examples/analyze-past-trade.scenario.yaml"])
	assignIDs(a)
	assert.Equal(t, want, fileIDs(t, a), "assigning again changes nothing")
	b := load("cli/docs/example_scenarios/analyze-past-trade.scenario.yaml", "cli/examples/analyze-past-trade.scenario.yaml")
	assignIDs(b)
	assert.Equal(t, want, fileIDs(t, b), "the order of the files changes nothing")

	one := load("cli/examples/simple-test.matrix.yaml")
	assignIDs(one)
	assert.Equal(t, "simple-test", one[0].ID, "a file on its own keeps its bare name")
	assert.Equal(t, "test-github-issues", one[0].Base.ID)
	far := load("cli/simple-test.matrix.yaml")
	assignIDs(far)
	assert.Equal(t, map[string]string{"cli/simple-test.matrix.yaml": "simple-test", "base of cli/simple-test.matrix.yaml": "test-github-issues"},
		fileIDs(t, far), "a base in another directory keeps its bare name too")
}

// TestAddingAFolderKeepsTheIDs: a base run over scenarios/ and a candidate
// over scenarios/ and more/ give the files of scenarios/ the same ids, or
// report compare would match nothing (issue 25 point 1); a file's id does
// not depend on the order of the paths either.
func TestAddingAFolderKeepsTheIDs(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"work/scenarios/login.scenario.yaml":       {Data: []byte(identityScenario)},
		"work/scenarios/sub/search.scenario.yaml":  {Data: []byte(identityScenario)},
		"work/scenarios/grid.matrix.yaml":          {Data: []byte("name: grid\nbase_scenario: login.scenario.yaml\nmatrix:\n  - parameter: name\n    values: [A, B]\n")},
		"work/more/checkout.scenario.yaml":         {Data: []byte(identityScenario)},
		"elsewhere/deep/more/refund.scenario.yaml": {Data: []byte(identityScenario)},
	}
	l := NewLoader(testRegistries{}, Options{})
	load := func(names ...string) map[string]string {
		var files []*File
		for _, n := range names {
			f, err := l.LoadFS(fsys, n)
			require.NoError(t, err)
			files = append(files, f)
		}
		assignIDs(files)
		return fileIDs(t, files)
	}
	base := load("work/scenarios/login.scenario.yaml", "work/scenarios/sub/search.scenario.yaml", "work/scenarios/grid.matrix.yaml")
	assert.Equal(t, map[string]string{
		"work/scenarios/login.scenario.yaml":      "login",
		"work/scenarios/sub/search.scenario.yaml": "search",
		"work/scenarios/grid.matrix.yaml":         "grid",
		"base of work/scenarios/grid.matrix.yaml": "login",
	}, base)
	cand := load("work/more/checkout.scenario.yaml", "elsewhere/deep/more/refund.scenario.yaml",
		"work/scenarios/grid.matrix.yaml", "work/scenarios/sub/search.scenario.yaml", "work/scenarios/login.scenario.yaml")
	for name, id := range base {
		assert.Equal(t, id, cand[name], "%s keeps its id when more folders are given", name)
	}
	assert.Equal(t, "checkout", cand["work/more/checkout.scenario.yaml"])
}

// TestWrittenIDsStayStrict: ids a file writes must still be unique, and a
// derived id that meets a written one is still reported.
func TestWrittenIDsStayStrict(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"d/a/one.scenario.yaml": {Data: []byte("id: same\n" + identityScenario)},
		"d/b/two.scenario.yaml": {Data: []byte("id: same\n" + identityScenario)},
		"d/same.scenario.yaml":  {Data: []byte(identityScenario)},
	}
	set, err := NewLoader(testRegistries{}, Options{}).LoadDirFS(fsys, "d")
	require.Error(t, err)
	var msgs []string
	for _, d := range set.Diagnostics.Errors() {
		msgs = append(msgs, d.File+": "+d.Message)
	}
	slices.Sort(msgs)
	assert.Equal(t, []string{
		`d/b/two.scenario.yaml: scenario id "same" is already used by d/a/one.scenario.yaml`,
		`d/same.scenario.yaml: scenario id "same" (from the file name) is already used by d/a/one.scenario.yaml; give one of them an id`,
	}, msgs)
}

// TestAMatrixAndAScenarioOfOneNameInTwoFoldersDiffer: a matrix whose
// filters leave one combination gives its jobs the ids of a plain
// scenario's (name/-/run-N), so a matrix and a scenario of one name in
// different folders are told apart by their folders like any two files of
// one name.
func TestAMatrixAndAScenarioOfOneNameInTwoFoldersDiffer(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"w/a/x.scenario.yaml": {Data: []byte(identityScenario)},
		"w/b/x.matrix.yaml":   {Data: []byte("name: x\nbase_scenario: ../a/x.scenario.yaml\nmatrix:\n  - parameter: name\n    values: [A]\n")},
	}
	l := NewLoader(testRegistries{}, Options{})
	var files []*File
	for _, n := range []string{"w/a/x.scenario.yaml", "w/b/x.matrix.yaml"} {
		f, err := l.LoadFS(fsys, n)
		require.NoError(t, err)
		files = append(files, f)
	}
	assignIDs(files)
	assert.Equal(t, map[string]string{"w/a/x.scenario.yaml": "a/x", "w/b/x.matrix.yaml": "b/x", "base of w/b/x.matrix.yaml": "a/x"}, fileIDs(t, files))
}
