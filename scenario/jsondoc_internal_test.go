package scenario

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestJSONPositionsMatchYAML reads JSON files both ways, by JSON's rules and
// by a YAML parser, and expects the same values at the same lines and columns.
func TestJSONPositionsMatchYAML(t *testing.T) {
	t.Parallel()
	inputs := map[string][]byte{
		"inline": []byte(`{"a": [1, 2.5, -3e2, true, false, null, {"b": "c\"d", "é": "ü"}], "e": {}, "f": []}`),
		"nested": []byte("[\n  {\n    \"x\": 1,\n\t\"y\": [\n      \"z\"\n    ]\n  }\n]\n"),
		"crlf":   []byte("{\r\n  \"a\": [\r\n    1\r\n  ],\r  \"b\": {\r\"c\": 2}\r}"),
	}
	names, _ := filepath.Glob("../testdata/shared/peer/ghx-scenarios/*.json")
	require.NotEmpty(t, names)
	for _, n := range names {
		b, err := os.ReadFile(n)
		require.NoError(t, err)
		inputs[n] = b
	}
	for name, data := range inputs {
		require.True(t, looksLikeJSON(data), name)
		fromJSON, ds := ParseDocument(name, data, Limits{})
		require.Empty(t, ds, name)
		var y yaml.Node
		require.NoError(t, yaml.NewDecoder(bytes.NewReader(data)).Decode(&y), name)
		fromYAML := &Document{File: name, Value: fromJSON.Value, root: y.Content[0]}
		var walk func(v any, p Path)
		walk = func(v any, p Path) {
			l1, c1, ok1 := fromJSON.LocateKey(p)
			l2, c2, ok2 := fromYAML.LocateKey(p)
			assert.Equal(t, []any{l2, c2, ok2}, []any{l1, c1, ok1}, "%s %s key", name, p)
			l1, c1, _ = fromJSON.Locate(p)
			l2, c2, _ = fromYAML.Locate(p)
			assert.Equal(t, []int{l2, c2}, []int{l1, c1}, "%s %s", name, p)
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
		walk(fromJSON.Value, nil)
	}
}

func TestValidJSONThatYAMLRejects(t *testing.T) {
	t.Parallel()
	doc, ds := ParseDocument("a.json", []byte(`{"url": "https:\/\/example.com", "smile": "\ud83d\ude00", "n": 12345678901234567890}`), Limits{})
	require.Empty(t, ds)
	assert.Equal(t, map[string]any{"url": "https://example.com", "smile": "😀", "n": json.Number("12345678901234567890")}, doc.Value)
	line, col, ok := doc.Locate(Path{}.Key("smile"))
	assert.Equal(t, []any{1, 43, true}, []any{line, col, ok})
}
