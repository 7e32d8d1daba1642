package scenario

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMatrixSchemaLetsValuesBeAnything holds what schemaView relies on to
// validate only the first of a matrix axis's values: the matrix schema puts
// no constraint on an item.
func TestMatrixSchemaLetsValuesBeAnything(t *testing.T) {
	t.Parallel()
	raw, err := schemaFiles.ReadFile("schemas/matrix.schema.json") // kept equal to the generated one by TestSchemaFilesUpToDate
	require.NoError(t, err)
	var doc struct {
		Defs map[string]struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	var values map[string]any
	require.NoError(t, json.Unmarshal(doc.Defs["Axis"].Properties["values"], &values))
	assert.Equal(t, true, values["items"], "an axis's values must stay free (items: true); if they gain a schema, drop schemaView's trimming")
}

func TestSchemaViewTrimsOnlyMatrixValues(t *testing.T) {
	t.Parallel()
	doc := map[string]any{"name": "m", "matrix": []any{
		map[string]any{"parameter": "a", "values": []any{"x", "y", "z"}},
		map[string]any{"parameter": "b", "values": []any{}},
		"not an axis",
	}}
	view := schemaView(KindMatrix, doc).(map[string]any)
	axes := view["matrix"].([]any)
	assert.Equal(t, []any{"x"}, axes[0].(map[string]any)["values"])
	assert.Equal(t, []any{}, axes[1].(map[string]any)["values"], "an empty list stays empty, so minItems still reports it")
	assert.Equal(t, "not an axis", axes[2])
	assert.Len(t, doc["matrix"].([]any)[0].(map[string]any)["values"], 3, "the document itself is not changed")
	assert.Equal(t, doc, schemaView(KindScenario, doc))
}
