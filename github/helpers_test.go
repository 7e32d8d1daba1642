package github_test

import (
	"time"

	"github.com/agenteval/agenteval/internal/githubfake"
)

// githubtestRateLimit refuses the next n requests with a reset an hour
// away, so an executor that may not wait fails at once.
func githubtestRateLimit(n int) githubfake.RateLimit {
	return githubfake.RateLimit{Requests: n, Reset: time.Now().Add(time.Hour)}
}
