package view

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"hash/fnv"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"

	"github.com/agenteval/agenteval/redact"
)

// A results file's index is saved beside it (PATH.view-index) once the
// viewer has read the file, so that opening it again reads the index (tens
// of bytes a job) instead of the records (kilobytes a job). The saved index
// names the file's size and modification time and sums of its first and
// last indexed 4 KiB: an index whose file is unchanged is used as it is,
// one whose file only grew (a run still writing, or resumed) is used for
// what it covers and the rest is read, and any other is ignored and
// written again.

// savedSuffix names a results file's saved index.
const savedSuffix = ".view-index"

// savedMagic opens a saved index (its version in it).
const savedMagic = "agenteval view index 1\n"

// savedSpan is how much of the file's start and of the end of what was
// indexed the sums cover.
const savedSpan = 4096

// savedHeader says which file state a saved index covers.
type savedHeader struct {
	Size, ModTime, Indexed int64
	HeadSum, TailSum       uint64
	Skipped                int64
}

// spanSums are the sums of f's first savedSpan bytes and of the savedSpan
// bytes before indexed.
func spanSums(f io.ReaderAt, indexed int64) (uint64, uint64, error) {
	sum := func(off, n int64) (uint64, error) {
		buf := make([]byte, n)
		if _, err := f.ReadAt(buf, off); err != nil {
			return 0, err
		}
		h := fnv.New64a()
		_, _ = h.Write(buf)
		return h.Sum64(), nil
	}
	head, err := sum(0, min(savedSpan, indexed))
	if err != nil {
		return 0, 0, err
	}
	start := max(0, indexed-savedSpan)
	tail, err := sum(start, indexed-start)
	return head, tail, err
}

// SaveIndex writes the index of the results file at path beside it
// (PATH.view-index), as a run does when it ends, so that the viewer's
// first open of the run reads the index and not the records. An index
// already beside the file that covers its start (a resumed run's) is used
// for that part, and one that covers all of it is left as it is; red
// masks what the index keeps of the records (names, reasons, parameter
// values). It stops, writing nothing, when ctx ends.
func SaveIndex(ctx context.Context, path string, red *redact.Redactor) error {
	rf, err := openFile(path, red)
	if err != nil {
		return err
	}
	r := newRun(rf.plan.RunID, red, rf.plan.Started)
	r.files = []*runFile{rf}
	defer r.close()
	r.loadIndex(0, rf)
	if err := r.grow(ctx); err != nil {
		return err
	}
	if rf.indexed <= rf.saved {
		return nil // the saved index covers the whole file
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if err := r.saveIndex(0); err != nil {
		return fmt.Errorf("%s: %w", path+savedSuffix, err)
	}
	return nil
}

// saveIndex writes the index of the run's file fi beside it (r.mu
// read-held), replacing any earlier one at once (a temporary file renamed).
func (r *run) saveIndex(fi int) error {
	rf := r.files[fi]
	st, err := rf.f.Stat()
	if err != nil {
		return err
	}
	h := savedHeader{Size: st.Size(), ModTime: st.ModTime().UnixNano(), Indexed: rf.indexed, Skipped: int64(rf.skipped)}
	if h.HeadSum, h.TailSum, err = spanSums(rf.f, rf.indexed); err != nil {
		return err
	}
	path := rf.path + savedSuffix
	tmp, err := os.CreateTemp(dirOf(path), ".view-index-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a rename, nothing to remove
	w := bufio.NewWriterSize(tmp, 1<<20)
	_, _ = w.WriteString(savedMagic)
	_ = binary.Write(w, binary.LittleEndian, h)
	for _, in := range []*interner{&r.strs, &r.whys, &r.evalTypes, &r.pvals} {
		writeUvarint(w, uint64(len(in.strs)))
		for _, s := range in.strs {
			writeUvarint(w, uint64(len(s)))
			_, _ = w.WriteString(s)
		}
	}
	n := 0
	for i := range r.jobs {
		if r.jobs[i].file == uint16(fi) {
			n++
		}
	}
	writeUvarint(w, uint64(n))
	var b []byte
	for i := range r.jobs {
		e := &r.jobs[i]
		if e.file != uint16(fi) {
			continue
		}
		b = b[:0]
		b = binary.LittleEndian.AppendUint64(b, uint64(e.off))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.index))
		b = binary.LittleEndian.AppendUint32(b, e.n)
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(e.dur))
		b = binary.LittleEndian.AppendUint32(b, e.scenario)
		b = binary.LittleEndian.AppendUint32(b, e.variant)
		b = binary.LittleEndian.AppendUint32(b, e.why)
		b = append(b, e.status, e.pN)
		b = binary.LittleEndian.AppendUint64(b, e.combo)
		b = binary.LittleEndian.AppendUint64(b, e.evals)
		b = binary.LittleEndian.AppendUint64(b, e.failing)
		for _, id := range r.params[e.pOff : e.pOff+uint32(e.pN)] {
			b = binary.LittleEndian.AppendUint32(b, id)
		}
		_, _ = w.Write(b)
	}
	if err := w.Flush(); err != nil {
		_ = tmp.Close()
		return err
	}
	// Readable by whoever may read the results (CreateTemp makes it 0600).
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// entryBytes is the fixed part of a saved entry.
const entryBytes = 8 + 8 + 4*5 + 2 + 8*3

// loadIndex reads the saved index of the run's file fi, if one covers the
// file as it is now (or a part it has only grown past), into the index
// (r.mu held) and says whether it did; rf.indexed is then where reading
// goes on. A missing, stale or unreadable index is not an error: the file
// is read instead.
func (r *run) loadIndex(fi int, rf *runFile) bool {
	f, err := os.Open(rf.path + savedSuffix)
	if err != nil {
		return false
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(savedMagic))
	var h savedHeader
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != savedMagic {
		return false
	}
	if binary.Read(br, binary.LittleEndian, &h) != nil {
		return false
	}
	st, err := rf.f.Stat()
	if err != nil || st.Size() < h.Indexed || h.Indexed <= 0 {
		return false
	}
	if st.Size() != h.Size || st.ModTime().UnixNano() != h.ModTime {
		// Changed since: usable only if what it covers is still there.
		head, tail, err := spanSums(rf.f, h.Indexed)
		if err != nil || head != h.HeadSum || tail != h.TailSum {
			return false
		}
	}
	// The tables, each string's id in this run.
	var maps [4][]uint32
	for t, in := range []*interner{&r.strs, &r.whys, &r.evalTypes, &r.pvals} {
		n, err := binary.ReadUvarint(br)
		if err != nil || n > 1<<24 {
			return false
		}
		maps[t] = make([]uint32, n)
		if in.ids == nil && n > 1 {
			in.ids = make(map[string]uint32, n)
			in.strs = make([]string, 1, n)
		}
		for i := range maps[t] {
			l, err := binary.ReadUvarint(br)
			if err != nil || l > maxLine {
				return false
			}
			s := make([]byte, l)
			if _, err := io.ReadFull(br, s); err != nil {
				return false
			}
			// Masked again: the index may have been saved under
			// another process's secrets (the run's, an earlier viewer's).
			maps[t][i] = in.id(r.mask(string(s)))
		}
	}
	// An evaluation type's saved bit, as this run numbers it.
	var bitMap [64]uint64
	for b := range 64 {
		if b+1 < len(maps[2]) {
			if id := maps[2][b+1]; id > 0 && id <= 64 {
				bitMap[b] = 1 << (id - 1)
			}
		}
	}
	bitOf := func(set uint64) uint64 {
		var out uint64
		for ; set != 0; set &= set - 1 {
			out |= bitMap[bits.TrailingZeros64(set)]
		}
		return out
	}
	n, err := binary.ReadUvarint(br)
	if err != nil {
		return false
	}
	// Room for the entries at once (10^6 of them are 48 MB, grown one
	// doubling at a time otherwise), as many as the index file can hold.
	if ist, err := f.Stat(); err == nil {
		r.jobs = slices.Grow(r.jobs, int(min(n, uint64(ist.Size())/entryBytes)))
	}
	at := func(m []uint32, id uint32) (uint32, error) {
		if int(id) >= len(m) {
			return 0, errBadIndex
		}
		return m[id], nil
	}
	jobs, params := len(r.jobs), len(r.params)
	counts, byIndex := r.counts, len(r.byIndex)
	fail := func() bool {
		// Undo what was placed: the file is read instead.
		for _, e := range r.jobs[jobs:] {
			if e.index >= 0 && int(e.index) < len(r.byIndex) {
				r.byIndex[e.index] = 0
			}
		}
		r.jobs, r.params, r.counts, r.byIndex = r.jobs[:jobs], r.params[:params], counts, r.byIndex[:byIndex]
		for i := range r.jobs {
			e := &r.jobs[i]
			if e.index >= 0 && int(e.index) < len(r.byIndex) {
				r.byIndex[e.index] = int32(i + 1)
			}
		}
		return false
	}
	buf := make([]byte, entryBytes)
	for range n {
		if _, err := io.ReadFull(br, buf); err != nil {
			return fail()
		}
		le := binary.LittleEndian
		e := entry{off: int64(le.Uint64(buf)), index: int64(le.Uint64(buf[8:])), n: le.Uint32(buf[16:]),
			dur: math.Float32frombits(le.Uint32(buf[20:])), file: uint16(fi), status: buf[36], pN: buf[37],
			combo: le.Uint64(buf[38:]), evals: bitOf(le.Uint64(buf[46:])), failing: bitOf(le.Uint64(buf[54:]))}
		var err1, err2, err3 error
		e.scenario, err1 = at(maps[0], le.Uint32(buf[24:]))
		e.variant, err2 = at(maps[0], le.Uint32(buf[28:]))
		e.why, err3 = at(maps[1], le.Uint32(buf[32:]))
		if err1 != nil || err2 != nil || err3 != nil || e.status > statusIncomplete || e.off+int64(e.n) > h.Indexed {
			return fail()
		}
		e.pOff = uint32(len(r.params))
		for range e.pN {
			var p [4]byte
			if _, err := io.ReadFull(br, p[:]); err != nil {
				return fail()
			}
			id, err := at(maps[3], le.Uint32(p[:]))
			if err != nil {
				return fail()
			}
			r.params = append(r.params, id)
		}
		r.place(e)
	}
	rf.indexed, rf.skipped, rf.saved, rf.fromSaved = h.Indexed, int(h.Skipped), h.Indexed, true
	r.skipped += int(h.Skipped)
	return true
}

// errBadIndex is a saved index that does not hold together.
var errBadIndex = errors.New("saved index: an id out of its table")

func writeUvarint(w *bufio.Writer, v uint64) {
	_, _ = w.Write(binary.AppendUvarint(nil, v))
}

// dirOf is path's folder.
func dirOf(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if os.IsPathSeparator(path[i]) {
			return path[:i+1]
		}
	}
	return "."
}
