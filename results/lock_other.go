//go:build !unix

package results

import "os"

// tryFlock reports flock as unsupported: the lock file's existence is the
// lock, with a check that its process is still alive.
func tryFlock(*os.File) (held, supported bool, err error) { return false, false, nil }

// processAlive reports whether a process with this pid exists here.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
