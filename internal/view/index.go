package view

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/buger/jsonparser"

	"github.com/agenteval/agenteval/internal/labels"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// Job statuses in the index.
const (
	statusPassed uint8 = iota
	statusFailed
	statusIncomplete
)

var statusNames = [...]string{"passed", "failed", "incomplete"}

// maxLine is the longest record line the viewer reads; a longer one is
// counted as skipped.
const maxLine = 64 << 20

// maxWhys bounds the distinct reasons a run's index tells apart; the jobs
// of any further reason share one "(other reasons)" entry, so a run whose
// every failure differs costs no more than this.
const maxWhys = 10_000

// otherReasons stands for every reason past maxWhys.
const otherReasons = "(other reasons)"

// entry is one job in a run's index: where its latest record is and what
// the jobs table filters and sorts by. No pointers: a million of them are
// one allocation the collector does not scan.
type entry struct {
	off      int64   // the record line's offset in its file
	index    int64   // the job's index in the run
	n        uint32  // the line's length
	dur      float32 // duration_ms
	scenario uint32  // into run.strs
	variant  uint32  // agent · model, into run.strs
	why      uint32  // into run.whys; 0 for a passing job
	file     uint16
	status   uint8
	dead     bool // replaced by a later record of the same job
	// combo hashes the job's scenario and combination: the jobs of one
	// combination (other agents, models, repetitions, runs) share it.
	combo uint64
	// evals and failing are bit sets of the evaluation types the job ran
	// and those that failed (bit id-1 of run.evalTypes; the first 64).
	evals, failing uint64
	// params are the job's parameter values: run.params[pOff:pOff+pN],
	// each an id of "path=value" in run.pvals.
	pOff uint32
	pN   uint8
}

// maxParamValues bounds the distinct parameter values a run's index
// tells apart (past it, values share one entry and cannot be filtered on).
const maxParamValues = 100_000

// runFile is one results file of a run (one shard).
type runFile struct {
	path    string
	f       *os.File
	indexed int64 // bytes read so far: the start of the next line
	plan    results.Plan
	// shardOf names the run a shard belongs to when its plan says it is
	// one ("" otherwise): every field of its plan but the run id, shard,
	// start and the shard's own count, which the shards of one run share
	// although each invocation gets a run id of its own.
	shardOf string
	skipped int   // lines of this file that are not records
	saved   int64 // how far the saved index beside it covers (0: none)
	// fromSaved says its index was read from the saved one.
	fromSaved bool
}

// run is one run: the results files that share a run id (its shards),
// indexed. Its index grows as the files do (a run still writing).
type run struct {
	id    string
	name  string
	red   *redact.Redactor
	mu    sync.RWMutex
	files []*runFile
	jobs  []entry
	// byIndex maps a job's index to its entry + 1 (0: none yet), so a
	// later record of a job replaces the earlier one.
	byIndex []int32
	strs    interner
	whys    interner
	// evalTypes numbers evaluation types (the first 64 get a bit); pvals
	// numbers "path=value" texts, params holds each job's.
	evalTypes interner
	pvals     interner
	params    []uint32
	// counts by status, of live entries.
	counts   [3]int
	skipped  int // lines that are not records (torn, malformed, too long)
	started  time.Time
	lastGrow time.Time
	// sorted caches the permutation of jobs by a sort key until the index
	// grows (sortMu guards it: queries hold mu only for reading).
	// labels are the people's reviews of the run's jobs, by job id
	// (labels.jsonl beside its files), as read at start and posted since.
	labels     map[string]labels.Label
	sortMu     sync.Mutex
	sorted     map[string][]int32
	facetsMemo *facets
	facetsOf   int // len(jobs) when facetsMemo was counted
}

// newRun is an empty run of the given id, its tables bounded.
func newRun(id string, red *redact.Redactor, started time.Time) *run {
	r := &run{id: id, red: red, started: started}
	r.whys.max = maxWhys
	r.pvals.max, r.evalTypes.max = maxParamValues, 256
	return r
}

// interner gives each distinct string a small number, from 1.
type interner struct {
	ids  map[string]uint32
	strs []string // strs[0] is ""
	max  int      // 0: unbounded
}

func (in *interner) id(s string) uint32 {
	if in.ids == nil {
		in.ids = map[string]uint32{}
		in.strs = []string{""}
	}
	if s == "" {
		return 0
	}
	if id, ok := in.ids[s]; ok {
		return id
	}
	if in.max > 0 && len(in.strs) > in.max {
		s = otherReasons // one entry for all the rest, added once past the bound
		if id, ok := in.ids[s]; ok {
			return id
		}
	}
	id := uint32(len(in.strs))
	in.ids[s] = id
	in.strs = append(in.strs, s)
	return id
}

func (in *interner) str(id uint32) string {
	if int(id) >= len(in.strs) {
		return ""
	}
	return in.strs[id]
}

// lineRecord is what indexing decodes of a record line: the plan's
// fields, or the job's that the table shows and filters by.
type lineRecord struct {
	Record     string          `json:"record"`
	RunID      string          `json:"run_id"`
	Started    time.Time       `json:"started"`
	TotalJobs  int64           `json:"total_jobs"`
	ShardJobs  int64           `json:"shard_jobs"`
	Shard      string          `json:"shard"`
	Agent      string          `json:"agent"`
	Sources    []string        `json:"sources"`
	ID         string          `json:"id"`
	Index      int64           `json:"index"`
	Scenario   string          `json:"scenario"`
	Model      string          `json:"model"`
	Completed  bool            `json:"completed"`
	Passed     bool            `json:"passed"`
	DurationMS float64         `json:"duration_ms"`
	Reason     string          `json:"reason"`
	Cause      results.Cause   `json:"cause"`
	Error      string          `json:"error"`
	Evals      json.RawMessage `json:"evaluations"`
	Checks     json.RawMessage `json:"checkpoints"`
	// Combination and Params say which combination the job ran.
	Combination string          `json:"combination"`
	Params      json.RawMessage `json:"params"`
}

// why is the record's reason (results.Job.Why), decoding its evaluations
// and checkpoints only for a job that did not pass.
func (l *lineRecord) why() string {
	if l.Passed {
		return ""
	}
	j := results.Job{Completed: l.Completed, Reason: l.Reason, Cause: l.Cause, Error: l.Error}
	if l.Completed {
		// Only the words Why uses: the evidence (details) is skipped.
		var evals []struct {
			Type, Description, Message string
			Passed                     bool
		}
		_ = json.Unmarshal(l.Evals, &evals)
		for _, e := range evals {
			if !e.Passed {
				j.Evaluations = append(j.Evaluations, results.Evaluation{Type: e.Type, Description: e.Description, Message: e.Message})
			}
		}
		if len(l.Checks) > 0 {
			_ = json.Unmarshal(l.Checks, &j.Checkpoints)
		}
	}
	return j.Why()
}

// openFile reads a results file's plan (its first line) and returns the file.
func openFile(path string, red *redact.Redactor) (*runFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	line, err := br.ReadSlice('\n')
	if err != nil {
		_ = f.Close()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: no plan record yet", path)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rec lineRecord
	if err := json.Unmarshal(red.JSON(bytes.TrimSpace(line)), &rec); err != nil || rec.Record != results.RecordPlan {
		_ = f.Close()
		return nil, fmt.Errorf("%s: line 1 is not a plan record: not a results file", path)
	}
	p := results.Plan{RunID: rec.RunID, Started: rec.Started, TotalJobs: rec.TotalJobs, ShardJobs: rec.ShardJobs,
		Shard: rec.Shard, Agent: rec.Agent, Sources: rec.Sources}
	rf := &runFile{path: path, f: f, plan: p}
	if rec.Shard != "" {
		var full results.Plan
		if json.Unmarshal(bytes.TrimSpace(line), &full) == nil {
			full.RunID, full.Shard, full.ShardJobs, full.Started, full.Estimate = "", "", 0, time.Time{}, nil
			if b, err := json.Marshal(full); err == nil {
				rf.shardOf = string(b)
			}
		}
	}
	return rf, nil
}

// grow indexes what the run's files gained since the last call: every
// complete line (a line still being written waits for its newline).
func (r *run) grow(ctx context.Context) error {
	for fi, rf := range r.files {
		st, err := rf.f.Stat()
		if err != nil {
			return fmt.Errorf("%s: %w", rf.path, err)
		}
		if st.Size() <= rf.indexed {
			continue
		}
		if err := r.growFile(ctx, uint16(fi), rf, st.Size()); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) growFile(ctx context.Context, fi uint16, rf *runFile, size int64) error {
	br := bufio.NewReaderSize(io.NewSectionReader(rf.f, rf.indexed, size-rf.indexed), 1<<20)
	var long []byte
	off := rf.indexed
	var batch []pending
	flush := func() {
		r.mu.Lock()
		for _, p := range batch {
			r.add(fi, p)
		}
		r.lastGrow = time.Now()
		r.sortMu.Lock()
		r.sorted = nil
		r.sortMu.Unlock()
		r.mu.Unlock()
		batch = batch[:0]
	}
	for {
		s, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(s) <= maxLine {
				long = append(long, s...)
			} else {
				long = long[:0:0]
			}
			continue
		}
		if err != nil { // io.EOF: a line without its newline is still being written
			break
		}
		line := s
		if long != nil {
			line = append(long, s...)
			long = nil
		}
		start := off
		off += int64(len(line))
		rf.indexed = off
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 || start == 0 {
			continue // the plan, read by openFile
		}
		// Only what the index keeps is read, and masked: the rest of the
		// line is masked when it is read back.
		var rec lineRecord
		if err := scanRecord(line, &rec); err != nil || rec.Record != results.RecordJob {
			if rec.Record != "budget" {
				r.mu.Lock()
				r.skipped++
				rf.skipped++
				r.mu.Unlock()
			}
			continue
		}
		rec.Scenario, rec.Agent, rec.Model = r.mask(rec.Scenario), r.mask(rec.Agent), r.mask(rec.Model)
		p := pending{rec: rec, why: r.mask(rec.why()), off: start, n: uint32(len(line))}
		p.evals, p.params = evalsOf(rec.Evals), r.paramsOf(rec.Params)
		batch = append(batch, p)
		if len(batch) == 4096 {
			flush()
			if err := ctx.Err(); err != nil {
				return err // what was read so far stays indexed
			}
		}
	}
	flush()
	return nil
}

// mask masks the secrets in s.
func (r *run) mask(s string) string {
	if s == "" || r.red == nil {
		return s
	}
	return r.red.String(s)
}

// pending is a decoded record waiting for the index's lock.
type pending struct {
	rec    lineRecord
	why    string
	off    int64
	n      uint32
	evals  []evalSeen
	params []string
}

// evalSeen is one evaluation of a record: its type and whether it passed.
type evalSeen struct {
	typ    string
	passed bool
}

// evalsOf reads the type and outcome of each evaluation of a record.
func evalsOf(raw []byte) []evalSeen {
	if len(raw) == 0 {
		return nil
	}
	var out []evalSeen
	_, _ = jsonparser.ArrayEach(raw, func(v []byte, vt jsonparser.ValueType, _ int, _ error) {
		if vt != jsonparser.Object {
			return
		}
		typ, _ := jsonparser.GetString(v, "type")
		passed, _ := jsonparser.GetBoolean(v, "passed")
		out = append(out, evalSeen{typ, passed})
	})
	return out
}

// paramsOf is a record's parameters as "path=value" texts (a string value
// as itself, any other as JSON), masked.
func (r *run) paramsOf(raw []byte) []string {
	if len(raw) == 0 {
		return nil
	}
	var out []string
	_ = jsonparser.ObjectEach(raw, func(k, v []byte, vt jsonparser.ValueType, _ int) error {
		key, err := jsonparser.ParseString(k)
		if err != nil {
			return nil
		}
		val := string(v)
		if vt == jsonparser.String {
			if s, err := jsonparser.ParseString(v); err == nil {
				val = s
			}
		}
		out = append(out, r.mask(key+"="+val))
		return nil
	})
	return out
}

// comboHash hashes a scenario and combination (FNV-1a, 64 bits).
func comboHash(scenario, combination string) uint64 {
	h := uint64(14695981039346656037)
	for _, s := range []string{scenario, "\x00", combination} {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
	}
	return h
}

// add puts one job record into the index (r.mu held).
func (r *run) add(fi uint16, p pending) {
	rec := &p.rec
	e := entry{off: p.off, index: rec.Index, n: p.n, dur: float32(rec.DurationMS), file: fi,
		scenario: r.strs.id(rec.Scenario), variant: r.strs.id((matrix.Variant{Agent: rec.Agent, Model: rec.Model}).String())}
	switch {
	case rec.Passed:
		e.status = statusPassed
	case rec.Completed:
		e.status = statusFailed
	default:
		e.status = statusIncomplete
	}
	if e.status != statusPassed {
		e.why = r.whys.id(p.why)
	}
	combination := rec.Combination
	if combination == "" {
		combination = string(rec.Params) // a record from before combination ids
	}
	e.combo = comboHash(rec.Scenario, combination)
	for _, ev := range p.evals {
		if id := r.evalTypes.id(ev.typ); id > 0 && id <= 64 {
			e.evals |= 1 << (id - 1)
			if !ev.passed {
				e.failing |= 1 << (id - 1)
			}
		}
	}
	if len(p.params) > 0 && len(r.params) < 1<<32-256 {
		e.pOff, e.pN = uint32(len(r.params)), uint8(min(len(p.params), 255))
		for _, pv := range p.params[:e.pN] {
			r.params = append(r.params, r.pvals.id(pv))
		}
	}
	r.place(e)
}

// place puts an entry into the index, after every earlier one: a later
// record of the same job index replaces the earlier (r.mu held).
func (r *run) place(e entry) {
	e.dead = false
	if e.index >= 0 && e.index < 1<<31 {
		for int64(len(r.byIndex)) <= e.index {
			r.byIndex = append(r.byIndex, 0)
		}
		if prev := r.byIndex[e.index]; prev > 0 {
			old := &r.jobs[prev-1]
			old.dead = true
			r.counts[old.status]--
		}
		r.byIndex[e.index] = int32(len(r.jobs) + 1)
	}
	r.jobs = append(r.jobs, e)
	r.counts[e.status]++
}

// line reads back the record line of e (masked).
func (r *run) line(e *entry) ([]byte, error) {
	rf := r.files[e.file]
	buf := make([]byte, e.n)
	if _, err := rf.f.ReadAt(buf, e.off); err != nil {
		return nil, fmt.Errorf("%s: read back offset %d: %w", rf.path, e.off, err)
	}
	return r.red.JSON(buf), nil
}

// rawLine reads back the record line of e, unmasked, into buf.
func (r *run) rawLine(e *entry, buf []byte) ([]byte, error) {
	rf := r.files[e.file]
	if cap(buf) < int(e.n) {
		buf = make([]byte, e.n)
	}
	buf = buf[:e.n]
	if _, err := rf.f.ReadAt(buf, e.off); err != nil {
		return nil, fmt.Errorf("%s: read back offset %d: %w", rf.path, e.off, err)
	}
	return buf, nil
}

// close closes the run's files.
func (r *run) close() {
	for _, f := range r.files {
		_ = f.f.Close()
	}
}

// summary is a run's headline figures.
type summary struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Files      []string  `json:"files"`
	Agent      string    `json:"agent"`
	Sources    []string  `json:"sources"`
	Started    time.Time `json:"started"`
	TotalJobs  int64     `json:"total_jobs"`
	Recorded   int       `json:"recorded"`
	Passed     int       `json:"passed"`
	Failed     int       `json:"failed"`
	Incomplete int       `json:"incomplete"`
	Skipped    int       `json:"skipped_lines"`
	// Live is true while a file of the run grew in the last 10 seconds;
	// ETA then estimates when the rest will be recorded, from the rate so far.
	Live  bool    `json:"live"`
	ETAMS float64 `json:"eta_ms,omitempty"`
}

func (r *run) summary() summary {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s := summary{ID: r.id, Name: r.name, Started: r.started, Passed: r.counts[statusPassed], Failed: r.counts[statusFailed],
		Incomplete: r.counts[statusIncomplete], Skipped: r.skipped}
	s.Recorded = s.Passed + s.Failed + s.Incomplete
	for _, f := range r.files {
		s.Files = append(s.Files, f.path)
		s.Agent = f.plan.Agent
		s.TotalJobs = max(s.TotalJobs, f.plan.TotalJobs)
		for _, src := range f.plan.Sources {
			if !slices.Contains(s.Sources, src) {
				s.Sources = append(s.Sources, src)
			}
		}
	}
	s.Live = !r.lastGrow.IsZero() && time.Since(r.lastGrow) < 10*time.Second && int64(s.Recorded) < s.TotalJobs
	if s.Live && s.Recorded > 0 && !r.started.IsZero() {
		perJob := float64(time.Since(r.started)) / float64(s.Recorded)
		s.ETAMS = perJob * float64(s.TotalJobs-int64(s.Recorded)) / float64(time.Millisecond)
	}
	return s
}
