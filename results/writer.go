package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agenteval/agenteval/internal/infile"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agenteval/agenteval/redact"
)

// Writer appends records to a results file, one JSON object per line.
// Each record reaches the OS as soon as the writer's own goroutine gets to
// it: records given while it writes are written together, in one system
// call, right after (group commit; a run of cheap jobs makes one write per
// group, not one per record). A crash of the process loses nothing the OS
// has. fsync, which protects against a crash of the machine, happens in
// groups too: at most one second after a record is written, and at Close
// once the writer has been open for a second. A run shorter than that is
// left to the OS to write out: after a machine crash, --resume runs it
// again in less than a second, while its fsync would cost about a tenth of
// its time (14 MB of records for 10^4 cheap jobs). A failed write is
// returned by the next Write, Sync or Close.
//
// Write is safe for concurrent use, and each call encodes and masks its
// record before it takes the writer's lock, so the callers share that work
// (runner.Run calls it from its workers: see ConcurrentWrites). Sync,
// Close and WriteBudget must not run at the same time as Write.
type Writer struct {
	f *os.File
	// valueMu guards buf and enc, which encode the plan and budget records.
	valueMu sync.Mutex
	buf     bytes.Buffer
	enc     *json.Encoder
	// mu guards pending (lines given, not yet written), spare (the other
	// buffer), given/written (lines counted both sides) and werr (the first
	// failed write); moved signals each write done.
	mu      sync.Mutex
	moved   *sync.Cond
	pending []byte
	spare   []byte
	given   int64
	written int64
	werr    error
	// wake tells the flusher goroutine there are lines; flushed is closed
	// when it ends. unsynced and lastSync belong to it (and to Close once
	// flushed is closed).
	wake     chan struct{}
	flushed  chan struct{}
	unsynced int
	lastSync time.Time
	// opened is when the writer was created; syncInterval is the longest a
	// written record waits for its fsync (one second; guarded by mu, tests
	// change it). syncs counts the fsyncs done (tests read it).
	opened       time.Time
	syncInterval time.Duration
	syncs        atomic.Int64
	// Redactor masks secrets in every record before it is written
	// (default: redact.FromEnvironment(os.Environ()) at creation).
	Redactor *redact.Redactor
	// fsync runs on its own goroutine so that a slow disk never stalls the
	// writer; syncReq wakes it, syncDone reports its end.
	syncReq  chan struct{}
	syncDone chan error
	closed   bool
	closeErr error
	// lock is the folder's lock, released by Close; latest holds the
	// outcome of every job a resumed file held (never changed after Open).
	lock   *dirLock
	latest map[string]Outcome
	// tallyMu guards tally: the file's jobs by latest record, kept as
	// records are written so that a run's closing count never reads the
	// file back (that read was a third of a cheap run's time).
	tallyMu sync.Mutex
	tally   Tally
}

// errWriterClosed is what Write and writePlan return after Close.
var errWriterClosed = errors.New("results: the results writer is closed")

func createJSONL(path string, resume bool, lock *dirLock) (*Writer, error) {
	flag := os.O_CREATE | os.O_RDWR
	if !resume {
		flag |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if resume {
		if err := cutTornLine(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	now := time.Now()
	w := &Writer{f: f, lock: lock, opened: now, lastSync: now, syncInterval: time.Second, Redactor: redact.FromEnvironment(os.Environ()),
		syncReq: make(chan struct{}, 1), syncDone: make(chan error, 1), wake: make(chan struct{}, 1), flushed: make(chan struct{})}
	w.moved = sync.NewCond(&w.mu)
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	go w.syncLoop()
	go w.flushLoop()
	return w, nil
}

// cutTornLine truncates f after its last newline.
func cutTornLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	const chunk = 64 << 10
	end := st.Size()
	for end > 0 {
		start := max(0, end-chunk)
		b := make([]byte, end-start)
		if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return f.Truncate(start + int64(i) + 1)
		}
		end = start
	}
	return f.Truncate(0)
}

// writePlan writes a plan record (Open writes the invocation's).
func (w *Writer) writePlan(p *Plan) error {
	if w == nil || w.closed {
		return errWriterClosed
	}
	p.Record = RecordPlan
	return w.writeValue(p)
}

// ConcurrentWrites reports that Write is safe for concurrent use and
// encodes before it locks (runner.ConcurrentSink): runner.Run calls it from
// its workers.
func (w *Writer) ConcurrentWrites() bool { return true }

// encoding is a line being encoded and where it holds values from outside
// (see spans).
type encoding struct {
	line  []byte
	spans spans
}

// linePool holds what Write encodes records into; writeLine copies each
// line into the pending buffer, so an encoding is free again once Write
// returns.
var linePool = sync.Pool{New: func() any { return &encoding{line: make([]byte, 0, 4096)} }}

// Write appends one job result. It sets r.Record and does not keep r.
func (w *Writer) Write(r *Job) error {
	if w == nil || w.closed {
		return errWriterClosed
	}
	r.Record = RecordJob
	enc := linePool.Get().(*encoding)
	enc.spans = enc.spans[:0]
	b, err := enc.spans.appendJob(enc.line[:0], r)
	if err == nil {
		// Only the values the record was given can hold a secret: the
		// masking scans those, not the field names around them.
		b = w.Redactor.JSONIn(b, enc.spans)
		err = w.writeLine(append(b, '\n'))
	}
	if err == nil {
		w.count(r.ID, Outcome{Completed: r.Completed, Passed: r.Passed})
	}
	if cap(b) <= 64<<10 && cap(enc.spans) <= 1024 { // a huge record's buffers are left to the GC
		enc.line = b[:0]
		linePool.Put(enc)
	}
	return err
}

// count adds a written job's record to the tally. A job the resumed file
// held is replaced by its new record (a retry); a run writes each job at
// most once, so no other record can be replaced.
func (w *Writer) count(id string, o Outcome) {
	w.tallyMu.Lock()
	defer w.tallyMu.Unlock()
	if old, ok := w.latest[id]; ok {
		w.tally.add(old, -1)
	}
	w.tally.add(o, 1)
}

// Tally counts the jobs of the file by the latest record of each (see
// Outcome): those it held when Open resumed it, with each record written
// since replacing its job's. It is the whole run, whichever invocations
// (resumes, retries) recorded it, without reading the file back.
func (w *Writer) Tally() Tally {
	w.tallyMu.Lock()
	defer w.tallyMu.Unlock()
	return w.tally
}

func (w *Writer) writeValue(v any) error {
	w.valueMu.Lock()
	defer w.valueMu.Unlock()
	w.buf.Reset()
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	// The whole record is one range from outside, so keys (a plan's
	// settings) are masked as values are; a field name is masked only if
	// it is itself a secret.
	b := w.buf.Bytes()
	return w.writeLine(w.Redactor.JSONIn(b, [][2]int{{0, len(b)}}))
}

// maxPending bounds the lines waiting for the flusher: past it, Write
// waits (a disk slower than the jobs holds the run back rather than fill
// memory).
const maxPending = 1 << 18

const pendingCap = maxPending + 32<<10

// writeLine hands one line, masked, to the flusher.
func (w *Writer) writeLine(line []byte) error {
	w.mu.Lock()
	if w.pending == nil {
		w.pending = make([]byte, 0, pendingCap)
	}
	for len(w.pending) >= maxPending && w.werr == nil {
		w.moved.Wait()
	}
	if err := w.werr; err != nil {
		w.mu.Unlock()
		return err
	}
	w.pending = append(w.pending, line...)
	w.given++
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default: // the flusher is awake already; it takes these lines too
	}
	return nil
}

// flushLoop writes what writeLine gave, a group at a time, until Close
// closes wake, and asks for an fsync once written records have waited
// syncInterval (a timer covers the records no later write is followed by).
func (w *Writer) flushLoop() {
	defer close(w.flushed)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case _, open := <-w.wake:
			w.flushPending()
			if !open {
				return
			}
		case <-timer.C:
		}
		if w.unsynced == 0 {
			continue
		}
		if wait := w.interval() - time.Since(w.lastSync); wait > 0 {
			timer.Reset(wait)
			continue
		}
		w.requestSync()
	}
}

// interval is syncInterval, read under the lock (tests change it).
func (w *Writer) interval() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.syncInterval
}

// requestSync asks the syncer for an fsync of everything written so far.
func (w *Writer) requestSync() {
	w.unsynced = 0
	w.lastSync = time.Now()
	select {
	case w.syncReq <- struct{}{}:
	default: // a sync is already pending; it will cover these records too
	}
}

func (w *Writer) flushPending() {
	w.mu.Lock()
	buf, n := w.pending, w.given-w.written
	if len(buf) == 0 {
		w.mu.Unlock()
		return
	}
	w.pending, w.spare = w.spare[:0], nil // the two buffers swap: Write fills one while this one is written
	w.moved.Broadcast()                   // a Write waiting for room has it now
	w.mu.Unlock()
	_, err := w.f.Write(buf)
	w.mu.Lock()
	if err != nil && w.werr == nil {
		w.werr = err
	}
	w.spare = buf[:0]
	w.written += n
	w.moved.Broadcast()
	w.mu.Unlock()
	if err == nil {
		w.unsynced += int(n)
	}
}

// drain waits until every line given so far is written, and returns the
// first failed write.
func (w *Writer) drain() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.written < w.given && w.werr == nil {
		select {
		case w.wake <- struct{}{}:
		default:
		}
		w.moved.Wait()
	}
	return w.werr
}

// syncLoop fsyncs the file whenever asked, until Close.
func (w *Writer) syncLoop() {
	var first error
	for range w.syncReq {
		if err := w.f.Sync(); err != nil && first == nil {
			first = err
		}
		w.syncs.Add(1)
	}
	w.syncDone <- first
}

// Sync flushes the file to stable storage now.
func (w *Writer) Sync() error {
	if w == nil || w.closed {
		return errWriterClosed
	}
	if err := w.drain(); err != nil {
		return err
	}
	return w.f.Sync()
}

// Close writes what is pending, waits for a sync in progress, syncs once
// more unless the writer was open for less than a second (see Writer) and
// closes the file. It is safe to call more than once (later calls return
// the first call's result, so `defer w.Close()` may follow an explicit,
// checked Close) and on a nil writer.
func (w *Writer) Close() error {
	if w == nil {
		return nil
	}
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	w.closeErr = w.close()
	return w.closeErr
}

func (w *Writer) close() error {
	close(w.wake)
	<-w.flushed
	w.mu.Lock()
	err := w.werr
	w.mu.Unlock()
	close(w.syncReq)
	if serr := <-w.syncDone; err == nil {
		err = serr
	}
	if w.unsynced > 0 && time.Since(w.opened) >= w.interval() {
		if serr := w.f.Sync(); err == nil {
			err = serr
		}
		w.syncs.Add(1)
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if uerr := w.lock.unlock(); err == nil {
		err = uerr
	}
	return err
}

// readResults reads a results file: its first plan and the outcome of the
// latest record of every job it holds (a job retried later has several;
// the last one written is the job's, as every reader takes it). A missing
// file is empty; a torn last line is ignored; any other line that is not a
// record is an error (the file is not one run's).
func readResults(path string) (first *Plan, latest map[string]Outcome, err error) {
	ids := map[string]Outcome{}
	f, err := infile.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ids, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	var rec struct {
		Record    string `json:"record"`
		ID        string `json:"id"`
		Completed bool   `json:"completed"`
		Passed    bool   `json:"passed"`
	}
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			rec.Record, rec.ID, rec.Completed, rec.Passed = "", "", false, false
			if jerr := json.Unmarshal(b, &rec); jerr != nil {
				return nil, nil, fmt.Errorf("%s:%d: %w", path, line, jerr)
			}
			switch rec.Record {
			case RecordJob:
				ids[rec.ID] = Outcome{Completed: rec.Completed, Passed: rec.Passed}
			case RecordPlan:
				if first == nil {
					first = new(Plan)
					if jerr := json.Unmarshal(b, first); jerr != nil {
						return nil, nil, fmt.Errorf("%s:%d: %w", path, line, jerr)
					}
				}
			case "":
				return nil, nil, fmt.Errorf("%s:%d: not a results record (no \"record\" field)", path, line)
			}
		}
		if errors.Is(err, io.EOF) {
			return first, ids, nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
}
