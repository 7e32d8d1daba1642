//go:build !unix

package evaluate

import "os/exec"

// killGroupOnCancel leaves the default cancellation, killing the process
// itself: outside Unix there are no process groups to kill at once.
func killGroupOnCancel(*exec.Cmd) {}
