// Package labels is a person's review of jobs: `agenteval view` writes a
// verdict (pass or fail) with a note for a job to labels.jsonl beside its
// results file, one JSON line per review appended, the latest line of a job
// winning (an empty verdict withdraws the review). Results files are never
// written. Reports read the file and apply each review to its job: the
// verdict becomes the person's, and the reason says it was reviewed, with
// the note and what the run had decided (docs/results-format.md).
package labels

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenteval/agenteval/results"
)

// FileName is the labels file's name, in the folder of the results file
// whose jobs it reviews.
const FileName = "labels.jsonl"

// The verdicts a label gives.
const (
	Pass = "pass"
	Fail = "fail"
	// Clear withdraws an earlier review of the job.
	Clear = ""
)

// MaxNote bounds a note's length in bytes.
const MaxNote = 4 << 10

// maxLine bounds a labels file's line.
const maxLine = 64 << 10

// Label is one review of one job.
type Label struct {
	// ID is the job's id (results.Job.ID).
	ID string `json:"id"`
	// Verdict is Pass, Fail, or Clear.
	Verdict string `json:"verdict"`
	// Note is what the person wrote.
	Note string `json:"note,omitempty"`
	// RunID is the run the reviewed record belongs to.
	RunID string `json:"run_id,omitempty"`
	// At is when the review was made.
	At time.Time `json:"at"`
}

// Check says what is wrong with l, naming the field.
func (l Label) Check() error {
	switch {
	case l.ID == "":
		return errors.New("id: empty: want the job's id")
	case l.Verdict != Pass && l.Verdict != Fail && l.Verdict != Clear:
		return fmt.Errorf("verdict: %q: want %q, %q or %q (withdraw the review)", l.Verdict, Pass, Fail, Clear)
	case len(l.Note) > MaxNote:
		return fmt.Errorf("note: %d bytes: at most %d", len(l.Note), MaxNote)
	}
	return nil
}

// Beside is the labels file of the results file at resultsPath.
func Beside(resultsPath string) string {
	return filepath.Join(filepath.Dir(resultsPath), FileName)
}

// Read reads a labels file: each job's latest label, by job id (withdrawn
// reviews left out). A missing file is no labels. A line that is not a
// label is an error naming the file, line and field.
func Read(path string) (map[string]Label, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parse(path, f)
}

func parse(name string, r io.Reader) (map[string]Label, error) {
	out := map[string]Label{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var l Label
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, describe(err))
		}
		if err := l.Check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if l.Verdict == Clear {
			delete(out, l.ID)
			continue
		}
		out[l.ID] = l
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// describe words a JSON decoding error with the field it concerns.
func describe(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("%s: %s, want %s", te.Field, te.Value, te.Type)
	}
	if s, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s: want id, verdict, note, run_id or at", s)
	}
	return err
}

// Append adds l to the labels file at path (created when missing), as one
// line written at once.
func Append(path string, l Label) error {
	if err := l.Check(); err != nil {
		return err
	}
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// Apply makes l's verdict j's: passed, or failed (completed either way),
// the reason saying that a person reviewed it, with the note and what the
// run had decided, and a note saying the same. A Clear label changes
// nothing.
func Apply(j *results.Job, l Label) {
	if l.Verdict == Clear {
		return
	}
	was := "passed"
	switch {
	case !j.Completed:
		was = "incomplete"
	case !j.Passed:
		was = "failed"
	}
	reason := "reviewed: " + map[string]string{Pass: "passed", Fail: "failed"}[l.Verdict] + " by a person"
	if l.Note != "" {
		reason += ": " + l.Note
	}
	reason += " (the run's verdict: " + was
	if j.Reason != "" && !j.Passed {
		reason += ": " + j.Reason
	}
	reason += ")"
	j.Passed = l.Verdict == Pass
	if !j.Completed {
		j.Completed, j.Cause = true, results.CauseChecks
	}
	if j.Passed {
		j.Cause = ""
	}
	j.Reason = reason
	j.Notes = append(j.Notes, reason)
}

// Reviewed reports whether a reason is one Apply wrote.
func Reviewed(reason string) bool {
	return strings.HasPrefix(reason, "reviewed: ")
}
