package matrix

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"strconv"

	"github.com/agenteval/agenteval/scenario"
)

// Jobs yields the plan's jobs in order, each with its Scenario built: axis 0
// varies slowest and the last axis fastest, and the runs of a combination
// are consecutive. Expansion is lazy, so memory does not grow with the
// number of jobs; breaking out of the loop stops it. A selection over the
// cap yields one error wrapping ErrTooManyJobs and nothing else; a
// cancelled ctx ends the sequence with ctx's error.
func (p *Plan) Jobs(ctx context.Context) iter.Seq2[Job, error] { return p.expand(ctx, true) }

// Headers yields the same jobs as Jobs without building their scenarios:
// ids, indexes and parameters only. It suits listing, counting and resume,
// which look at ids first; Materialize builds a job's scenario on demand.
func (p *Plan) Headers(ctx context.Context) iter.Seq2[Job, error] { return p.expand(ctx, false) }

// Materialize builds the scenario of the job with the given Index, as Jobs
// would have. It fails when the index is outside the matrix.
func (p *Plan) Materialize(index int64) (*scenario.Scenario, error) {
	runs := int64(p.runs)
	if index < 0 || index/runs >= p.combos {
		return nil, fmt.Errorf("matrix: job index %d is outside the matrix (%d combinations × %d runs)", index, p.combos, p.runs)
	}
	co := index / runs
	choice := make([]int, len(p.axes))
	for i, a := range p.axes {
		choice[i] = int((co / a.stride) % int64(len(a.values)))
	}
	return p.build(choice), nil
}

func (p *Plan) expand(ctx context.Context, materialise bool) iter.Seq2[Job, error] {
	return func(yield func(Job, error) bool) {
		if p.combos < 0 {
			yield(Job{}, fmt.Errorf("%w: the matrix has more jobs than an int64 can number (%s)", ErrOverflow, p.sizeText()))
			return
		}
		total, err := p.total()
		if err != nil {
			yield(Job{}, err)
			return
		}
		if p.maxJobs > 0 && total > p.maxJobs {
			yield(Job{}, fmt.Errorf("%w: the selection holds %d jobs (%s), more than the cap of %d; narrow it with filters or raise the cap (--max-jobs)",
				ErrTooManyJobs, total, p.sizeText(), p.maxJobs))
			return
		}
		sh := p.shard.norm()
		runs := int64(p.runs)
		k := len(p.axes)
		choice := make([]int, k)
		var (
			lastCo    int64 = -1
			combo     []byte
			comboBase int64
			hashBuf   []byte
			idBuf     []byte
		)
		done := ctx.Done()
		step := int64(sh.Count)
		for o, n := int64(sh.Index-1), 0; o < total; o, n = next(o, step, total), n+1 {
			if done != nil && n&255 == 0 {
				select {
				case <-done:
					yield(Job{}, ctx.Err())
					return
				default:
				}
			}
			co, r := o/runs, o%runs
			if co != lastCo {
				lastCo = co
				comboBase = 0
				rem := co
				for i := k - 1; i >= 0; i-- {
					s := p.sel[i]
					d := rem % int64(len(s))
					rem /= int64(len(s))
					choice[i] = s[d]
					comboBase += int64(choice[i]) * p.axes[i].stride
				}
				combo, hashBuf = p.comboID(choice, combo[:0], hashBuf)
			}
			run := int(r) + 1
			idBuf = append(idBuf[:0], p.id...)
			idBuf = append(idBuf, '/')
			idBuf = append(idBuf, combo...)
			idBuf = append(idBuf, "/run-"...)
			idBuf = strconv.AppendInt(idBuf, int64(run), 10)
			id := string(idBuf)
			job := Job{
				ID:    id,
				Index: comboBase*runs + r,
				// The combination is a substring of the id: one allocation, not two.
				Combination: id[len(p.id)+1 : len(p.id)+1+len(combo)],
				ScenarioID:  p.scenarioID,
				Matrix:      p.name,
				Run:         run,
			}
			if k > 0 {
				job.Params = make([]Param, k)
				for i := range p.axes {
					a := &p.axes[i]
					job.Params[i] = Param{Path: a.param, Value: a.values[choice[i]]}
				}
			}
			if materialise {
				job.Scenario = p.build(choice)
			}
			if !yield(job, nil) {
				return
			}
		}
	}
}

// build returns a new scenario: the base with the chosen values applied.
// Only the containers on the axes' paths are new; the rest is shared.
func (p *Plan) build(choice []int) *scenario.Scenario {
	s := cow(p.baseValue, p.trie, p.axes, choice).Interface().(*scenario.Scenario)
	for i := range p.axes {
		if p.axes[i].redefault[choice[i]] {
			// Only fields that are still empty get written, and those are in
			// the containers this job copied: the base has its defaults.
			s.SetDefaults("")
			break
		}
	}
	return s
}

// comboID returns the content-addressed id of a combination: "c-" and the
// first 16 hex digits of the SHA-256 of the canonical JSON of its
// (path, value) pairs sorted by path, [["name","Test A"],["run[0].input","x"]].
// Sorting makes the id independent of axis order, and canonical JSON makes
// it independent of how the YAML spelled the value. 64 bits keep the chance
// of any collision among a million combinations near 3e-8. The id is
// appended to dst; buf is scratch space; both are returned for reuse.
func (p *Plan) comboID(choice []int, dst, buf []byte) ([]byte, []byte) {
	if len(p.axes) == 0 {
		return append(dst, SingleCombination...), buf
	}
	buf = append(buf[:0], '[')
	for n, i := range p.hashOrder {
		if n > 0 {
			buf = append(buf, ',')
		}
		a := &p.axes[i]
		buf = append(buf, a.hashHead...)
		buf = append(buf, a.canonOf(choice[i])...)
		buf = append(buf, ']')
	}
	buf = append(buf, ']')
	sum := sha256.Sum256(buf)
	dst = append(dst, "c-"...)
	return hex.AppendEncode(dst, sum[:8]), buf
}

// SingleCombination is the combination id of a scenario run without a matrix.
const SingleCombination = "-"

// next returns o+step, or total when that would reach or pass it, so that
// the loop ends without overflowing near the top of int64.
func next(o, step, total int64) int64 {
	if total-o <= step {
		return total
	}
	return o + step
}
