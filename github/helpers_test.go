package github_test

import (
	"time"

	"github.com/agenteval/agenteval/github/githubtest"
)

// githubtestRateLimit refuses the next n requests with a reset an hour
// away, so an executor that may not wait fails at once.
func githubtestRateLimit(n int) githubtest.RateLimit {
	return githubtest.RateLimit{Requests: n, Reset: time.Now().Add(time.Hour)}
}
