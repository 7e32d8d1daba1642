package agentevaltest

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/matrix"
)

func TestSubtestName(t *testing.T) {
	t.Parallel()
	long := "a very long value that goes on and on well past the forty characters a name keeps"
	for _, tc := range []struct {
		name   string
		params []matrix.Param
		want   string
	}{
		{"leaf keys", []matrix.Param{{Path: "run[0].input", Value: "Hi there?"}, {Path: "vars.n", Value: json.Number("3")}}, "s/input=Hi_there,n=3/run-1"},
		{"same leaf: whole paths", []matrix.Param{{Path: "a.x", Value: true}, {Path: "b.x", Value: nil}}, "s/a.x=true,b.x=null/run-1"},
		{"structured value", []matrix.Param{{Path: "m", Value: map[string]any{"k": "v w"}}}, "s/m=k_v_w/run-1"},
		{"empty value", []matrix.Param{{Path: "m", Value: "  "}}, "s/m=_/run-1"},
		{"cut value keeps the hash", []matrix.Param{{Path: "m", Value: long}}, "s/m=a_very_long_value_that_goes_on_and_on_we~c-1/run-1"},
		{"unicode letters kept, slashes not", []matrix.Param{{Path: "city", Value: "Zürich/Genève"}}, "s/city=Zürich_Genève/run-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n namer
			assert.Equal(t, tc.want, n.name(matrix.Job{ID: "s/c-1/run-1", Combination: "c-1", Params: tc.params}))
		})
	}
	var n namer
	assert.Equal(t, "s/-/run-1", n.name(matrix.Job{ID: "s/-/run-1", Combination: "-"}), "no matrix: the id")
	a := n.name(matrix.Job{ID: "s/c-1/run-1", Combination: "c-1", Params: []matrix.Param{{Path: "m", Value: "a b"}}})
	b := n.name(matrix.Job{ID: "s/c-2/run-1", Combination: "c-2", Params: []matrix.Param{{Path: "m", Value: "a/b"}}})
	assert.Equal(t, "s/m=a_b/run-1", a)
	assert.Equal(t, "s/m=a_b~c-2/run-1", b, "two combinations that read the same: the second keeps its hash")
	assert.Equal(t, a, n.name(matrix.Job{ID: "s/c-1/run-1", Combination: "c-1", Params: []matrix.Param{{Path: "m", Value: "a b"}}}))
}
