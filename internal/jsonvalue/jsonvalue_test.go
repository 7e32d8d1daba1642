package jsonvalue

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFloat(t *testing.T) {
	t.Parallel()
	for _, v := range []any{3, int8(3), int16(3), int32(3), int64(3), uint(3), uint8(3), uint16(3), uint32(3), uint64(3), float32(3), 3.0, json.Number("3")} {
		f, ok := Float(v)
		assert.True(t, ok, "%T", v)
		assert.Equal(t, 3.0, f, "%T", v)
	}
	for _, v := range []any{"3", nil, true, json.Number("x"), []any{1}} {
		_, ok := Float(v)
		assert.False(t, ok, "%#v", v)
	}
}

func TestCloneSharesNoContainer(t *testing.T) {
	t.Parallel()
	orig := map[string]any{"a": []any{1, map[string]any{"b": "c"}}, "n": nil, "s": "x"}
	c := Clone(orig).(map[string]any)
	assert.Equal(t, orig, c)
	c["a"].([]any)[1].(map[string]any)["b"] = "changed"
	c["a"].([]any)[0] = 2
	c["new"] = true
	assert.Equal(t, map[string]any{"a": []any{1, map[string]any{"b": "c"}}, "n": nil, "s": "x"}, orig)
	assert.Nil(t, Clone(nil))
	assert.Equal(t, "x", Clone("x"))
}
