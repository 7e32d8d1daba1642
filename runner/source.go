package runner

import (
	"fmt"
	"iter"
	"strconv"

	"github.com/agenteval/agenteval/scenario"
)

// Source is one input of a run (a scenario file or a matrix) as a
// numbered list of jobs. Jobs(offset, shard) numbers them from offset, so
// several sources make one run whose job indexes are deterministic.
type Source struct {
	// Name is the file the jobs come from.
	Name string
	// Count is the number of jobs.
	Count int64
	// Jobs yields the jobs numbered from offset whose index the shard owns
	// (Shard.Owns), in index order. It must reach them by arithmetic, not by
	// building and dropping the others: a shard of a huge run costs its own
	// jobs only.
	Jobs func(offset int64, sh Shard) iter.Seq2[Job, error]
	// prefix is the start its job ids share, for FileSources' uniqueness check.
	prefix string
}

// ScenarioSource runs a scenario runs times (at least once) as combination "-".
func ScenarioSource(name string, s *scenario.Scenario, runs int) Source {
	runs = max(1, runs)
	return Source{Name: name, Count: int64(runs), prefix: s.ID + "/-", Jobs: func(offset int64, sh Shard) iter.Seq2[Job, error] {
		return func(yield func(Job, error) bool) {
			for i := range sh.positions(offset, int64(runs)) {
				j := Job{ID: JobID(s.ID, "", int(i)+1), Index: offset + i, Scenario: s, Run: int(i) + 1}
				if !yield(j, nil) {
					return
				}
			}
		}
	}}
}

// JobID formats scenario/combination/run-N; an empty combination is "-".
func JobID(scenarioID, combination string, run int) string {
	if combination == "" {
		combination = "-"
	}
	return scenarioID + "/" + combination + "/run-" + strconv.Itoa(run)
}

// Shard selects one of n disjoint parts of a run: the jobs whose index
// modulo N equals I-1. Index order keeps parts balanced within one job.
type Shard struct{ I, N int64 }

// ParseShard reads "i/n" with 1 ≤ i ≤ n.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.I, &sh.N); err != nil || sh.N < 1 || sh.I < 1 || sh.I > sh.N || fmt.Sprintf("%d/%d", sh.I, sh.N) != s {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 <= i <= n, such as 2/5", s)
	}
	return sh, nil
}

// Owns reports whether the shard runs the job with this index.
func (sh Shard) Owns(index int64) bool { return sh.N <= 1 || index%sh.N == sh.I-1 }

// Size is how many of total jobs the shard owns.
func (sh Shard) Size(total int64) int64 {
	if sh.N <= 1 {
		return total
	}
	n := total / sh.N
	if total%sh.N >= sh.I {
		n++
	}
	return n
}

// positions yields, in order, the positions p in [0, count) of a source
// numbered from offset whose index offset+p the shard owns.
func (sh Shard) positions(offset, count int64) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		first, step := sh.first(offset), max(sh.N, 1)
		for p := first; p < count; p += step {
			if !yield(p) || count-p <= step {
				return
			}
		}
	}
}

// first is the first position of a source numbered from offset that the
// shard owns (it may lie beyond the source's end).
func (sh Shard) first(offset int64) int64 {
	if sh.N <= 1 {
		return 0
	}
	return ((sh.I-1-offset)%sh.N + sh.N) % sh.N
}

// String renders i/n, or "" for no sharding.
func (sh Shard) String() string {
	if sh.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.I, sh.N)
}

// Combine numbers the sources' jobs one after another and keeps the ones
// the shard owns, reaching them without expanding the others. It returns
// the jobs and the whole run's total.
func Combine(sources []Source, sh Shard) (iter.Seq2[Job, error], int64, error) {
	var total int64
	for _, s := range sources {
		if s.Count < 0 || total+s.Count < total {
			return nil, 0, fmt.Errorf("runner: job count overflows")
		}
		total += s.Count
	}
	return func(yield func(Job, error) bool) {
		var offset int64
		for _, s := range sources {
			for j, err := range s.Jobs(offset, sh) {
				if err != nil {
					yield(Job{}, fmt.Errorf("%s: %w", s.Name, err))
					return
				}
				if !yield(j, nil) {
					return
				}
			}
			offset += s.Count
		}
	}, total, nil
}
