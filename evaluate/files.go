package evaluate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/scenario"
)

// confinedPath validates a file check's path when the scenario is compiled:
// relative, without "..", in slash or OS form. It returns the path cleaned,
// in OS form.
func confinedPath(p string) (string, error) {
	if err := scenario.ConfinedPath(p); err != nil {
		return "", err
	}
	c := filepath.Clean(filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")))
	if c == "." {
		return "", fmt.Errorf("path %q names the run's directory itself, not a file", p)
	}
	return c, nil
}

// noDirMessage is the failure of a file check in a run without a directory.
func noDirMessage(typ string) string {
	return typ + " needs the run's directory, but this run has none (the runner makes one when a scenario uses virtual_fs, code steps or file checks)"
}

// statInDir stats name inside dir without ever leaving it: name is opened
// through an os.Root, which refuses ".." and symlinks that point outside,
// so a symlink planted by the agent cannot make a check read the host's
// files. The returned message, when not "", says why the file is not there
// and is meant for a failed Result; err is set only when the directory
// itself cannot be used.
func statInDir(dir, name string) (fs.FileInfo, string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("open the run's directory: %w", err)
	}
	defer root.Close()
	fi, err := root.Stat(name)
	switch {
	case err == nil:
		return fi, "", nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Sprintf("file %s does not exist in the run's directory", quote(filepath.ToSlash(name))), nil
	}
	if escapes(dir, name) {
		return nil, fmt.Sprintf("file %s resolves outside the run's directory through a symbolic link; it is not read", quote(filepath.ToSlash(name))), nil
	}
	return nil, fmt.Sprintf("file %s cannot be read: %v", quote(filepath.ToSlash(name)), err), nil
}

// escapes reports whether name, inside dir, resolves to a place outside
// dir once symbolic links are followed. It only explains a refusal of
// os.Root; the refusal itself is what keeps the check confined.
func escapes(dir, name string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(filepath.Join(dir, name))
	if err != nil {
		// A dangling link: check where it points instead.
		t, lerr := os.Readlink(filepath.Join(dir, name))
		if lerr != nil {
			return false
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(filepath.Join(d, name)), t)
		}
		p = filepath.Clean(t)
	}
	rel, err := filepath.Rel(d, p)
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readInDir reads name inside dir, confined as statInDir is, up to limit
// bytes.
func readInDir(dir, name string, limit int64) ([]byte, string, error) {
	fi, msg, err := statInDir(dir, name)
	if err != nil || msg != "" {
		return nil, msg, err
	}
	if fi.IsDir() {
		return nil, fmt.Sprintf("%s is a directory, not a file", quote(filepath.ToSlash(name))), nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("open the run's directory: %w", err)
	}
	defer root.Close()
	f, err := root.Open(name)
	if err != nil {
		return nil, fmt.Sprintf("file %s cannot be read: %v", quote(filepath.ToSlash(name)), err), nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, fmt.Sprintf("file %s cannot be read: %v", quote(filepath.ToSlash(name)), err), nil
	}
	return b, "", nil
}
