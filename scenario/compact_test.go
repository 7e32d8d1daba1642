package scenario_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agenteval/agenteval/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLongSequencePositions: a matrix's long list of values keeps every
// value's line and column once its nodes are let go, in YAML and JSON,
// and the value itself is whole.
func TestLongSequencePositions(t *testing.T) {
	t.Parallel()
	const n = 3000
	var y, j strings.Builder
	y.WriteString("name: m\nmatrix:\n  - parameter: run[0].input\n    values:\n")
	j.WriteString("{\"name\": \"m\", \"matrix\": [{\"parameter\": \"run[0].input\", \"values\": [\n")
	for i := range n {
		fmt.Fprintf(&y, "      - \"Question %d\"\n", i)
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&j, "  \"Question %d\"%s\n", i, sep)
	}
	j.WriteString("]}]}\n")
	for name, tc := range map[string]struct {
		text      string
		line, col int // of value 0
		seq       int // the sequence's line
	}{"yaml": {y.String(), 5, 9, 5}, "json": {j.String(), 2, 3, 1}} {
		doc, diags := scenario.ParseDocument("m.matrix."+name, []byte(tc.text), scenario.Limits{})
		require.Empty(t, diags, name)
		values := scenario.Path{}.Key("matrix").Index(0).Key("values")
		for _, i := range []int{0, 1, 1500, n - 1} {
			line, col, found := doc.Locate(values.Index(i))
			assert.True(t, found, "%s value %d", name, i)
			assert.Equal(t, tc.line+i, line, "%s value %d", name, i)
			assert.Equal(t, tc.col, col, "%s value %d", name, i)
		}
		_, _, found := doc.Locate(values.Index(n))
		assert.False(t, found, name)
		_, _, found = doc.Locate(values.Index(5).Key("x"))
		assert.False(t, found, name)
		line, _, found := doc.Locate(values)
		assert.True(t, found)
		assert.Equal(t, tc.seq, line, name)
		got := doc.Value.(map[string]any)["matrix"].([]any)[0].(map[string]any)["values"].([]any)
		require.Len(t, got, n)
		assert.Equal(t, "Question 2999", got[n-1])
	}
}

// TestMatrixFilesMayBeLarger: by default a matrix file may be larger than
// a scenario (64 MiB against 8), so that a matrix of many values loads
// where a scenario of its size is refused; a MaxBytes given caps both.
func TestMatrixFilesMayBeLarger(t *testing.T) {
	t.Parallel()
	var m strings.Builder
	m.WriteString("name: m\ndescription: d\nbase_scenario: small.scenario.yaml\nmatrix:\n  - parameter: run[0].input\n    values:\n")
	for i := 0; m.Len() <= 9<<20; i++ {
		fmt.Fprintf(&m, "      - \"Question %d: what is topic-%d?\"\n", i, i)
	}
	big := m.String()
	small := "name: b\ndescription: d\nenvironment: {type: local}\nrun:\n  - input: hi\n    evaluations: [{type: string_contains, value: hi}]\njudgment: {strategy: all_pass}\n"
	fsys := fstest.MapFS{"m.matrix.yaml": {Data: []byte(big)}, "small.scenario.yaml": {Data: []byte(small)},
		"b.scenario.yaml": {Data: []byte(small + "# " + strings.Repeat("x", len(big)) + "\n")}}
	sizeErrors := func(ds scenario.Diagnostics) (files []string) {
		for _, d := range ds {
			if d.Code == "size" {
				files = append(files, d.File)
			}
		}
		return files
	}
	l := scenario.NewLoader(builtins(), scenario.Options{})
	f, _ := l.LoadFS(fsys, "m.matrix.yaml")
	assert.Empty(t, sizeErrors(f.Diagnostics), "the matrix loads")
	assert.False(t, f.Diagnostics.HasErrors(), "%v", f.Diagnostics)
	f, _ = l.LoadFS(fsys, "b.scenario.yaml")
	assert.Equal(t, []string{"b.scenario.yaml"}, sizeErrors(f.Diagnostics))
	f, _ = scenario.NewLoader(builtins(), scenario.Options{Limits: scenario.Limits{MaxBytes: len(big) - 1}}).LoadFS(fsys, "m.matrix.yaml")
	assert.Equal(t, []string{"m.matrix.yaml"}, sizeErrors(f.Diagnostics))
}
