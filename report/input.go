package report

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Input is one results file. R must stay readable while the Results built
// from it are in use: renderers read job details back by offset.
type Input struct {
	// Name identifies the input in errors and warnings (usually its path).
	Name string
	// R holds the JSONL records.
	R io.ReaderAt
	// Size is the number of bytes of R to read.
	Size int64
}

// Files holds opened result files; Close closes them all.
type Files struct {
	Inputs []Input
	files  []*os.File
}

// OpenFiles opens result files for reading. The caller closes them with
// Files.Close once done with every Results read from them.
func OpenFiles(paths ...string) (*Files, error) {
	fs := &Files{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			_ = fs.Close()
			return nil, fmt.Errorf("open results: %w", err)
		}
		st, err := f.Stat()
		if err != nil {
			_ = f.Close()
			_ = fs.Close()
			return nil, fmt.Errorf("open results: %w", err)
		}
		if st.IsDir() {
			_ = f.Close()
			_ = fs.Close()
			return nil, fmt.Errorf("open results: %s: is a directory", p)
		}
		fs.files = append(fs.files, f)
		fs.Inputs = append(fs.Inputs, Input{Name: p, R: f, Size: st.Size()})
	}
	return fs, nil
}

// Close closes every opened file.
func (fs *Files) Close() error {
	var errs []error
	for _, f := range fs.files {
		errs = append(errs, f.Close())
	}
	fs.files = nil
	return errors.Join(errs...)
}
