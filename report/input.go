package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agenteval/agenteval/internal/elizarun"
	"github.com/agenteval/agenteval/internal/infile"
	"github.com/agenteval/agenteval/internal/labels"
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

// ReadFiles opens results files and reads them as Read does. The Results
// keep the files open, since renderers read job details back by offset:
// Close it once done with it. A path that is a directory is an error.
//
// ElizaOS's own run files (run-*.json of `elizaos scenario run`, a matrix
// folder's runs/*.json) are read too: all those given become one input of
// job records, a run's verdict its judged success when the file has it and
// every evaluation passing otherwise (docs/results-format.md says how).
func ReadFiles(paths []string, opts Options) (*Results, error) {
	inputs, files, err := openFiles(paths)
	if err != nil {
		return nil, err
	}
	var reviews map[string]labels.Label
	if !opts.IgnoreLabels {
		if reviews, err = readLabels(paths); err != nil {
			_ = closeFiles(files)
			return nil, err
		}
	}
	r, err := read(inputs, opts, reviews)
	if err != nil {
		_ = closeFiles(files)
		return nil, err
	}
	r.files = files
	return r, nil
}

// Close closes the files ReadFiles opened (Read's own inputs are the
// caller's to close).
func (r *Results) Close() error {
	err := closeFiles(r.files)
	r.files = nil
	return err
}

// openFiles opens result files for reading.
func openFiles(paths []string) ([]Input, []*os.File, error) {
	var inputs []Input
	var files []*os.File
	fail := func(err error) ([]Input, []*os.File, error) {
		_ = closeFiles(files)
		return nil, nil, fmt.Errorf("open results: %w", err)
	}
	var eliza []elizarun.File
	for _, p := range paths {
		if elizarun.IsRunFile(p) {
			data, err := infile.ReadFile(p, 0)
			if err != nil {
				return fail(err)
			}
			eliza = append(eliza, elizarun.File{Name: p, Data: data})
			continue
		}
		f, err := infile.Open(p)
		if err != nil {
			return fail(err)
		}
		files = append(files, f)
		st, err := f.Stat()
		if err != nil {
			return fail(err)
		}
		if st.IsDir() {
			return fail(fmt.Errorf("%s: is a directory", p))
		}
		inputs = append(inputs, Input{Name: p, R: f, Size: st.Size()})
	}
	if len(eliza) > 0 {
		recs, err := elizarun.Records(eliza)
		if err != nil {
			return fail(err)
		}
		name := fmt.Sprintf("%d ElizaOS run file(s) in %s", len(eliza), filepath.Dir(eliza[0].Name))
		inputs = append(inputs, Input{Name: name, R: bytes.NewReader(recs), Size: int64(len(recs))})
	}
	return inputs, files, nil
}

func closeFiles(files []*os.File) error {
	var errs []error
	for _, f := range files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}
