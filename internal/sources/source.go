// Package sources turns loaded files into the numbered jobs of one run:
// each scenario runs Options.Runs times, each matrix expands lazily,
// sources are numbered one after another (Combine) and a shard reaches its
// own jobs by arithmetic. A suite repeats every source once per agent ×
// model (Suite). Hosts get these jobs from agenteval.Kit.Jobs; the CLI and
// Kit share this one implementation.
package sources

import (
	"errors"
	"fmt"
	"iter"
	"strconv"

	"github.com/agenteval/agenteval/matrix"
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
	// (matrix.Shard.Owns), in index order. It must reach them by arithmetic, not by
	// building and dropping the others: a shard of a huge run costs its own
	// jobs only.
	Jobs func(offset int64, sh matrix.Shard) iter.Seq2[matrix.Job, error]
	// prefix is the start its job ids share, for Files' uniqueness check.
	prefix string
}

// Scenario runs a scenario runs times (at least once) as combination "-".
func Scenario(name string, s *scenario.Scenario, runs int) Source {
	runs = max(1, runs)
	return Source{Name: name, Count: int64(runs), prefix: s.ID + "/-", Jobs: func(offset int64, sh matrix.Shard) iter.Seq2[matrix.Job, error] {
		return func(yield func(matrix.Job, error) bool) {
			for i := range positions(sh, offset, int64(runs)) {
				j := matrix.Job{ID: JobID(s.ID, "", int(i)+1), Index: offset + i, ScenarioID: s.ID,
					Combination: matrix.SingleCombination, Run: int(i) + 1, Scenario: s}
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
	// One allocation: the id is built on the stack, then copied once.
	var buf [128]byte
	b := append(buf[:0], scenarioID...)
	b = append(b, '/')
	b = append(b, combination...)
	b = append(b, "/run-"...)
	b = strconv.AppendInt(b, int64(run), 10)
	return string(b)
}

// positions yields, in order, the positions p in [0, count) of a source
// numbered from offset whose index offset+p the shard owns.
func positions(sh matrix.Shard, offset, count int64) iter.Seq[int64] {
	return func(yield func(int64) bool) {
		first, step := shardFirst(sh, offset), shardStep(sh)
		for p := first; p < count; p += step {
			if !yield(p) || count-p <= step {
				return
			}
		}
	}
}

// shardStep is the distance between consecutive indexes a shard owns.
func shardStep(sh matrix.Shard) int64 { return max(int64(sh.Count), 1) }

// shardFirst is the first position of a source numbered from offset that
// the shard owns (it may lie beyond the source's end).
func shardFirst(sh matrix.Shard, offset int64) int64 {
	if sh.IsWhole() {
		return 0
	}
	// (Index-1-offset) mod n, in steps that cannot overflow: with n near
	// 2^63, adding n to a negative remainder would wrap (it once made
	// shards run jobs with negative run numbers).
	n := int64(sh.Count)
	a, b := int64(sh.Index-1)%n, offset%n
	if a >= b {
		return a - b
	}
	return a - b + n
}

// Combine numbers the sources' jobs one after another and keeps the ones
// the shard owns, reaching them without expanding the others. It returns
// the jobs and the whole run's total.
func Combine(sources []Source, sh matrix.Shard) (iter.Seq2[matrix.Job, error], int64, error) {
	if err := sh.Validate(); err != nil {
		return nil, 0, err
	}
	var total int64
	for _, s := range sources {
		if s.Count < 0 || total+s.Count < total {
			return nil, 0, errors.New("job count overflows")
		}
		total += s.Count
	}
	return func(yield func(matrix.Job, error) bool) {
		var offset int64
		for _, s := range sources {
			for j, err := range s.Jobs(offset, sh) {
				if err != nil {
					yield(matrix.Job{}, fmt.Errorf("%s: %w", s.Name, err))
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
