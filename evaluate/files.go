package evaluate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenteval/agenteval/internal/infile"

	"github.com/agenteval/agenteval/internal/confine"
)

// confinedPath validates a file check's path when the scenario is compiled:
// relative, without "..", in slash or OS form. It returns the path cleaned,
// in OS form.
func confinedPath(p string) (string, error) {
	if err := confine.Path(p); err != nil {
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

// runFile is a regular file found inside a run's directory.
type runFile struct {
	root *os.Root
	name string
	info fs.FileInfo
}

// openRunFile finds name inside dir without ever leaving it: name is
// resolved through an os.Root, which refuses ".." and symbolic links that
// lead outside, so a link planted by the agent cannot make a check read the
// host's files. When the file is not there (or is a directory, or escapes)
// it returns a message for a failed results.Evaluation; err is set only when the
// directory itself cannot be used. The caller closes the file's root.
func openRunFile(dir, name string) (f *runFile, msg string, err error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", fmt.Errorf("open the run's directory: %w", err)
	}
	shown := quote(filepath.ToSlash(name))
	fi, err := root.Stat(name)
	switch {
	case err == nil && fi.IsDir():
		msg = shown + " is a directory, not a file"
	case err == nil:
		return &runFile{root: root, name: name, info: fi}, "", nil
	case errors.Is(err, fs.ErrNotExist) && !escapes(dir, name):
		msg = "file " + shown + " does not exist in the run's directory"
	case escapes(dir, name):
		msg = "file " + shown + " resolves outside the run's directory through a symbolic link; it is not read"
	default:
		msg = fmt.Sprintf("file %s cannot be read: %v", shown, err)
	}
	root.Close()
	return nil, msg, nil
}

// read returns up to limit bytes of the file, or a message for a failed
// results.Evaluation.
func (f *runFile) read(limit int64) ([]byte, string) {
	r, err := infile.OpenIn(f.root, f.name)
	if err != nil {
		return nil, fmt.Sprintf("file %s cannot be read: %v", quote(filepath.ToSlash(f.name)), err)
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, limit))
	if err != nil {
		return nil, fmt.Sprintf("file %s cannot be read: %v", quote(filepath.ToSlash(f.name)), err)
	}
	return b, ""
}

func (f *runFile) close() { f.root.Close() }

// escapes reports whether name, inside dir, resolves to a place outside
// dir once symbolic links are followed. It only explains a refusal of
// os.Root in the message; the refusal itself is what keeps checks confined.
func escapes(dir, name string) bool {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(filepath.Join(d, name))
	if err != nil {
		// A dangling link: look at where it points instead.
		t, lerr := os.Readlink(filepath.Join(d, name))
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
