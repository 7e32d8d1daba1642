package matrix

import (
	"fmt"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testvocab"
	"github.com/agenteval/agenteval/scenario"
)

// loadMatrix loads matrix text next to the fixture base scenario.
func loadMatrix(t testing.TB, text string) (*scenario.Loader, *scenario.File) {
	t.Helper()
	base, err := os.ReadFile("testdata/base.scenario.yaml")
	require.NoError(t, err)
	fsys := fstest.MapFS{"base.scenario.yaml": {Data: base}, "m.matrix.yaml": {Data: []byte(text)}}
	l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
	f, _ := l.LoadFS(fsys, "m.matrix.yaml")
	return l, f
}

// oneAxis writes a matrix with one axis; line 4 holds the parameter (its
// text starts at column 16) and line 5 the values (from column 13).
func oneAxis(param, values string) string {
	return fmt.Sprintf("name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: '%s'\n    values: %s\n", param, values)
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name       string
		matrix     string
		line, col  int
		path, code string
		msg        string
		suggestion string
	}{
		{"missing intermediate", oneAxis("run[0].conversation.max_turns", "[1]"), 4, 16, "matrix[0].parameter", "path-missing",
			"run[0].conversation.max_turns: run[0].conversation is not set in the base scenario, and a matrix varies values without creating them; vary run[0].conversation as a whole instead", ""},
		{"index out of range", oneAxis("run[5].input", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			"run[5].input: index 5 is out of range: run has 2 element(s) in the base scenario (indexes 0 to 1)", ""},
		{"empty list", oneAxis("run[0].evaluations[0].value", "[a]"), 0, 0, "", "", "", ""}, // valid: see TestCompileValid
		{"misspelt field", oneAxis("run[0].inptu", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`run[0].inptu: run[0] has no field "inptu"`, "input"},
		{"misspelt map key", oneAxis(`setup.virtual_fs["data.jsn"]`, "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`setup.virtual_fs["data.jsn"]: setup.virtual_fs has no key "data.jsn" in the base scenario (it has "data.json", "notes/readme.md")`, "data.json"},
		{"dotted map key", oneAxis("setup.virtual_fs.data.json", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`setup.virtual_fs.data.json: setup.virtual_fs has no key "data"; a key with dots must be quoted: setup.virtual_fs["data.json"]`, ""},
		{"misspelt parameter of an evaluation", oneAxis("run[0].evaluations[0].valeu", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`run[0].evaluations[0].valeu: run[0].evaluations[0] has no field "valeu"`, "value"},
		{"misspelt extra key", oneAxis("character.favourite_color", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`character.favourite_color: character has no field "favourite_color"`, "favorite_color"},
		{"key on a list", oneAxis("run.input", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			"run.input: run is a list, not an object; index it as run[0]", ""},
		{"index on an object", oneAxis("judgment[0]", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			"judgment[0]: judgment is an object, not a list; name one of its fields instead of [0]", ""},
		{"index on a map", oneAxis("setup.virtual_fs[0]", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`setup.virtual_fs[0]: setup.virtual_fs is a map, not a list; address an entry by its key, as in setup.virtual_fs["name"]`, ""},
		{"into a scalar", oneAxis("name.x", "[a]"), 4, 16, "matrix[0].parameter", "path-missing",
			`name.x: name is a single value (text), so it has no field "x"`, ""},
		{"evaluation type", oneAxis("run[0].evaluations[0].type", "[regex_match]"), 4, 16, "matrix[0].parameter", "path-forbidden",
			"run[0].evaluations[0].type: an evaluation's type cannot be varied on its own, since its other fields belong to the type; vary the whole evaluation (run[0].evaluations[0]) instead", ""},
		{"syntax", oneAxis("run[0.input", "[a]"), 4, 16, "matrix[0].parameter", "path-syntax",
			`path "run[0.input": at character 6: expected ']' to close the index, found '.'`, ""},
		{"unquoted key", oneAxis("plugins[1].config.api-key", "[a]"), 4, 16, "matrix[0].parameter", "path-syntax",
			`path "plugins[1].config.api-key": at character 22: unexpected '-'; expected '.', '[' or the end; quote keys that are not identifiers: plugins[1].config["api-key"]`, ""},
		{"wrong type", oneAxis("run[1].conversation.max_turns", `[3, "many"]`), 5, 17, "matrix[0].values[1]", "type",
			"run[1].conversation.max_turns: got string, want integer", ""},
		{"not in enum", oneAxis("judgment.strategy", "[all_pass, all_pas]"), 5, 24, "matrix[0].values[1]", "enum",
			`judgment.strategy: "all_pas" is not one of all_pass, any_pass, majority_pass, weighted`, "all_pass"},
		{"below minimum of a defaulted field", oneAxis("run[1].conversation.timeout_per_turn_ms", "[0]"), 5, 14, "matrix[0].values[0]", "range",
			"run[1].conversation.timeout_per_turn_ms: 0 is below the minimum 1", ""},
		{"repeated value", oneAxis("run[1].conversation.max_turns", "[2, 2.0]"), 5, 17, "matrix[0].values[1]", "duplicate-value",
			"run[1].conversation.max_turns: value 2 is already given as values[0]; repeated values would make the same combination twice", ""},
		{"same slot twice", "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: name\n    values: [a]\n  - parameter: '[\"name\"]'\n    values: [b]\n",
			6, 16, "matrix[1].parameter", "path-overlap",
			`name overlaps the parameter name of an earlier axis; each part of the scenario can be varied by one axis only`, ""},
		{"nested slots", "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n  - parameter: run[1].conversation.max_turns\n    values: [2]\n  - parameter: run[1].conversation\n    values: [{max_turns: 4}]\n",
			6, 16, "matrix[1].parameter", "path-overlap",
			`run[1].conversation overlaps the parameter run[1].conversation.max_turns of an earlier axis; each part of the scenario can be varied by one axis only`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f := loadMatrix(t, tt.matrix)
			p, diags := Compile(f, Options{})
			if tt.code == "" {
				require.False(t, diags.HasErrors(), "%v", diags)
				require.NotNil(t, p)
				return
			}
			require.Nil(t, p)
			errs := diags.Errors()
			require.Len(t, errs, 1, "%v", errs)
			d := errs[0]
			assert.Equal(t, "m.matrix.yaml", d.File)
			assert.Equal(t, tt.line, d.Line, "line")
			assert.Equal(t, tt.col, d.Column, "column")
			assert.Equal(t, tt.path, d.Path.String())
			assert.Equal(t, tt.code, d.Code)
			assert.Equal(t, tt.msg, d.Message)
			assert.Equal(t, tt.suggestion, d.Suggestion)
		})
	}
}

func TestCompileReportsEveryBadValue(t *testing.T) {
	_, f := loadMatrix(t, "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n"+
		"  - parameter: run[1].conversation.max_turns\n    values:\n      - 2\n      - many\n      - 0\n"+
		"  - parameter: judgment.strategy\n    values: [best_of]\n")
	p, diags := Compile(f, Options{})
	require.Nil(t, p)
	var got []string
	for _, d := range diags.Errors() {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Path, d.Code))
	}
	assert.Equal(t, []string{
		"7:9 matrix[0].values[1] type",
		"8:9 matrix[0].values[2] range",
		"10:14 matrix[1].values[0] enum",
	}, got)
}

func TestCompileFileProblems(t *testing.T) {
	t.Run("not a matrix", func(t *testing.T) {
		l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
		f, err := l.LoadFile("testdata/base.scenario.yaml")
		require.NoError(t, err)
		p, diags := Compile(f, Options{})
		require.Nil(t, p)
		require.Len(t, diags.Errors(), 1)
		assert.Equal(t, "kind", diags.Errors()[0].Code)
		assert.Equal(t, "testdata/base.scenario.yaml is a scenario file, not a matrix", diags.Errors()[0].Message)
	})
	t.Run("base missing", func(t *testing.T) {
		fsys := fstest.MapFS{"m.matrix.yaml": {Data: []byte(oneAxis("name", "[a]"))}}
		l := scenario.NewLoader(testvocab.Registries(), scenario.Options{})
		f, _ := l.LoadFS(fsys, "m.matrix.yaml")
		p, diags := Compile(f, Options{})
		require.Nil(t, p)
		require.True(t, diags.HasErrors())
		assert.Equal(t, "base_scenario", diags.Errors()[0].Path.String())
	})
	t.Run("nil file", func(t *testing.T) {
		p, diags := Compile(nil, Options{})
		require.Nil(t, p)
		assert.True(t, diags.HasErrors())
	})
	t.Run("bad filter", func(t *testing.T) {
		_, f := loadMatrix(t, oneAxis("name", "[a, b]"))
		flt, err := parseFilter("nme=a")
		require.NoError(t, err)
		p, diags := Compile(f, Options{Filters: []Filter{flt}})
		require.Nil(t, p)
		require.Len(t, diags.Errors(), 1)
		assert.Equal(t, "select", diags.Errors()[0].Code)
		assert.Equal(t, `filter "nme=a": nme is not a parameter of this matrix; its parameters are name (did you mean "name"?)`, diags.Errors()[0].Message)
	})
}

// TestCompileValid covers paths that exist only once defaults are applied,
// an evaluation's own parameters, free-form character keys, quoted map keys,
// whole objects as values, and a value that changes another field's default.
func TestCompileValid(t *testing.T) {
	l, f := loadMatrix(t, "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n"+
		"  - parameter: run[1].conversation.timeout_per_turn_ms\n    values: [1000, 2000]\n"+
		"  - parameter: run[1].conversation.user_simulator.knowledge_level\n    values: [beginner, expert]\n"+
		"  - parameter: run[0].evaluations[0]\n    values: [{type: regex_match, pattern: 'issues?'}, {type: string_contains, value: open, case_sensitive: true}]\n"+
		"  - parameter: character.favorite_color\n    values: [red, {shade: dark}]\n"+
		"  - parameter: plugins[1].config['api-key']\n    values: [k1, null]\n"+
		"  - parameter: judgment.strategy\n    values: [weighted]\n"+
		"  - parameter: run[0].evaluations\n    values: [[]]\n")
	p, diags := Compile(f, Options{})
	// run[0].evaluations overlaps run[0].evaluations[0]
	require.Nil(t, p)
	require.Equal(t, "path-overlap", diags.Errors()[0].Code)

	l, f = loadMatrix(t, "name: m\nbase_scenario: base.scenario.yaml\nmatrix:\n"+
		"  - parameter: run[1].conversation.timeout_per_turn_ms\n    values: [1000, 2000]\n"+
		"  - parameter: run[1].conversation.user_simulator.knowledge_level\n    values: [beginner, expert]\n"+
		"  - parameter: run[0].evaluations[0]\n    values: [{type: regex_match, pattern: 'issues?'}, {type: string_contains, value: open, case_sensitive: true}]\n"+
		"  - parameter: character.favorite_color\n    values: [red, {shade: dark}]\n"+
		"  - parameter: plugins[1].config['api-key']\n    values: [k1, null]\n"+
		"  - parameter: judgment.strategy\n    values: [weighted, any_pass]\n")
	p, diags = Compile(f, Options{})
	require.False(t, diags.HasErrors(), "%v", diags)
	assert.Equal(t, []string{
		"run[1].conversation.timeout_per_turn_ms",
		"run[1].conversation.user_simulator.knowledge_level",
		"run[0].evaluations[0]",
		"character.favorite_color",
		`plugins[1].config["api-key"]`,
		"judgment.strategy",
	}, p.Parameters())
	n, err := p.Count()
	require.NoError(t, err)
	assert.Equal(t, int64(64), n)
	for j, err := range p.Jobs(t.Context()) {
		require.NoError(t, err)
		checkAgainstLoader(t, l, f, p, j)
	}
}
