package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func TestDiagnosticJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := scenario.Diagnostics{
		{File: "a.yaml", Line: 3, Column: 7, Path: "run[0].input", Severity: scenario.Error, Code: "type", Message: "got number, want string"},
		{File: "a.yaml", Line: 4, Column: 1, Path: "extra", Severity: scenario.Warning, Code: "unknown-field", Message: `unknown field "extra"`, Suggestion: "tags"},
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"severity":"warning"`)
	var out scenario.Diagnostics
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, in, out)
	var s scenario.Severity
	assert.EqualError(t, json.Unmarshal([]byte(`"fatal"`), &s), `scenario: unknown severity "fatal"; want error or warning`)
}

func TestDiagnosticsError(t *testing.T) {
	t.Parallel()
	ds := scenario.Diagnostics{
		{File: "a.yaml", Line: 1, Column: 1, Severity: scenario.Warning, Code: "no-checks", Message: "checks nothing"},
		{File: "a.yaml", Line: 2, Column: 5, Path: "name", Severity: scenario.Error, Code: "type", Message: "got number, want string"},
		{File: "a.yaml", Path: "id", Severity: scenario.Error, Code: "duplicate-id", Message: "taken", Suggestion: "b"},
	}
	assert.Equal(t, `a.yaml:2:5: error: name: got number, want string (and 1 more errors)`, ds.Error())
	assert.Equal(t, `a.yaml: error: id: taken (did you mean "b"?)`, ds[2].String())
	assert.Len(t, ds.Errors(), 2)
	assert.Len(t, ds.Warnings(), 1)
	assert.Len(t, ds, 3, "Errors and Warnings do not modify the list")
	assert.NoError(t, ds[:1].Err())
	assert.Equal(t, "no errors", ds[:1].Error())
	sorted := append(scenario.Diagnostics{ds[1]}, ds...).Sort()
	assert.Equal(t, []int{0, 1, 2}, []int{sorted[0].Line, sorted[1].Line, sorted[2].Line}, "sorted by position, exact repeats dropped")
}

func TestPath(t *testing.T) {
	t.Parallel()
	p := scenario.Path{}.Key("setup").Key("virtual_fs").Key("data/a.json")
	assert.Equal(t, `setup.virtual_fs["data/a.json"]`, p.String())
	assert.Equal(t, `/setup/virtual_fs/data~1a.json`, p.Pointer())
	q := scenario.Path{}.Key("run").Index(0).Key("evaluations").Index(2).Key("type")
	assert.Equal(t, "run[0].evaluations[2].type", q.String())
	assert.Equal(t, q, scenario.ParsePointer(q.Pointer()))
	assert.Equal(t, scenario.Path{}.Key("a~b"), scenario.ParsePointer("/a~0b"))
	assert.Nil(t, scenario.ParsePointer(""))
	assert.Equal(t, scenario.Path{}.Key(""), scenario.ParsePointer("/"))
	base := scenario.Path{}.Key("a")
	x, y := base.Key("x"), base.Key("y")
	assert.Equal(t, "a.x", x.String(), "appending does not share storage")
	assert.Equal(t, "a.y", y.String())
}

func TestKinds(t *testing.T) {
	t.Parallel()
	for _, k := range scenario.SchemaKinds() {
		got, err := scenario.ParseKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, got)
	}
	_, err := scenario.ParseKind("matrx")
	assert.EqualError(t, err, `unknown document kind "matrx"; want one of scenario, eval, matrix, manifest, sets, suite, eval-config (did you mean "matrix"?)`)
	tests := []struct {
		name  string
		value any
		want  scenario.Kind
	}{
		{"x.scenario.yaml", nil, scenario.KindScenario},
		{`dir\x.Matrix.YML`, nil, scenario.KindMatrix},
		{"scenario-sets.json", nil, scenario.KindScenarioSets},
		{"a.json", map[string]any{"id": "a-001", "prompt": "p"}, scenario.KindGitHub},
		{"m.json", map[string]any{"seedId": "s"}, scenario.KindManifest},
		{"s.yaml", map[string]any{"run": []any{}}, scenario.KindScenario},
		{"m.yaml", map[string]any{"base_scenario": "x"}, scenario.KindMatrix},
		{"sets.json", map[string]any{"a": []any{"x-001"}}, scenario.KindScenarioSets},
		{"n.yaml", map[string]any{"title": "x"}, scenario.KindUnknown},
		{"n.yaml", []any{}, scenario.KindUnknown},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, scenario.DetectKind(tt.name, tt.value), tt.name)
	}
	assert.Equal(t, "Kind(42)", scenario.Kind(42).String())
}
