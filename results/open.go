package results

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/redact"
)

// Options say what Open does with a results file that exists.
type Options struct {
	// Resume appends to an existing file once its first plan is found to
	// describe the same run (same inputs and contents, agent, seed, shard,
	// settings); the new plan then takes the file's run id. Writer.Recorded
	// lists the jobs it holds.
	Resume bool
	// Overwrite replaces an existing file. With neither Resume nor Overwrite,
	// an existing file is refused with ErrExist.
	Overwrite bool
	// Redactor masks secrets in every record (nil: the environment's, as
	// redact.FromEnvironment(os.Environ()) finds them).
	Redactor *redact.Redactor
}

// ErrExist is returned by Open for a results file that holds
// records when neither Resume nor Overwrite was asked.
var ErrExist = errors.New("the results file exists")

// ErrPlanMismatch is returned by Open when Resume meets a file
// whose plan describes another run; the message says what differs.
var ErrPlanMismatch = errors.New("the results file is of another run")

// Open opens the results file at path for one run, safely: it takes
// the lock of path's folder (one writer per folder; a *LockedError names
// the process that holds it), refuses to touch an existing file unless
// asked to resume or overwrite it, checks on resume that the file's plan is
// this plan (the file is left byte for byte as it was when it is not), cuts
// a torn last line, and writes plan as the invocation's first record. The
// lock is released by Close. A plan without RunID gets a new one (the time
// and random hex), and one without Started gets the time now.
func Open(path string, plan *Plan, opts Options) (*Writer, error) {
	if plan == nil {
		return nil, errors.New("results: Open needs a plan")
	}
	if plan.Started.IsZero() {
		plan.Started = time.Now().UTC()
	}
	if plan.RunID == "" {
		var b [6]byte
		_, _ = rand.Read(b[:])
		plan.RunID = plan.Started.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
	}
	if opts.Resume && opts.Overwrite {
		return nil, errors.New("results: resume or overwrite the results, not both")
	}
	plan.Version = resultsVersion
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	keep := false
	defer func() {
		if !keep {
			_ = lock.unlock()
		}
	}()
	st, err := os.Stat(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	exists := err == nil && st.Size() > 0
	var done map[string]Outcome
	switch {
	case exists && opts.Resume:
		first, ids, err := readResults(path)
		if err != nil {
			return nil, fmt.Errorf("results: cannot resume %s: %w", path, err)
		}
		if first != nil {
			if diffs := first.differences(plan); len(diffs) > 0 {
				return nil, fmt.Errorf("%w: %s: %s", ErrPlanMismatch, path, strings.Join(diffs, "; "))
			}
			plan.RunID = first.RunID
		}
		done = ids
	case exists && !opts.Overwrite:
		return nil, fmt.Errorf("%w: %s holds %d bytes of results", ErrExist, path, st.Size())
	}
	w, err := createJSONL(path, opts.Resume, lock)
	if err != nil {
		return nil, err
	}
	if opts.Redactor != nil {
		w.Redactor = opts.Redactor
	}
	w.latest = done
	for _, o := range done {
		w.tally.add(o, 1)
	}
	if err := w.writePlan(plan); err != nil {
		_ = w.Close()
		return nil, err
	}
	keep = true
	return w, nil
}

// Outcome returns what the latest record of job id said when Open
// resumed the file, and whether the file held the job: a resumed run
// skips the jobs it held, a retry reruns those whose latest record failed
// or was incomplete. Safe for concurrent use with Write.
func (w *Writer) Outcome(id string) (Outcome, bool) {
	o, ok := w.latest[id]
	return o, ok
}

// Outcome is what the latest record of a job says: whether it ran to a
// verdict and whether it passed. Every reader of a results file takes a
// job's latest record (the last line with its id) as the job's: a retry
// appends new records after the old ones.
type Outcome struct{ Completed, Passed bool }

// Tally counts the jobs of a results file by their latest record.
type Tally struct{ Jobs, Passed, Failed, Incomplete int64 }

// add counts o sign times (1 to add a record, -1 to take one back).
func (t *Tally) add(o Outcome, sign int64) {
	t.Jobs += sign
	switch {
	case o.Passed:
		t.Passed += sign
	case o.Completed:
		t.Failed += sign
	default:
		t.Incomplete += sign
	}
}

// differences says how plan q (a new invocation) differs from p (the
// file's): the run-defining fields, not the run id, start or counts.
func (p *Plan) differences(q *Plan) []string {
	if p.Version != q.Version {
		return []string{fmt.Sprintf("format: written by an agenteval whose job ids differ (results version %d, this one writes %d)", p.Version, q.Version)}
	}
	var out []string
	diff := func(field, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: recorded %s, now %s", field, a, b))
		}
	}
	diff("agent", strconv.Quote(p.Agent), strconv.Quote(q.Agent))
	diff("seed", strconv.FormatInt(p.Seed, 10), strconv.FormatInt(q.Seed, 10))
	diff("shard", strconv.Quote(p.Shard), strconv.Quote(q.Shard))
	diff("sources", strconv.Quote(strings.Join(p.Sources, ", ")), strconv.Quote(strings.Join(q.Sources, ", ")))
	diff("total jobs", strconv.FormatInt(p.TotalJobs, 10), strconv.FormatInt(q.TotalJobs, 10))
	was, now := map[string]string{}, map[string]string{}
	for _, in := range p.Inputs {
		was[in.Path] = in.SHA256
	}
	for _, in := range q.Inputs {
		now[in.Path] = in.SHA256
	}
	for _, path := range slices.Sorted(maps.Keys(now)) {
		old, ok := was[path]
		switch {
		case !ok && len(p.Inputs) > 0:
			out = append(out, "input "+path+": not read by the recorded run")
		case ok && old != now[path]:
			out = append(out, "input "+path+": its content changed since it was recorded")
		}
	}
	for _, path := range slices.Sorted(maps.Keys(was)) {
		if _, ok := now[path]; !ok && len(q.Inputs) > 0 {
			out = append(out, "input "+path+": read by the recorded run, not by this one")
		}
	}
	keys := slices.Sorted(maps.Keys(p.Settings))
	for k := range q.Settings {
		if _, ok := p.Settings[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		diff(k, strconv.Quote(p.Settings[k]), strconv.Quote(q.Settings[k]))
	}
	return out
}
