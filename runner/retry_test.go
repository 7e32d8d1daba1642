package runner

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/internal/sources"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// attemptAgent answers attempt n (its n-th call, one input step per
// attempt) with script[n-1]: "" echoes (a pass), "fail" fails the checks,
// anything else is returned as an error.
func attemptAgent(script ...error) (Agent, *atomic.Int64) {
	var calls atomic.Int64
	return AgentFunc(func(_ context.Context, _ SessionConfig, m string) (Reply, error) {
		n := int(calls.Add(1))
		if n > len(script) {
			n = len(script)
		}
		switch err := script[n-1]; {
		case err == nil:
			return Reply{Text: m}, nil
		case errors.Is(err, errFailChecks):
			return Reply{Text: "nope"}, nil
		default:
			return Reply{}, err
		}
	}), &calls
}

var errFailChecks = errors.New("fail the checks")

func TestRetriesKeepEveryAttempt(t *testing.T) {
	t.Parallel()
	rateLimited := fmt.Errorf("llm: gave up after 4 attempts: %w", &llm.APIError{StatusCode: 429, Message: "slow down"})
	serverDown := &llm.APIError{StatusCode: 503}
	tests := []struct {
		name         string
		allowed      int
		infraRetries int
		script       []error
		wantStatus   string
		wantCause    results.Cause
		wantAttempts []string
		wantCauses   []results.Cause
	}{
		{name: "fail, fail, incomplete is failed", allowed: 2, infraRetries: -1,
			script:     []error{errFailChecks, errFailChecks, errors.New("the agent's program exited")},
			wantStatus: "failed", wantCause: results.CauseChecks,
			wantAttempts: []string{"failed", "failed", "incomplete"},
			wantCauses:   []results.Cause{results.CauseChecks, results.CauseChecks, results.CauseAgentCrash}},
		{name: "a pass among failures passes", allowed: 2, infraRetries: -1,
			script:       []error{errFailChecks, nil},
			wantStatus:   "passed",
			wantAttempts: []string{"failed", "passed"},
			wantCauses:   []results.Cause{results.CauseChecks, ""}},
		{name: "429s are retried beyond allowed_retries", allowed: 0,
			script:       []error{rateLimited, rateLimited, nil},
			wantStatus:   "passed",
			wantAttempts: []string{"incomplete", "incomplete", "passed"},
			wantCauses:   []results.Cause{results.CauseRateLimited, results.CauseRateLimited, ""}},
		{name: "infrastructure retries are bounded", allowed: 0,
			script:     []error{serverDown},
			wantStatus: "incomplete", wantCause: results.CauseServerError,
			wantAttempts: []string{"incomplete", "incomplete", "incomplete"},
			wantCauses:   []results.Cause{results.CauseServerError, results.CauseServerError, results.CauseServerError}},
		{name: "one attempt keeps no log", allowed: 3,
			script:     []error{nil},
			wantStatus: "passed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := *loadScenario(t, "echo.scenario.yaml")
			s.AllowedRetries = tt.allowed
			agent, calls := attemptAgent(tt.script...)
			sink := &memSink{}
			jobs, _, err := sources.Combine([]sources.Source{sources.Scenario("s", &s, 1)}, matrix.Shard{})
			require.NoError(t, err)
			var last Progress
			sum, err := Run(t.Context(), Config{Agent: agent, Results: sink, InfraRetries: tt.infraRetries, Progress: func(p Progress) { last = p }}, jobs)
			require.NoError(t, err)
			require.Len(t, sink.results, 1)
			res := sink.results[0]
			assert.Equal(t, tt.wantStatus, statusOf(res))
			assert.Equal(t, tt.wantCause, res.Cause)
			n := max(1, len(tt.wantAttempts))
			assert.Equal(t, n, res.Attempts)
			assert.EqualValues(t, n, calls.Load())
			require.Len(t, res.AttemptLog, len(tt.wantAttempts))
			for i, a := range res.AttemptLog {
				assert.Equal(t, i+1, a.N)
				assert.Equal(t, tt.wantAttempts[i], a.Status, "attempt %d", a.N)
				assert.Equal(t, tt.wantCauses[i], a.Cause, "attempt %d", a.N)
				assert.NotEmpty(t, a.Reason)
				if a.Status != "passed" {
					assert.NotEmpty(t, a.Evidence, "attempt %d", a.N)
				}
			}
			// The counts follow the job's status.
			wantCompleted, wantPassed := int64(0), int64(0)
			switch tt.wantStatus {
			case "passed":
				wantCompleted, wantPassed = 1, 1
			case "failed":
				wantCompleted = 1
			}
			assert.Equal(t, wantCompleted, sum.Completed)
			assert.Equal(t, wantPassed, sum.Passed)
			assert.Equal(t, 1-wantCompleted, last.Incomplete)
			assert.Equal(t, wantCompleted-wantPassed, last.Failed)
		})
	}
}

func TestFailedAttemptsEvidence(t *testing.T) {
	t.Parallel()
	s := *loadScenario(t, "echo.scenario.yaml")
	s.AllowedRetries = 1
	agent, _ := attemptAgent(errFailChecks)
	res := runOne(t, Config{Agent: agent}, &s)
	require.Len(t, res.AttemptLog, 2)
	assert.Contains(t, res.AttemptLog[0].Evidence, "failed: ")
	assert.Contains(t, res.AttemptLog[0].Evidence, "step 0")
}
