package textdist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSuggestStems(t *testing.T) {
	t.Parallel()
	kinds := []string{"evaluations", "strategies", "conditions", "terminations", "agents"}
	assert.Equal(t, "strategies", Suggest("strategy", kinds))
	assert.Equal(t, "evaluations", Suggest("evaluation", kinds))
	assert.Equal(t, "", Suggest("str", kinds), "too short to be a stem")
	assert.Equal(t, "", Suggest("cond", []string{"conditions", "conduct"}), "two candidates share the stem")
	assert.Equal(t, "execution_time", Suggest("response_time", []string{"execution_time", "file_exists"}))
}

func TestSuggestStrategies(t *testing.T) {
	t.Parallel()
	names := []string{"all_pass", "any_pass", "majority_pass", "weighted"}
	tests := []struct{ in, want string }{
		{"all-pass", "all_pass"},
		{"majority", "majority_pass"},
		{"a", ""},
		{"majorty_pass", "majority_pass"},
		{"Weighted", "weighted"},
		{"wieghted", "weighted"},
		{"unanimous", ""},
		{"consensus", ""},
		{"weigted", "weighted"},
		{"all_pass", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Suggest(tt.in, names), tt.in)
	}
	assert.Empty(t, Suggest("x", nil))
}

func TestSuggestMisspellings(t *testing.T) {
	t.Parallel()
	names := []string{"all_pass", "any_pass", "majority_pass", "weighted"}
	tests := map[string]string{
		"majorty_pass": "majority_pass", "all-pass": "all_pass", "weigthed": "weighted",
		"all_pass": "", "something_else": "", "": "",
	}
	for in, want := range tests {
		assert.Equal(t, want, Suggest(in, names), in)
	}
	assert.Equal(t, "execution_time", Suggest("response_time", []string{"execution_time", "string_contains", "file_exists"}))
	assert.Empty(t, Suggest("x", nil))
}
