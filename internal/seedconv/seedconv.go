// Package seedconv holds the conventions every seeded fixture follows, which
// package fixture (reading seed files) and package github (seeding,
// resetting and cleaning up on GitHub) must agree on: the fixture types a
// seed file declares, the seed label, the seeded branches' names and the
// metadata keys a manager writes itself.
package seedconv

// Fixture types a seed file may declare.
const (
	// TypeIssue is an issue.
	TypeIssue = "issue"
	// TypePR is a pull request with its branch, commits, reviews and threads.
	TypePR = "pr"
)

// Label is the label every resource seeded under seedID carries; cleanup
// touches nothing without it.
func Label(seedID string) string { return "agenteval-seed:" + seedID }

// Branch is the head branch seeding creates for a fixture.
func Branch(seedID, fixture string) string { return BranchPrefix(seedID) + fixture }

// BranchPrefix is the prefix of every branch seeded under seedID.
func BranchPrefix(seedID string) string { return "agenteval/" + seedID + "/" }

// ReservedMetadata reports whether key is a metadata key a manager writes
// into manifest resources itself, which a seed file's metadata may not use.
func ReservedMetadata(key string) bool {
	switch key {
	case "originalSha", "base", "state", "threads", "resetThreads", "title", "headBranch", "baseBranch", "branchSha":
		return true
	}
	return false
}
