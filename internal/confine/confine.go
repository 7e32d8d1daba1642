// Package confine keeps paths that come from scenario files inside the
// run's directory: the loader checks them with it, and the evaluators and
// the environment check them again before they touch the disk.
package confine

import (
	"fmt"
	"path"
	"strings"
)

// Path reports an error when name would leave the run's directory: an
// absolute path or one that climbs out with "..".
func Path(name string) error {
	slashed := strings.ReplaceAll(name, `\`, "/")
	switch {
	case name == "":
		return fmt.Errorf("path is empty")
	case strings.HasPrefix(slashed, "/") || isDriveLetter(slashed):
		return fmt.Errorf("path %q is absolute; paths are relative to the run's directory", name)
	}
	if c := path.Clean(slashed); c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("path %q leaves the run's directory", name)
	}
	return nil
}

// isDriveLetter reports whether p starts with a Windows drive (C: or c:/).
func isDriveLetter(p string) bool {
	return len(p) > 1 && p[1] == ':' && (p[0]|0x20) >= 'a' && (p[0]|0x20) <= 'z' && (len(p) == 2 || p[2] == '/')
}
