package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiagnosticJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := Diagnostics{
		{File: "a.yaml", Line: 3, Column: 7, Path: Path{}.Key("run").Index(0).Key("input"), Severity: Error, Code: "type", Message: "got number, want string"},
		{File: "a.yaml", Line: 4, Column: 1, Path: Path{}.Key("extra"), Severity: Warning, Code: "unknown-field", Message: `unknown field "extra"`, Suggestion: "tags"},
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"severity":"warning"`)
	var out Diagnostics
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, in, out)
	var s Severity
	assert.EqualError(t, json.Unmarshal([]byte(`"fatal"`), &s), `scenario: unknown severity "fatal"; want error or warning`)
}

func TestDiagnosticsError(t *testing.T) {
	t.Parallel()
	ds := Diagnostics{
		{File: "a.yaml", Line: 1, Column: 1, Severity: Warning, Code: "no-checks", Message: "checks nothing"},
		{File: "a.yaml", Line: 2, Column: 5, Path: Path{}.Key("name"), Severity: Error, Code: "type", Message: "got number, want string"},
		{File: "a.yaml", Path: Path{}.Key("id"), Severity: Error, Code: "duplicate-id", Message: "taken", Suggestion: "b"},
	}
	assert.Equal(t, `a.yaml:2:5: error: name: got number, want string (and 1 more errors)`, ds.Error())
	assert.Equal(t, `a.yaml: error: id: taken (did you mean "b"?)`, ds[2].String())
	assert.Len(t, ds.Errors(), 2)
	assert.Len(t, ds, len(ds.Errors())+1, "one warning")
	assert.Len(t, ds, 3, "Errors and Warnings do not modify the list")
	assert.NoError(t, ds[:1].err())
	assert.Equal(t, "a.yaml:1:1: warning: checks nothing", ds[:1].Error(), "warnings only: never \"no errors\"")
	assert.Equal(t, "a.yaml:1:1: warning: checks nothing (and 1 more warnings)", Diagnostics{ds[0], ds[0]}.Error())
	assert.Equal(t, "no diagnostics", Diagnostics{}.Error())
	sorted := append(Diagnostics{ds[1]}, ds...).Sort()
	assert.Equal(t, []int{0, 1, 2}, []int{sorted[0].Line, sorted[1].Line, sorted[2].Line}, "sorted by position, exact repeats dropped")
}

func TestPath(t *testing.T) {
	t.Parallel()
	p := Path{}.Key("setup").Key("virtual_fs").Key("data/a.json")
	assert.Equal(t, `setup.virtual_fs["data/a.json"]`, p.String())
	assert.Equal(t, `/setup/virtual_fs/data~1a.json`, p.pointer())
	q := Path{}.Key("run").Index(0).Key("evaluations").Index(2).Key("type")
	assert.Equal(t, "run[0].evaluations[2].type", q.String())
	assert.Equal(t, q, parsePointer(q.pointer()))
	assert.Equal(t, Path{}.Key("a~b"), parsePointer("/a~0b"))
	assert.Nil(t, parsePointer(""))
	assert.Equal(t, Path{}.Key(""), parsePointer("/"))
	base := Path{}.Key("a")
	x, y := base.Key("x"), base.Key("y")
	assert.Equal(t, "a.x", x.String(), "appending does not share storage")
	assert.Equal(t, "a.y", y.String())
}

func TestKinds(t *testing.T) {
	t.Parallel()
	for _, k := range SchemaKinds() {
		got, err := ParseKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, got)
	}
	_, err := ParseKind("matrx")
	assert.EqualError(t, err, `unknown document kind "matrx"; want one of scenario, eval, matrix, manifest, sets, suite, eval-config (did you mean "matrix"?)`)
	tests := []struct {
		name  string
		value any
		want  Kind
	}{
		{"x.scenario.yaml", nil, KindScenario},
		{`dir\x.Matrix.YML`, nil, KindMatrix},
		{"scenario-sets.json", nil, KindScenarioSets},
		{"a.json", map[string]any{"id": "a-001", "prompt": "p"}, KindGitHub},
		{"m.json", map[string]any{"seedId": "s"}, KindManifest},
		{"s.yaml", map[string]any{"run": []any{}}, KindScenario},
		{"m.yaml", map[string]any{"base_scenario": "x"}, KindMatrix},
		{"sets.json", map[string]any{"a": []any{"x-001"}}, KindScenarioSets},
		{"n.yaml", map[string]any{"title": "x"}, KindUnknown},
		{"n.yaml", []any{}, KindUnknown},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, detectKind(tt.name, tt.value), tt.name)
	}
	assert.Equal(t, "Kind(42)", Kind(42).String())
}

// A Diagnostic's Path reads back from its text (validate --format json):
// keys, indexes and quoted keys; text that is no path is an error.
func TestPathText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want Path
	}{
		{"", nil},
		{"run[0].evaluations[2].type", Path{}.Key("run").Index(0).Key("evaluations").Index(2).Key("type")},
		{`setup.virtual_fs["data.json"]`, Path{}.Key("setup").Key("virtual_fs").Key("data.json")},
		{`["a]\"b"][3]`, Path{}.Key(`a]"b`).Index(3)},
		{`[""].x`, Path{}.Key("").Key("x")},
	} {
		var p Path
		require.NoError(t, p.UnmarshalText([]byte(tt.text)), tt.text)
		assert.Equal(t, tt.want, p, tt.text)
		assert.Equal(t, tt.text, tt.want.String())
	}
	for _, bad := range []string{".a", "a..b", "a[", "a[x]", `a["b`, `a["b"`, "a[-1]", "a b"} {
		var p Path
		assert.Error(t, p.UnmarshalText([]byte(bad)), bad)
	}
}

// FuzzPathText: reading a path never panics, and what it read prints as
// text that reads back the same.
func FuzzPathText(f *testing.F) {
	for _, s := range []string{"", "run[0].evaluations[2].type", `setup.virtual_fs["data.json"]`, `[""]`, "a[01]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p Path
		if p.UnmarshalText([]byte(s)) != nil {
			return
		}
		var q Path
		require.NoError(t, q.UnmarshalText([]byte(p.String())), "%q printed as %q", s, p.String())
		assert.Equal(t, len(p), len(q))
		assert.Equal(t, p.String(), q.String())
	})
}
