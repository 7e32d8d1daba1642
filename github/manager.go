package github

import (
	"strings"
	"time"

	"github.com/agenteval/agenteval/fixture"
)

// ManagerConfig tunes a Manager. The zero value changes GitHub for real
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

// Manager is the GitHub implementation of [fixture.Manager] on the GraphQL
// API (github.com/shurcooL/githubv4). Create it with [NewManager]; it is
// safe for concurrent use by operations on different manifests.
type Manager struct {
	api api
	cfg ManagerConfig
}

var _ fixture.Manager = (*Manager)(nil)

// NewManager returns a manager that sends its requests through c.
func NewManager(c *Client, cfg ManagerConfig) *Manager {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.VerifyAttempts <= 0 {
		cfg.VerifyAttempts = 5
	}
	if cfg.VerifyDelay <= 0 {
		cfg.VerifyDelay = 500 * time.Millisecond
	}
	return &Manager{api: api{c: c.gql}, cfg: cfg}
}

func splitRepo(repo string) (owner, name string, ok bool) {
	owner, name, ok = strings.Cut(repo, "/")
	return owner, name, ok && owner != "" && name != "" && !strings.Contains(name, "/")
}
