package github

import (
	"strings"
	"time"

	"github.com/agenteval/agenteval/fixture"
)

// ManagerConfig tunes the manager [NewManager] returns. The zero value changes GitHub for real
// and uses the clock.
type ManagerConfig struct {
	// DryRun makes every operation report what it would change and change nothing.
	DryRun bool
	// Now returns the time recorded as a manifest's createdAt; nil means time.Now.
	Now func() time.Time
	// VerifyAttempts bounds how often Reset reads a branch back after moving
	// it before it reports failure (default 5), waiting VerifyDelay between reads (default 500ms).
	VerifyAttempts int
	// VerifyDelay is the wait between verification reads.
	VerifyDelay time.Duration
}

// manager is the GitHub implementation of [fixture.Manager].
type manager struct {
	api api
	cfg ManagerConfig
}

// NewManager returns the GitHub implementation of [fixture.Manager], on
// the GraphQL API (github.com/shurcooL/githubv4), sending its requests
// through c. It is safe for concurrent use by operations on different
// manifests.
func NewManager(c *Client, cfg ManagerConfig) fixture.Manager {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.VerifyAttempts <= 0 {
		cfg.VerifyAttempts = 5
	}
	if cfg.VerifyDelay <= 0 {
		cfg.VerifyDelay = 500 * time.Millisecond
	}
	return &manager{api: api{c: c.gql}, cfg: cfg}
}

func splitRepo(repo string) (owner, name string, ok bool) {
	owner, name, ok = strings.Cut(repo, "/")
	return owner, name, ok && owner != "" && name != "" && !strings.Contains(name, "/")
}
