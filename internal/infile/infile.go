// Package infile reads the files agenteval is given from outside
// (scenarios, matrices and their base scenarios, suites, manifests, seed
// files, price tables, results, history, recordings and the judge cache,
// and the files of a run's directory a check reads) the one safe way:
// only regular files, opened so that nothing blocks (a named pipe is
// refused at once, not waited on), and never more than a bound. A device
// such as /dev/zero, a FIFO, a socket or a directory given where a file is
// wanted is an error that names the path and what it is.
package infile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxBytes bounds a file read whole (ReadFile): 64 MiB, far above any
// scenario, matrix, suite, manifest, seed file or price table, and far
// below what would exhaust memory.
const MaxBytes = 64 << 20

// ErrNotRegular is a path that is not a regular file (a device, a named
// pipe, a socket or a directory).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is a file larger than the bound it was read with.
var ErrTooLarge = errors.New("file too large")

// Open opens a regular file for reading. It never blocks: a named pipe
// is opened without waiting for a writer and refused, as is a device, a
// socket or a directory.
func Open(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := check(name, f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenIn is Open for a name inside root (os.Root), which confines it.
func OpenIn(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := check(name, f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// check refuses an open file that is not regular.
func check(name string, f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: it is %s; give a file", ErrNotRegular, Kind(st.Mode()))}
	}
	return nil
}

// Kind names what a file mode is: "a directory", "a named pipe (FIFO)",
// "a device", "a socket", "a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "not a regular file"
}

// ReadFile reads a regular file whole, refusing one larger than max bytes
// (MaxBytes when max <= 0).
func ReadFile(name string, max int64) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return readAll(name, f, max, size)
}

// readAll reads f whole, at most max bytes; size is what f is expected to
// hold, so that a large file is read into one buffer of its size (growing
// one would allocate about twice the file on the way).
func readAll(name string, f io.Reader, max, size int64) ([]byte, error) {
	if max <= 0 {
		max = MaxBytes
	}
	want := min(size, max)
	if want < 0 {
		want = 0
	}
	buf := bytes.NewBuffer(make([]byte, 0, want+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(f, max+1))
	b := buf.Bytes()
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)}
	}
	return b, nil
}
