//go:build unix

package exec

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/internal/agenttest"
	"github.com/agenteval/agenteval/runner"
)

// TestExecAgentThatClosesStdoutEndsAtOnce: an agent that closes its stdout
// and keeps running can never answer; its session ends when the stream
// closes, with that reason, not at the step timeout (30 s here).
func TestExecAgentThatClosesStdoutEndsAtOnce(t *testing.T) {
	t.Parallel()
	for _, script := range []string{
		`exec 1>&-; sleep 60`,
		`read start; read msg; exec 1>&-; sleep 60`,
		`exec 1>&-; cat >/dev/null`,
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			// One attempt: the time bound is for one session, not for its infrastructure retries.
			res := agenttest.RunOne(t, runner.Config{Agent: testExecAgent(t, script), InfraRetries: -1}, inputScenario(t, "30s"))
			assert.Less(t, time.Since(start), time.Second)
			assert.False(t, res.Completed)
			assert.Contains(t, res.Error, "closed its stdout")
		})
	}
}
