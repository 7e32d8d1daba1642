//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/proctest"
)

// TestAgentKitsHoldAgainstHostileReplies: both kits answer every message
// whatever the agent's reply function does (the Node kit once hung until
// the step timeout when reply returned Object.create(null)). Each hostile
// session ends with its reason, a value that can be made text is the
// reply, only the reply that never comes waits for the step timeout, and
// the good sessions around them pass.
func TestAgentKitsHoldAgainstHostileReplies(t *testing.T) {
	t.Parallel()
	programs := map[string]string{"python": "testdata/kits/hostile_agent.py", "node": "testdata/kits/hostile-agent.mjs"}
	for _, kit := range agentKits(t) {
		t.Run(kit.name, func(t *testing.T) {
			t.Parallel()
			program, err := filepath.Abs(programs[kit.name])
			require.NoError(t, err)
			start := time.Now()
			_, stderr, out, marker, _ := kit.run(t, program, "--concurrency", "2", "--infra-retries", "0", "testdata/kits/hostile.matrix.yaml")
			assert.Less(t, time.Since(start), 60*time.Second, stderr)
			assert.Empty(t, proctest.Alive(t, marker), "no agent process outlives the run")
			byInput := map[string]kitResult{}
			for _, r := range readKitResults(t, filepath.Join(out, "results.jsonl")) {
				input, _ := r.Params["run[0].input"].(string)
				byInput[input] = r
			}
			require.Len(t, byInput, 13)
			for _, in := range []string{"ok 1", "ok 2", "ok 3"} {
				assert.True(t, byInput[in].Passed, "%s: %s", in, byInput[in].Error)
			}
			for _, in := range []string{"number", "object", "symbol", "nothing"} {
				assert.True(t, byInput[in].Completed, "%s is made text: %s", in, byInput[in].Error)
			}
			for in, says := range map[string]string{
				"throw-null":      "",
				"throw-nullproto": "",
				"huge":            "too long",
				"negative-usage":  "impossible token usage",
				"never":           "timed out",
			} {
				r := byInput[in]
				assert.False(t, r.Completed, in)
				assert.NotEmpty(t, r.Error, in)
				assert.Contains(t, r.Error, says, in)
				if in != "never" && in != "huge" {
					assert.NotContains(t, r.Error, "timed out", "%s is answered at once", in)
				}
			}
			// An object without a prototype (or whose __str__ raises) is
			// answered at once: as JSON when it has a form, else as an error.
			np := byInput["nullproto"]
			assert.True(t, np.Completed || strings.Contains(np.Error, "cannot be made text"), np.Error)
			assert.NotContains(t, np.Error, "timed out")
		})
	}
}
