package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/jsonl"
	"github.com/agenteval/agenteval/internal/keytable"
	"github.com/agenteval/agenteval/internal/labels"
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
	// DefaultMaxCombinations is how many combinations of a scenario a
	// report lists (and how many values of a matrix parameter it counts
	// one by one) when Options.MaxCombinations is 0.
	DefaultMaxCombinations = 1000
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
	// MaxCombinations bounds the per-combination tables of a report: a
	// scenario lists its first MaxCombinations combinations in job order
	// (ScenarioSummary.MoreCombinations counts the rest, which every
	// total, rate and test still covers), a matrix parameter its first
	// MaxCombinations values seen (the runs of the others are counted
	// together), a comparison its MaxCombinations most significant rows
	// (DefaultMaxCombinations when 0).
	MaxCombinations int
	// IgnoreLabels reports the run's own verdicts. Otherwise ReadFiles
	// applies the reviews in the labels.jsonl beside each results file
	// (written by `agenteval view`): a reviewed job's verdict is the
	// person's and its reason says so (Summary.Reviewed counts them).
	IgnoreLabels bool
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
	if o.MaxCombinations <= 0 {
		o.MaxCombinations = DefaultMaxCombinations
	}
	return o
}

// Results is what Read learned from its inputs: the plans, and per
// combination the counts of its runs, and one compact slot per job.
//
// Memory is a fixed amount per job and per combination, never a job's
// text: a slot per job (where its record lies, its duration, tokens, tool
// calls, turns and verdict: 40 bytes, and 32 more when it recorded tokens,
// tool calls, turns or a cost; a combination's runs after its
// first also take about 20 in an index while reading), a combination's
// key and counts (48 bytes, its key's text and 4 to 8 in the key table),
// and per scenario the additive tallies (evaluations, termination
// reasons, tool categories) and per matrix parameter the counts of at
// most Options.MaxCombinations values. What is shown per combination
// (its evaluation failures, termination reasons, tokens, parameters) is
// read back from the inputs for the combinations a report lists.
type Results struct {
	inputs []Input
	files  []*os.File // opened by ReadFiles
	opts   Options
	plans  []seenPlan

	combos   []combo
	comboIdx keytable.Table   // key → combos (comboKey)
	groups   []*scenarioGroup // sorted by scenario id once reading is done
	groupIdx map[string]int32 // scenario id → groups, while reading
	variants []variantGroup
	// slots are the winning records, one per job; once reading is done
	// they are in report order (scenarios by id, combinations in job
	// order, runs by number) and each combination owns slots[lo:lo+runs].
	slots []slot
	effs  []slotEff // the slots' efficiency (slot.eff)
	// jobIdx finds a job's slot by combination and run while reading,
	// for the runs after a combination's first (combo.lo has that one).
	// indexes are the slots' job indexes, while reading (for the missing
	// ones; a slot does not keep its index, which no report shows).
	indexes []int64
	jobIdx  map[uint64]int32 // combo<<32 | run → slots

	recorded, duplicates, malformed int64
	outOfRange                      int64
	missing                         []IndexRange
	missingJobs                     int64
	warnings                        []string
	droppedWarnings                 int
	scratch                         map[evalKey]uint8
	budgets                         []BudgetSummary

	// labels are the reviews applied (by job id; nil: none); reviewed
	// are the reviewed jobs that have a record.
	labels   map[string]labels.Label
	reviewed map[string]bool
}

// comboKey is the key of combination i, for comboIdx.
func (r *Results) comboKey(i int32) string { return r.combos[i].key }

type seenPlan struct {
	input string
	plan  results.Plan
}

// combo is one combination of one scenario (the whole scenario outside a
// matrix): its key, where its jobs are, and the counts every statistic
// over all combinations needs (flakiness, pass@k, comparisons). The rest
// of what a report shows of it is read back from its records.
type combo struct {
	key      string // the job id's prefix: scenario/combination
	minIndex int64
	group    int32 // index in Results.groups (its order while reading)
	variant  int32 // index in Results.variants; −1 outside a suite
	// lo is where its slots start once reading is done (it has runs of
	// them); while reading, the slot of its first run seen (−1: none).
	// The fields are in this order so that a combo takes 48 bytes, not 56.
	lo                      int32
	runs, completed, passed int32
}

// flaky is true when the combination's completed runs disagree on the verdict.
func (c *combo) flaky() bool { return c.passed > 0 && c.passed < c.completed }

// variantGroup is a suite's agent × model: its tool calls by category.
type variantGroup struct {
	key      variantKey
	minIndex int64
	tools    map[string]int
}

// slot is the winning record of one job: where it lies and what the
// statistics that cannot be summed (durations, medians, flakiness) need.
// It holds no pointer, so the collector never scans the slots.
type slot struct {
	off   int64
	dur   float64
	combo int32
	run   int32
	src   int32 // input index
	// eff is the job's efficiency in Results.effs; −1 when it recorded
	// none (no tokens, tool calls or cost: an echo or exec job), which
	// then costs nothing.
	eff int32
	// turns is the job's turns (efficiency.turns) and free says its cost
	// was known to be 0: in what would be the slot's padding, so that a job
	// with no more than these (an echo or exec job) costs no slotEff.
	turns     int32
	completed bool
	passed    bool
	free      bool
}

// slotEff is a job's efficiency, for medians and efficiency comparisons:
// tokens (total), active (activeTokens), tool calls, and (filled in by
// Results.eff from the slot) turns.
type slotEff struct {
	tokens, active int64
	tools, turns   int32
	// costBits is the job's total cost in US dollars as math.Float32bits
	// plus 1; 0 when unknown or not priced (see cost).
	costBits uint32
}

type scenarioGroup struct {
	id     string
	name   string
	combos []int32 // in job order once reading is done
	// t tallies every job of the scenario; params counts each matrix
	// parameter's values over them.
	t      tally
	params map[string]*paramTally
}

// paramTally counts the runs of one parameter per value: the first
// Options.MaxCombinations values seen, and the runs of any other value
// together, so that a parameter with 10^6 values costs a bounded table.
type paramTally struct {
	values map[string]*[3]int // value → runs, completed, passed
	other  [3]int
}

// Read streams the inputs once, merging and deduplicating their job records
// (see the package documentation for which duplicate wins). Malformed lines
// are skipped and reported in Summary.Warnings; an unreadable input, an
// input that holds no plan or job record at all ([ErrNoResults]: empty, or
// not a results file) and two conflicting plans (the error names both
// inputs and the field that differs) are errors.
func Read(inputs []Input, opts Options) (*Results, error) {
	return read(inputs, opts, nil)
}

// read is Read applying reviews (by job id).
func read(inputs []Input, opts Options, reviews map[string]labels.Label) (*Results, error) {
	r := &Results{
		labels:   reviews,
		inputs:   inputs,
		opts:     opts.withDefaults(),
		groupIdx: map[string]int32{},
		jobIdx:   map[uint64]int32{},
		scratch:  map[evalKey]uint8{},
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
		if err := rec.decode(line); err != nil {
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
			if len(r.plans) == 1 && r.slots == nil {
				// One slot a job of the plan, allocated once (no record is
				// shorter than 32 bytes, which bounds a plan that lies).
				n := min(p.TotalJobs, in.Size/32, maxSlots)
				r.slots, r.indexes = make([]slot, 0, n), make([]int64, 0, n)
			}
			records++
		case results.RecordJob:
			r.reviewRecord(&rec)
			if rec.reviewed {
				if r.reviewed == nil {
					r.reviewed = map[string]bool{}
				}
				r.reviewed[rec.ID] = true
			}
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

// maxSlots bounds the jobs (and combinations) one Results holds: their
// indexes are int32.
const maxSlots = 1<<31 - 1

func (r *Results) addJob(src int, off int64, rec *lineRecord) error {
	prefix, run, err := splitJobID(rec.ID)
	if err != nil {
		return err
	}
	if rec.Index < 0 {
		return fmt.Errorf("job %s has negative index %d", rec.ID, rec.Index)
	}
	params, err := rec.params()
	if err != nil {
		return err
	}
	ci, ok := r.comboIdx.Find(prefix, r.comboKey)
	if !ok {
		if len(r.combos) == maxSlots {
			return fmt.Errorf("job %s: more than %d combinations", rec.ID, maxSlots)
		}
		scen := rec.Scenario
		if scen == "" {
			scen = prefix[:max(0, strings.LastIndexByte(prefix, '/'))]
		}
		gi, ok := r.groupIdx[scen]
		if !ok {
			gi = int32(len(r.groups))
			r.groupIdx[scen] = gi
			r.groups = append(r.groups, &scenarioGroup{id: scen, params: map[string]*paramTally{}})
		}
		if g := r.groups[gi]; g.name == "" {
			g.name = rec.ScenarioName
		}
		ci = int32(len(r.combos))
		r.combos = append(r.combos, combo{key: prefix, group: gi, variant: r.variantOf(rec), minIndex: rec.Index, lo: -1})
		r.comboIdx.Add(ci, r.comboKey)
		r.groups[gi].combos = append(r.groups[gi].combos, ci)
	}
	c := &r.combos[ci]
	c.minIndex = min(c.minIndex, rec.Index)
	if c.variant >= 0 {
		v := &r.variants[c.variant]
		v.minIndex = min(v.minIndex, rec.Index)
	}
	jk := uint64(ci)<<32 | uint64(uint32(run))
	var si int32
	var seen bool
	if c.lo >= 0 && r.slots[c.lo].run == int32(run) {
		si, seen = c.lo, true
	} else if c.lo >= 0 {
		si, seen = r.jobIdx[jk]
	}
	if seen {
		r.duplicates++
		s := &r.slots[si]
		if !replaces(s, src, rec) {
			return nil
		}
		loser, err := r.readRecord(int(s.src), s.off)
		if err != nil {
			return fmt.Errorf("re-read duplicate of %s: %w", rec.ID, err)
		}
		lp, err := loser.params()
		if err != nil {
			return fmt.Errorf("re-read duplicate of %s: %w", rec.ID, err)
		}
		r.count(c, loser, lp, -1)
		r.recorded--
	} else {
		if len(r.slots) == maxSlots {
			return fmt.Errorf("job %s: more than %d jobs", rec.ID, maxSlots)
		}
		si = int32(len(r.slots))
		if c.lo < 0 {
			c.lo = si
		} else {
			r.jobIdx[jk] = si
		}
		r.slots = append(r.slots, slot{})
		r.indexes = append(r.indexes, 0)
	}
	r.count(c, rec, params, 1)
	r.recorded++
	r.indexes[si] = rec.Index
	eff := r.slots[si].eff
	if !seen {
		eff = -1
	}
	e := slotEff{tokens: int64(rec.Usage.TotalTokens), active: activeTokens(rec.Usage), costBits: rec.Cost.bits(),
		tools: int32(min(rec.Efficiency.ToolCalls.Total, 1<<31-1))}
	free := e.costBits == freeCostBits
	if free {
		e.costBits = 0
	}
	switch {
	case e == slotEff{}:
		eff = -1 // a replaced record's entry stays unused
	case eff >= 0:
		r.effs[eff] = e
	case len(r.effs) < maxSlots:
		eff = int32(len(r.effs))
		r.effs = append(r.effs, e)
	}
	r.slots[si] = slot{off: off, dur: rec.DurationMS, src: int32(src), run: int32(run), combo: ci, eff: eff,
		turns: int32(max(min(rec.Efficiency.Turns, 1<<31-1), -1<<31)), completed: rec.Completed, passed: rec.Passed && rec.Completed, free: free}
	return nil
}

// eff returns the efficiency of the job in s.
func (r *Results) eff(s *slot) slotEff {
	var e slotEff
	if s.eff >= 0 {
		e = r.effs[s.eff]
	}
	e.turns = s.turns
	if s.free {
		e.costBits = freeCostBits
	}
	return e
}

// freeCostBits is slotEff.costBits of a known cost of $0.
const freeCostBits = 1 // math.Float32bits(0) + 1, as costRecord.bits makes it

// replaces says whether rec, read after the record kept for the same job
// id from input src, takes its place: always within one input, and across
// inputs unless it is incomplete and the kept one completed.
func replaces(kept *slot, src int, rec *lineRecord) bool {
	if int(kept.src) == src {
		// One results file: records are appended in the order they were
		// made (run --retry and --resume append), so the latest record of a
		// job id is its verdict, as results.Writer.Tally counts it.
		return true
	}
	// Two inputs holding one job (overlapping shards): the best evidence.
	return rec.Completed || !kept.completed
}

// variantOf returns the index of rec's suite agent × model, adding it on
// first sight; −1 outside a suite.
func (r *Results) variantOf(rec *lineRecord) int32 {
	if rec.Agent == "" && rec.Model == "" {
		return -1
	}
	k := variantKey{rec.Agent, rec.Model}
	for i := range r.variants { // a suite has a handful
		if r.variants[i].key == k {
			return int32(i)
		}
	}
	r.variants = append(r.variants, variantGroup{key: k, minIndex: rec.Index})
	return int32(len(r.variants) - 1)
}

// count adds (sign 1) or removes (sign −1) one job record of combination
// c: its counts, its scenario's tallies and parameter values, and its
// variant's tool calls.
func (r *Results) count(c *combo, rec *lineRecord, params map[string]any, sign int) {
	completed, passed := rec.Completed, rec.Passed && rec.Completed
	c.runs += int32(sign)
	if completed {
		c.completed += int32(sign)
	}
	if passed {
		c.passed += int32(sign)
	}
	g := r.groups[c.group]
	g.t.add(rec, sign, r.scratch)
	for path, v := range params {
		pt := g.params[path]
		if pt == nil {
			pt = &paramTally{values: map[string]*[3]int{}}
			g.params[path] = pt
		}
		key := valueString(v)
		cnt := pt.values[key]
		if cnt == nil {
			if len(pt.values) < r.opts.MaxCombinations {
				cnt = &[3]int{}
				pt.values[key] = cnt
			} else {
				cnt = &pt.other
			}
		}
		cnt[0] += sign
		if completed {
			cnt[1] += sign
		}
		if passed {
			cnt[2] += sign
		}
	}
	if c.variant >= 0 {
		v := &r.variants[c.variant]
		for _, cat := range rec.Efficiency.ToolCalls.ByCategory {
			if v.tools == nil {
				v.tools = map[string]int{}
			}
			v.tools[cat.Name] += sign * cat.N
		}
	}
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
	if err := rec.decode(line); err != nil {
		return nil, err
	}
	r.reviewRecord(&rec)
	return &rec, nil
}

// finish orders scenarios, combinations and runs (the slots in report
// order), and works out which job indexes have no record.
func (r *Results) finish() {
	r.jobIdx = nil
	r.groupIdx = nil
	total := r.totalJobs()
	if len(r.plans) > 0 {
		for _, i := range r.indexes {
			if i >= total {
				r.outOfRange++
			}
		}
		r.missing, r.missingJobs = missingRanges(r.indexes, total)
	}
	r.indexes = nil
	slices.SortFunc(r.groups, func(a, b *scenarioGroup) int { return strings.Compare(a.id, b.id) })
	// Each combination's place in report order, then its slots there,
	// runs in order within each.
	pos := int32(0)
	for gi, g := range r.groups {
		slices.SortFunc(g.combos, func(a, b int32) int {
			x, y := &r.combos[a], &r.combos[b]
			return cmp.Or(cmp.Compare(x.minIndex, y.minIndex), strings.Compare(x.key, y.key))
		})
		for _, ci := range g.combos {
			c := &r.combos[ci]
			c.group = int32(gi)
			c.lo = pos
			pos += c.runs // one slot a run
		}
	}
	// Sorted in place: a copy would double the largest thing held.
	slices.SortFunc(r.slots, func(a, b slot) int {
		return cmp.Or(cmp.Compare(r.combos[a.combo].lo, r.combos[b.combo].lo), cmp.Compare(a.run, b.run))
	})
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

// comboSlots are the slots of combination c, runs in order.
func (r *Results) comboSlots(c *combo) []slot { return r.slots[c.lo : c.lo+c.runs] }
