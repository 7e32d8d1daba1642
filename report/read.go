package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/redact"
	"github.com/agenteval/agenteval/results"
)

// Defaults for Options fields left zero.
const (
	// DefaultK is the k for which pass@k and pass^k are singled out.
	DefaultK = 3
	// defaultMaxKList is how many k values (1..MaxKList) the pass@k lists hold.
	defaultMaxKList = 10
	// defaultMaxWarnings caps the warnings kept.
	defaultMaxWarnings = 20
	// maxRun bounds run numbers to what a slot stores.
	maxRun = 1<<31 - 1
)

// Options tune Read.
type Options struct {
	// K is the k singled out for pass@k and pass^k (DefaultK when 0).
	K int
	// MaxKList bounds the k = 1..runs lists of pass@k and pass^k (defaultMaxKList when 0).
	MaxKList int
	// MaxLineBytes is the longest line read; longer lines are skipped with
	// a warning (jsonl.DefaultMaxLineBytes when 0).
	MaxLineBytes int
	// MaxWarnings caps the warnings kept; the rest are only counted
	// (defaultMaxWarnings when 0).
	MaxWarnings int
	// Redactor masks secrets in every line before it is read, so none
	// reaches a report (nil: redact.FromEnvironment(os.Environ())).
	Redactor *redact.Redactor
}

func (o Options) withDefaults() Options {
	if o.K <= 0 {
		o.K = DefaultK
	}
	if o.MaxKList <= 0 {
		o.MaxKList = defaultMaxKList
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = jsonl.DefaultMaxLineBytes
	}
	if o.MaxWarnings <= 0 {
		o.MaxWarnings = defaultMaxWarnings
	}
	if o.Redactor == nil {
		o.Redactor = redact.FromEnvironment(os.Environ())
	}
	return o
}

// Results is what Read learned from its inputs: the plans, and per
// combination the additive aggregates and one compact slot per job.
type Results struct {
	inputs    []Input
	files     []*os.File // opened by ReadFiles
	opts      Options
	plans     []seenPlan
	combos    map[string]*combo
	scenarios []*scenarioGroup // sorted by scenario id once reading is done

	recorded, duplicates, malformed int64
	outOfRange                      int64
	missing                         []IndexRange
	missingJobs                     int64
	warnings                        []string
	droppedWarnings                 int
	scratch                         map[evalKey]uint8
	budgets                         []BudgetSummary
}

type seenPlan struct {
	input string
	plan  results.Plan
}

// combo is one combination of one scenario (the whole scenario outside a matrix).
type combo struct {
	key          string // the job id's prefix: scenario/combination
	scenario     string
	scenarioName string
	matrix       string
	combination  string
	agent, model string // the suite's agent and model ("" outside a suite)
	params       map[string]any
	minIndex     int64
	slots        []slot        // sorted by run once reading is done
	byRun        map[int32]int // run → position in slots, while reading
	t            tally
}

// slot is the winning record of one job: where it lies and what the
// statistics that cannot be summed (durations, flakiness) need.
type slot struct {
	off       int64
	index     int64
	dur       float64
	src       int32 // input index + 1
	run       int32
	completed bool
	passed    bool
	// tokens (total), active (activeTokens), tools and turns are the job's
	// efficiency, for medians and efficiency comparisons.
	tokens, active int64
	tools, turns   int32
}

type scenarioGroup struct {
	id     string
	name   string
	combos []*combo // in job index order
}

// Read streams the inputs once, merging and deduplicating their job records
// (see the package documentation for which duplicate wins). Malformed lines
// are skipped and reported in Summary.Warnings; an unreadable input, an
// input that holds no plan or job record at all ([ErrNoResults]: empty, or
// not a results file) and two conflicting plans (the error names both
// inputs and the field that differs) are errors.
func Read(inputs []Input, opts Options) (*Results, error) {
	r := &Results{
		inputs:  inputs,
		opts:    opts.withDefaults(),
		combos:  map[string]*combo{},
		scratch: map[evalKey]uint8{},
	}
	for i, in := range inputs {
		if err := r.readInput(i, in); err != nil {
			return nil, err
		}
	}
	r.finish()
	return r, nil
}

func (r *Results) readInput(src int, in Input) error {
	lr := jsonl.NewReader(io.NewSectionReader(in.R, 0, in.Size), 0, r.opts.MaxLineBytes, r.opts.Redactor)
	// A file that holds no record at all (empty, YAML, a log) is not a
	// results file: reading it as "0 jobs" would hide the mistake.
	records, warned := 0, len(r.warnings)
	for {
		line, off, err := lr.Next()
		if errors.Is(err, io.EOF) {
			if records == 0 {
				return noResults(in.Name, lr.Line(), r.warnings[min(warned, len(r.warnings)):])
			}
			return nil
		}
		if errors.Is(err, jsonl.ErrLineTooLong) {
			r.malformed++
			r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: err})
			continue
		}
		if err != nil {
			return fmt.Errorf("read results: %w", &lineError{Input: in.Name, Line: lr.Line() + 1, Err: err})
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec lineRecord
		if err := json.Unmarshal(line, &rec); err != nil {
			r.malformed++
			r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: fmt.Errorf("malformed record skipped: %w", err)})
			continue
		}
		switch rec.Record {
		case results.RecordPlan:
			p, err := rec.plan()
			if err != nil {
				r.malformed++
				r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: fmt.Errorf("malformed record skipped: %w", err)})
				continue
			}
			if err := r.addPlan(in.Name, p); err != nil {
				return err
			}
			records++
		case results.RecordJob:
			if err := r.addJob(src, off, &rec); err != nil {
				r.malformed++
				r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: err})
				continue
			}
			records++
		case results.RecordBudget:
			if err := r.addBudget(in.Name, line); err != nil {
				r.malformed++
				r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: err})
				continue
			}
			records++
		default:
			r.malformed++
			r.warn(&lineError{Input: in.Name, Line: lr.Line(), Err: fmt.Errorf("unknown record kind %q skipped", rec.Record)})
		}
	}
}

// ErrNoResults is returned by Read for an input that holds no results
// record (plan or job): an empty file, or one that is not a results file.
var ErrNoResults = errors.New("no results record")

// noResults explains why an input of lines lines holds no record; problems
// are the warnings its lines raised.
func noResults(name string, lines int, problems []string) error {
	if lines == 0 {
		return fmt.Errorf("%s is empty: %w (a results file opens with a plan record)", name, ErrNoResults)
	}
	why := ""
	if len(problems) > 0 {
		why = "; " + problems[0]
	}
	return fmt.Errorf("%s is not a results file: %w in its %d line(s)%s", name, ErrNoResults, lines, why)
}

func (r *Results) warn(err error) {
	if len(r.warnings) >= r.opts.MaxWarnings {
		r.droppedWarnings++
		return
	}
	r.warnings = append(r.warnings, err.Error())
}

// addPlan keeps a plan after checking it describes the same job numbering
// as the first plan seen. Run ids may differ (shards started separately).
func (r *Results) addPlan(input string, p results.Plan) error {
	if p.TotalJobs < 0 {
		return &planConflictError{First: input, Second: input, Field: "total_jobs", A: "a negative count", B: strconv.FormatInt(p.TotalJobs, 10)}
	}
	if len(r.plans) > 0 {
		first := r.plans[0]
		check := []struct{ field, a, b string }{
			{"total_jobs", strconv.FormatInt(first.plan.TotalJobs, 10), strconv.FormatInt(p.TotalJobs, 10)},
			{"seed", strconv.FormatInt(first.plan.Seed, 10), strconv.FormatInt(p.Seed, 10)},
			{"agent", strconv.Quote(first.plan.Agent), strconv.Quote(p.Agent)},
			{"sources", strconv.Quote(strings.Join(first.plan.Sources, ",")), strconv.Quote(strings.Join(p.Sources, ","))},
			{"shard count", strconv.Quote(shardCount(first.plan.Shard)), strconv.Quote(shardCount(p.Shard))},
		}
		for _, c := range check {
			if c.a != c.b {
				return &planConflictError{First: first.input, Second: input, Field: c.field, A: c.a, B: c.b}
			}
		}
	}
	r.plans = append(r.plans, seenPlan{input: input, plan: p})
	return nil
}

// shardCount returns n of "i/n", or "1" when unsharded.
func shardCount(shard string) string {
	if _, n, ok := strings.Cut(shard, "/"); ok {
		return n
	}
	return "1"
}

// splitJobID splits "scenario/combination/run-N" into its prefix and N.
func splitJobID(id string) (prefix string, run int, err error) {
	i := strings.LastIndex(id, "/run-")
	if i <= 0 {
		return "", 0, fmt.Errorf("job id %q is not scenario/combination/run-N", id)
	}
	n, err := strconv.Atoi(id[i+len("/run-"):])
	if err != nil || n < 1 || n > maxRun {
		return "", 0, fmt.Errorf("job id %q has no run number in 1..%d", id, maxRun)
	}
	return id[:i], n, nil
}

func (r *Results) addJob(src int, off int64, rec *lineRecord) error {
	prefix, run, err := splitJobID(rec.ID)
	if err != nil {
		return err
	}
	if rec.Index < 0 {
		return fmt.Errorf("job %s has negative index %d", rec.ID, rec.Index)
	}
	c := r.combos[prefix]
	if c == nil {
		params, err := rec.params()
		if err != nil {
			return err
		}
		scen := rec.Scenario
		if scen == "" {
			scen = prefix[:max(0, strings.LastIndexByte(prefix, '/'))]
		}
		comb := rec.Combination
		if comb == "" {
			comb = "-"
		}
		c = &combo{key: prefix, scenario: scen, scenarioName: rec.ScenarioName, matrix: rec.Matrix,
			combination: comb, agent: rec.Agent, model: rec.Model, params: params, minIndex: rec.Index, byRun: map[int32]int{}}
		r.combos[prefix] = c
	}
	c.minIndex = min(c.minIndex, rec.Index)
	pos, seen := c.byRun[int32(run)]
	if !seen {
		pos = len(c.slots)
		c.byRun[int32(run)] = pos
		c.slots = append(c.slots, slot{})
	}
	s := &c.slots[pos]
	if seen {
		r.duplicates++
		// The current record is later than the kept one; it wins unless it
		// is incomplete and the kept one completed.
		if !rec.Completed && s.completed {
			return nil
		}
		loser, err := r.readRecord(int(s.src-1), s.off)
		if err != nil {
			return fmt.Errorf("re-read duplicate of %s: %w", rec.ID, err)
		}
		c.t.add(loser, -1, r.scratch)
		r.recorded--
	}
	c.t.add(rec, 1, r.scratch)
	r.recorded++
	*s = slot{off: off, index: rec.Index, dur: rec.DurationMS, src: int32(src + 1), run: int32(run),
		completed: rec.Completed, passed: rec.Passed && rec.Completed, tokens: int64(rec.Usage.TotalTokens), active: activeTokens(rec.Usage),
		tools: int32(min(rec.Efficiency.ToolCalls.Total, 1<<31-1)), turns: int32(min(rec.Efficiency.Turns, 1<<31-1))}
	return nil
}

// readRecord decodes the statistics fields of the record at off in input src.
func (r *Results) readRecord(src int, off int64) (*lineRecord, error) {
	in := r.inputs[src]
	lr := jsonl.NewReader(io.NewSectionReader(in.R, off, in.Size-off), off, r.opts.MaxLineBytes, r.opts.Redactor)
	line, _, err := lr.Next()
	if err != nil {
		return nil, err
	}
	var rec lineRecord
	if err := json.Unmarshal(line, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// finish orders scenarios, combinations and runs, and works out which job
// indexes have no record.
func (r *Results) finish() {
	total := r.totalJobs()
	have := make([]int64, 0, r.recorded)
	groups := map[string]*scenarioGroup{}
	for _, c := range r.combos {
		g := groups[c.scenario]
		if g == nil {
			g = &scenarioGroup{id: c.scenario}
			groups[c.scenario] = g
			r.scenarios = append(r.scenarios, g)
		}
		if g.name == "" {
			g.name = c.scenarioName
		}
		g.combos = append(g.combos, c)
		c.byRun = nil
		slices.SortFunc(c.slots, func(a, b slot) int { return cmp.Compare(a.run, b.run) })
		for _, s := range c.slots {
			if len(r.plans) > 0 && s.index >= total {
				r.outOfRange++
			}
			have = append(have, s.index)
		}
	}
	if len(r.plans) > 0 {
		r.missing, r.missingJobs = missingRanges(have, total)
	}
	slices.SortFunc(r.scenarios, func(a, b *scenarioGroup) int { return strings.Compare(a.id, b.id) })
	for _, g := range r.scenarios {
		slices.SortFunc(g.combos, func(a, b *combo) int {
			return cmp.Or(cmp.Compare(a.minIndex, b.minIndex), strings.Compare(a.key, b.key))
		})
	}
	if len(r.plans) == 0 && r.recorded > 0 {
		r.warn(errors.New("no plan record: cannot tell which jobs are missing"))
	}
	if r.outOfRange > 0 {
		r.warn(fmt.Errorf("%d job(s) have an index beyond the plan's total_jobs %d", r.outOfRange, total))
	}
}

// totalJobs is the number of jobs the plans describe (0 without a plan).
func (r *Results) totalJobs() int64 {
	if len(r.plans) == 0 {
		return 0
	}
	return r.plans[0].plan.TotalJobs
}
