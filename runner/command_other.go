//go:build !unix

package runner

import "os/exec"

// killGroupOnCancel leaves exec's default: without process groups only the
// direct child is killed when the context ends.
func killGroupOnCancel(*exec.Cmd) {}
