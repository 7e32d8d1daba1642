package evaluate

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// fileExistsKind returns the file_exists evaluation type.
//
// The evaluation passes when path names a regular file (or a symbolic link to
// one inside the directory) in the run's directory, Trace.Dir. Paths are
// relative to that directory; absolute paths and paths with ".." are
// rejected when the scenario is compiled, and a symbolic link that leads
// outside the directory fails the check without being followed. A run
// without a directory fails with a message saying so. A directory at path
// fails: the check is about files. The score is 1 on a pass and 0
// otherwise.
func fileExistsKind() *Kind {
	return NewKind("file_exists", "A file exists inside the run's directory.", newFileExists)
}

// fileExists is the evaluator of fileExistsKind; its semantics are documented there.
type fileExists struct {
	path string
}

func newFileExists(p *evalparams.FileExists) (Evaluator, error) {
	c, err := confinedPath(p.Path)
	if err != nil {
		return nil, err
	}
	return &fileExists{path: c}, nil
}

// Needs reports that the check reads the run's directory.
func (e *fileExists) Needs() Needs { return Needs{Dir: true} }

// Evaluate judges in; see the type's documentation.
func (e *fileExists) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	shown := filepath.ToSlash(e.path)
	r := results.Evaluation{Details: map[string]any{"path": shown}}
	if in.Trace.Dir == "" {
		r.Message = noDirMessage("file_exists")
		return r, nil
	}
	f, msg, err := openRunFile(in.Trace.Dir, e.path)
	if err != nil {
		return r, err
	}
	if msg != "" {
		r.Message = msg
		return r, nil
	}
	defer f.close()
	r.Passed, r.Score = true, 1
	r.Details["size"] = f.info.Size()
	r.Message = fmt.Sprintf("file %s exists (%d bytes)", quote(shown), f.info.Size())
	return r, nil
}
