//go:build unix && !linux

package proc

// groupMembers cannot list a group without /proc; killGroup then reports
// the group as a whole.
func groupMembers(int) ([]Killed, bool) { return nil, false }
