package runout

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/runner"
)

func TestProgressLineSaysHowMuchTheRunWasThrottled(t *testing.T) {
	t.Parallel()
	const line = "2/2 jobs  2 passed  0 failed  0 incomplete  pass 100.0%  2 jobs/s"
	tests := []struct {
		name     string
		throttle llm.ThrottleStats
		want     string
	}{
		{"not throttled", llm.ThrottleStats{Limit: 8}, line + "\n"},
		{"waits only", llm.ThrottleStats{Waits: 2}, line + "  throttled: 2 waits\n"},
		{"refused, with a limit", llm.ThrottleStats{Waits: 12, Refused: 3, Limit: 8}, line + "  throttled: 12 waits, 3 refused, limit 8 in flight\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			p := &ProgressPrinter{W: &b, Every: 1}
			p.Update(runner.Progress{Done: 2, Passed: 2, Total: 2, Elapsed: time.Second, Throttle: tt.throttle})
			assert.Equal(t, tt.want, b.String())
		})
	}
}
