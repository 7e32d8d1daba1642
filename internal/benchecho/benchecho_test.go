package benchecho

import (
	"fmt"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/testtool"
)

// TestMatrixIsTheScriptsFile: Matrix writes byte for byte the file
// bench/compare-promptfoo.sh's matrix function writes (run with bash when
// there is one).
func TestMatrixIsTheScriptsFile(t *testing.T) {
	t.Parallel()
	bash := testtool.Need(t, "bash")
	script := `source <(sed -n '/^matrix() {/,/^}/p' ../../bench/compare-promptfoo.sh); matrix 3`
	out, err := exec.Command(bash, "-c", script).Output()
	require.NoError(t, err)
	require.NotEmpty(t, out, "the script's matrix function was not found")
	assert.Equal(t, string(out), string(Matrix(3)))
	assert.Contains(t, string(Matrix(10_000)), fmt.Sprintf("\"Question %d: what is topic-%d?\"\n", 9999, 9999))
}
