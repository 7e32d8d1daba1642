package scenario

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
