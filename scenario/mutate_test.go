package scenario_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

// replacements are values of every JSON type, put in place of each value of
// a valid document in turn.
var replacements = []any{
	nil, true, json.Number("0"), json.Number("-1"), json.Number("1.5"), json.Number("1e300"),
	"", "x", "../x", []any{}, []any{json.Number("1")}, []any{"a", map[string]any{}},
	map[string]any{}, map[string]any{"type": "regex_match", "pattern": "("},
}

const ghxScenario = `{"id": "pr-fix-001", "name": "F", "description": "D", "prompt": "P", "timeoutMs": 5, "allowedRetries": 1,
 "tags": ["t"], "category": "pr", "difficulty": "basic",
 "fixture": {"repo": "{{fixture_repo}}", "requires": ["pr"], "bindings": {"n": "pr.number"}, "reseedPerIteration": true},
 "assertions": {"checkpoints": [
   {"id": "c", "description": "d", "task": "pr.view", "input": {"owner": "o"}, "condition": {"type": "field_equals", "path": "state", "value": "OPEN"}},
   {"id": "e", "description": "d", "task": "pr.view", "input": {}, "condition": {"type": "custom", "scorer": "s"}}],
   "expectedToolSequence": ["a"], "expectedCapabilities": ["b"]},
 "evaluations": [{"type": "string_contains", "value": "done"}], "judgment": {"strategy": "weighted", "threshold": 0.5}}`

// TestEveryValueReplaced puts a value of every type in place of each value
// of valid documents, one at a time, and loads the result both as plain data
// and as text: nothing panics, and a document that loads without errors has
// its decoded form.
func TestEveryValueReplaced(t *testing.T) {
	t.Parallel()
	docs := map[string]string{
		"typical.scenario.yaml": typicalScenario,
		"pr-fix-001.json":       ghxScenario,
		"manifest.json":         `{"seedId": "s", "createdAt": "2026-01-02T15:04:05Z", "repo": "a/b", "fixtures": {"pr": {"type": "pr", "number": 3, "repo": "a/b", "labels": ["l"], "metadata": {"originalSha": "x"}}}}`,
		"scenario-sets.json":    `{"default": ["pr-fix-001"]}`,
		"sweep.matrix.yaml":     "name: S\nbase_scenario: testdata/none.scenario.yaml\nruns_per_combination: 2\nmatrix:\n  - parameter: run[0].input\n    values: [a, {b: 1}]\n",
	}
	l := newLoader(scenario.Options{})
	for name, src := range docs {
		doc, ds := scenario.ParseDocument(name, []byte(src), scenario.Limits{})
		require.False(t, ds.HasErrors(), "%s: %v", name, ds)
		kind := scenario.DetectKind(name, doc.Value)
		var paths []scenario.Path
		var walk func(v any, p scenario.Path)
		walk = func(v any, p scenario.Path) {
			paths = append(paths, p)
			switch x := v.(type) {
			case map[string]any:
				for k, e := range x {
					walk(e, p.Key(k))
				}
			case []any:
				for i, e := range x {
					walk(e, p.Index(i))
				}
			}
		}
		walk(doc.Value, nil)
		for _, p := range paths {
			for _, r := range replacements {
				v := replaceAt(doc.Value, p, r)
				f, err := l.LoadValue(kind, name, v)
				require.NotNil(t, f)
				if err == nil && (kind == scenario.KindScenario || kind == scenario.KindGitHub) {
					require.NotNil(t, f.Scenario, "%s %s = %v", name, p, r)
				}
				text, jerr := json.Marshal(v)
				require.NoError(t, jerr)
				f, err = l.Load(name, text)
				require.NotNil(t, f)
				if err == nil && (kind == scenario.KindScenario || kind == scenario.KindGitHub) {
					require.NotNil(t, f.Scenario, "%s %s = %v", name, p, r)
				}
			}
		}
	}
}

// replaceAt returns a deep copy of v with the value at p replaced by r.
func replaceAt(v any, p scenario.Path, r any) any {
	if len(p) == 0 {
		return r
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		out[p[0].Key] = replaceAt(x[p[0].Key], p[1:], r)
		return out
	case []any:
		out := append([]any(nil), x...)
		out[p[0].Index] = replaceAt(x[p[0].Index], p[1:], r)
		return out
	}
	return v
}
