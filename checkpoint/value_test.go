package checkpoint

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	type label struct {
		Name string `json:"name"`
	}
	type count int
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"plain object kept", obj("a", arr(1, int64(2), uint8(3), json.Number("4"))), obj("a", arr(1, int64(2), uint8(3), json.Number("4")))},
		{"typed slice", []string{"bug", "ui"}, arr("bug", "ui")},
		{"typed map", map[string]int{"n": 2}, obj("n", json.Number("2"))},
		{"struct", struct {
			Items []label `json:"items"`
		}{[]label{{"bug"}}}, obj("items", arr(obj("name", "bug")))},
		{"named number", count(3), json.Number("3")},
		{"nested typed value", obj("labels", []string{"x"}), obj("labels", arr("x"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := normalize(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	_, err := normalize(obj("ch", make(chan int)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not JSON data")
}

func TestConditionsOnTypedData(t *testing.T) {
	t.Parallel()
	// An executor may return Go values rather than decoded JSON; the
	// conditions see them as JSON.
	type review struct {
		State string   `json:"state"`
		Tags  []string `json:"tags"`
	}
	data := struct {
		Items []review `json:"items"`
	}{Items: []review{{State: "COMMENTED", Tags: []string{"nit"}}}}
	reg := newTestRegistry()
	ctx := context.Background()
	for _, cond := range []scenario.Condition{
		{Type: "non_empty"},
		{Type: "count_eq", Value: 1},
		{Type: "field_equals", Path: "items.0.state", Value: "COMMENTED"},
		{Type: "field_contains", Path: "items.0.tags", Value: "nit"},
		{Type: "field_equals", Path: "items.length", Value: 1.0},
	} {
		ok, msg, err := reg.Check(ctx, data, cond)
		require.NoError(t, err, cond.Type)
		assert.True(t, ok, "%s: %s", cond.Type, msg)
	}
	_, _, err := reg.Check(ctx, make(chan int), scenario.Condition{Type: "non_empty"})
	require.Error(t, err)
}

func TestLookup(t *testing.T) {
	t.Parallel()
	data := obj("a", obj("b", arr(10, obj("c", "deep"))), "", "empty key")
	cases := []struct {
		path string
		want any
		ok   bool
	}{
		{"a.b.0", 10, true},
		{"a.b.1.c", "deep", true},
		{"a.b.length", 2, true},
		{"a.b.2", nil, false},
		{"a.b.-1", nil, false},
		{"a.b.1e0", nil, false},
		{"a.b.", nil, false},
		{"a..b", nil, false},
		{"a.c", nil, false},
		{"a.b.0.x", nil, false},
		{"", data, true},
		{"99999999999999999999", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			got, ok := lookup(data, tc.path)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
	// the key "" is reachable only inside a path ("x." ends in it)
	got, ok := lookup(obj("x", obj("", 1)), "x.")
	assert.True(t, ok)
	assert.Equal(t, 1, got)
}

func TestPreviewIsBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 500)
	p := preview(long)
	assert.LessOrEqual(t, len([]rune(p)), previewLimit+1)
	assert.True(t, strings.HasSuffix(p, "…"))
	assert.Equal(t, `{"a":1}`, preview(obj("a", 1)))
}

func TestFormatNumber(t *testing.T) {
	t.Parallel()
	for in, want := range map[any]string{
		2.0: "2", 1.5: "1.5", -1: "-1", int64(1) << 60: "1152921504606846976", json.Number("2.50"): "2.50",
		uint64(18446744073709551615): "18446744073709551615", float32(0.25): "0.25", 1e21: "1000000000000000000000",
	} {
		assert.Equal(t, want, formatNumber(in), "%v", in)
	}
}
