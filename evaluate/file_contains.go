package evaluate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

// fileContainsKind returns the file_contains evaluation type.
//
// The evaluation passes when the file at path inside the run's directory
// (confined as for file_exists) contains value. Files compare
// case-sensitively unless case_sensitive is false, because file contents
// are usually code or data where case matters. Only the first 16 MiB are
// read. A missing file, a run without a directory or a symbolic link
// leading outside the directory fail the check. The score is 1 on a pass
// and 0 otherwise.
func fileContainsKind() *Kind {
	return NewKind("file_contains", "A file inside the run's directory contains a value.", newFileContains)
}

// maxFileRead bounds how much of a file file_contains reads. A check of a
// value in the first 16 MiB serves every realistic scenario, and an agent
// that writes a huge file must not exhaust the runner's memory.
const maxFileRead = 16 << 20

// fileContains is the evaluator of fileContainsKind; its semantics are documented there.
type fileContains struct {
	path      string
	value     string
	sensitive bool
}

func newFileContains(p *evalparams.FileContains) (Evaluator, error) {
	c, err := confinedPath(p.Path)
	if err != nil {
		return nil, err
	}
	if p.Value == "" {
		return nil, errors.New("value is empty; use file_exists to check only that the file exists")
	}
	sensitive := p.CaseSensitive == nil || *p.CaseSensitive
	return &fileContains{path: c, value: p.Value, sensitive: sensitive}, nil
}

// Needs reports that the check reads the run's directory.
func (e *fileContains) Needs() Needs { return Needs{Dir: true} }

// Evaluate judges in; see the type's documentation.
func (e *fileContains) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	shown := filepath.ToSlash(e.path)
	r := results.Evaluation{Details: map[string]any{"path": shown, "value": e.value, "case_sensitive": e.sensitive}}
	if in.Trace.Dir == "" {
		r.Message = noDirMessage("file_contains")
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
	b, msg := f.read(maxFileRead)
	f.close()
	if msg != "" {
		r.Message = msg
		return r, nil
	}
	var found bool
	if e.sensitive {
		found = bytes.Contains(b, []byte(e.value))
	} else {
		found = containsFold(string(b), e.value)
	}
	what := "file " + quote(shown)
	if found {
		r.Passed, r.Score = true, 1
		r.Message = fmt.Sprintf("%s contains %s (%s)", what, quote(e.value), caseWord(e.sensitive))
		return r, nil
	}
	r.Message = fmt.Sprintf("%s does not contain %s (%s); %s", what, quote(e.value), caseWord(e.sensitive), describeText(what, string(b)))
	return r, nil
}
