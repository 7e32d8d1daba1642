package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/results"
)

// forwardSkip is how far ahead a job reader scans instead of seeking.
const forwardSkip = 1 << 20

// Jobs yields the winning record of every job in report order: scenarios
// by id, combinations in job order, runs by number. Each record is read back
// from its input by offset and decoded in full; the *results.Job is fresh for each
// yield. Iteration stops at the first error, which is yielded.
func (r *Results) Jobs() iter.Seq2[*results.Job, error] {
	return r.jobs(nil)
}

// FailingJobs is like Jobs but yields only jobs that did not pass.
func (r *Results) failingJobs() iter.Seq2[*results.Job, error] {
	return r.jobs(func(s *slot) bool { return !s.passed })
}

func (r *Results) jobs(keep func(*slot) bool) iter.Seq2[*results.Job, error] {
	return func(yield func(*results.Job, error) bool) {
		rd := r.newJobReader()
		for _, g := range r.groups {
			if !rd.each(g, keep, nil, yield) {
				return
			}
		}
	}
}

func (r *Results) newJobReader() *jobReader {
	return &jobReader{r: r, readers: make([]*jsonl.Reader, len(r.inputs))}
}

// each yields the kept jobs of one scenario; it returns false when the
// caller stopped or an error was yielded. When light is not nil and says so
// for a slot, only the statistics fields are decoded (no transcript, no
// evaluation messages; the verdict is kept), which is much cheaper.
func (jr *jobReader) each(g *scenarioGroup, keep, light func(*slot) bool, yield func(*results.Job, error) bool) bool {
	for _, ci := range g.combos {
		if !jr.eachCombo(&jr.r.combos[ci], keep, light, yield) {
			return false
		}
	}
	return true
}

// eachCombo is each for one combination.
func (jr *jobReader) eachCombo(c *combo, keep, light func(*slot) bool, yield func(*results.Job, error) bool) bool {
	slots := jr.r.comboSlots(c)
	for i := range slots {
		s := &slots[i]
		if keep != nil && !keep(s) {
			continue
		}
		job, err := jr.read(int(s.src), s.off, light != nil && light(s))
		if err != nil {
			yield(nil, err)
			return false
		}
		if !yield(job, nil) {
			return false
		}
	}
	return true
}

// jobReader reads records by offset, keeping one line reader per input so
// that records read in file order need no seeks.
type jobReader struct {
	r       *Results
	readers []*jsonl.Reader
}

// testcase reads back the job of slot s for its JUnit testcase: a passing
// job's fields by caseJob when it can, else the record in full.
func (jr *jobReader) testcase(s *slot) (*results.Job, error) {
	line, err := jr.line(int(s.src), s.off)
	if err != nil {
		return nil, err
	}
	if s.passed {
		if j, ok := caseJob(line); ok {
			jr.r.reviewJob(j)
			return j, nil
		}
	}
	j, err := jr.decode(int(s.src), s.off, line, s.passed)
	if err == nil {
		jr.r.reviewJob(j)
	}
	return j, err
}

// line returns the record line at off in input src (valid until the next call).
func (jr *jobReader) line(src int, off int64) ([]byte, error) {
	in := jr.r.inputs[src]
	lr := jr.readers[src]
	switch {
	case lr == nil:
		lr = jsonl.NewReader(io.NewSectionReader(in.R, off, in.Size-off), off, jr.r.opts.MaxLineBytes, jr.r.opts.Redactor)
		jr.readers[src] = lr
	case off < lr.Offset() || off-lr.Offset() > forwardSkip:
		lr.Reset(io.NewSectionReader(in.R, off, in.Size-off), off)
	}
	for {
		line, at, err := lr.Next()
		if errors.Is(err, jsonl.ErrLineTooLong) && at < off {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read back job at %s offset %d: %w", in.Name, off, err)
		}
		if at < off {
			continue
		}
		if at > off {
			return nil, fmt.Errorf("read back job at %s offset %d: input changed while reading", in.Name, off)
		}
		return line, nil
	}
}

// stats reads back the statistics fields of the record at off in input src.
func (jr *jobReader) stats(src int, off int64) (*lineRecord, error) {
	line, err := jr.line(src, off)
	if err != nil {
		return nil, err
	}
	var rec lineRecord
	if err := rec.decode(line); err != nil {
		return nil, fmt.Errorf("read back job at %s offset %d: %w", jr.r.inputs[src].Name, off, err)
	}
	jr.r.reviewRecord(&rec)
	return &rec, nil
}

func (jr *jobReader) read(src int, off int64, light bool) (*results.Job, error) {
	line, err := jr.line(src, off)
	if err != nil {
		return nil, err
	}
	j, err := jr.decode(src, off, line, light)
	if err == nil {
		jr.r.reviewJob(j)
	}
	return j, err
}

// decode decodes the record line read at off in input src, in full or,
// when light, the statistics fields and the verdict only.
func (jr *jobReader) decode(src int, off int64, line []byte, light bool) (*results.Job, error) {
	in := jr.r.inputs[src]
	if light {
		// The statistics fields and the verdict: no transcript, no messages.
		var rec struct {
			lineRecord
			Score    float64 `json:"score"`
			Reason   string  `json:"reason"`
			Strategy string  `json:"strategy"`
		}
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("read back job at %s offset %d: %w", in.Name, off, err)
		}
		j := rec.job(nil)
		j.Score, j.Reason, j.Strategy = rec.Score, rec.Reason, rec.Strategy
		return j, nil
	}
	var job results.Job
	if derr := json.Unmarshal(line, &job); derr != nil {
		// Read accepted this line, so its statistics fields decode.
		var rec lineRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("read back job at %s offset %d: %w", in.Name, off, err)
		}
		return rec.job(derr), nil
	}
	return &job, nil
}

// caseJob picks the fields a passing job's JUnit testcase and its
// combination's suite show out of its record line in one pass with
// jsonl.EachField (as the first pass reads its statistics), without
// decoding the rest (its transcript, evaluations, details), which costs a
// small part of decoding the record. ok is false for a record it does not
// read plainly (a field of an unexpected kind, a repeated field, a key
// encoding/json would fold onto a field, or an attempt log to show: more
// than one attempt); decode it in full then.
func caseJob(line []byte) (j *results.Job, ok bool) {
	j = &results.Job{}
	var params []byte
	err := jsonl.Fields(line, func(key []byte, v jsonl.Value) (uint64, error) {
		var err error
		var bit uint64
		switch string(key) {
		case "id":
			bit = fID
			j.ID, err = v.String()
		case "index":
			bit = fIndex
			j.Index, err = v.Int()
		case "matrix":
			bit = fMatrix
			j.Matrix, err = v.String()
		case "combination":
			bit = fCombination
			j.Combination, err = v.String()
		case "agent":
			bit = fAgent
			j.Agent, err = v.String()
		case "model":
			bit = fModel
			j.Model, err = v.String()
		case "attempts":
			bit = fAttempts
			j.Attempts, err = intValue(v)
			if j.Attempts > 1 {
				err = jsonl.ErrPlain
			}
		case "completed":
			bit = fCompleted
			j.Completed, err = v.Bool()
		case "passed":
			bit = fPassed
			j.Passed, err = v.Bool()
		case "duration_ms":
			bit = fDurationMS
			j.DurationMS, err = v.Float()
		case "score":
			bit = fScore
			j.Score, err = v.Float()
		case "reason":
			bit = fReason
			j.Reason, err = v.String()
		case "strategy":
			bit = fStrategy
			j.Strategy, err = v.String()
		case "cause":
			bit = fCause
			var c string
			c, err = v.String()
			j.Cause = results.Cause(c)
		case "termination_reasons":
			bit = fTerminationReasons
			j.TerminationReasons, err = v.Strings(nil)
		case "usage":
			bit = fUsage
			err = jsonl.Usage(v, &j.Usage)
		case "params":
			bit = fParams
			if !v.Null() && !v.Object() {
				err = jsonl.ErrPlain
			}
			params = v.Raw
		default:
			return 0, nil
		}
		return bit, err
	})
	if err != nil {
		return nil, false
	}
	if j.Params, err = decodeParams(params); err != nil {
		return nil, false
	}
	return j, true
}
