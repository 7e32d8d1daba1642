package matrix

import (
	"fmt"
	"math/bits"
	"reflect"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/scenario"
)

// Plan is a compiled matrix: parsed and checked paths, checked and decoded
// values, the base scenario with defaults applied, and a selection (filters,
// shard, cap). It is immutable and safe for concurrent use; Select returns a
// narrowed copy. Build one with Compile or Single.
type Plan struct {
	// id is the first part of job ids: the matrix file's id, or the
	// scenario's for a plan without a matrix.
	id         string
	scenarioID string
	name       string // the matrix's name, for Job.Matrix
	base       *scenario.Scenario
	baseValue  reflect.Value
	axes       []axis
	hashOrder  []int // axis indexes sorted by canonical path, for combination ids
	runs       int
	trie       *node

	// combos is the number of combinations before filters.
	combos int64
	// sel holds, per axis, the value indexes the filters keep (all, unfiltered).
	sel     [][]int
	filters []Filter
	shard   Shard
	maxJobs int64
}

// axis is one compiled matrix axis.
type axis struct {
	param  string        // canonical path, as Path.String renders it
	path   scenario.Path //
	steps  []step        // the slot in the typed model
	values []any         // plain YAML data, as written
	// canon locates the canonical JSON of each value in canonText (one
	// text: nothing for the collector to scan per value).
	canon     []span
	canonText []byte
	// leaves are the values as the typed model holds them, which jobs
	// share; nil when every value is a text that is its own leaf (leaf).
	leaves []reflect.Value
	// redefault marks values that change another field's default (judgment
	// strategy weighted gives a threshold), so jobs with them run SetDefaults.
	redefault []bool
	hashHead  []byte // `["param",` for the combination hash
	stride    int64  // combinations between consecutive values of this axis
}

// leaf returns the value jobs take for value j.
func (a *axis) leaf(j int) reflect.Value {
	if a.leaves == nil {
		return reflect.ValueOf(a.values[j])
	}
	return a.leaves[j]
}

// canonOf returns the canonical JSON of value j.
func (a *axis) canonOf(j int) []byte { return a.canon[j].of(a.canonText) }

// Param is one parameter of a job: an axis's path and the value it takes.
type Param struct {
	// Path is the parameter in canonical form (run[0].input, setup.virtual_fs["a.json"]).
	Path string `json:"path"`
	// Value is the value as plain YAML data: string, json.Number, bool, nil,
	// map[string]any or []any. Shared between jobs; do not modify.
	Value any `json:"value"`
}

// Job is one run of one combination: what a matrix expands to and what a
// runner runs (sources.Source yields these; there is no other job type).
type Job struct {
	// ID is Source/Combination/run-Run, where Source is the matrix file's
	// id (scenario.File.ID) or, without a matrix, the scenario's: the key of
	// the job in results, resume and shards. Two matrices over one base
	// scenario never share job ids.
	ID string
	// Index is the job's position. From Plan.Jobs it is the position in the
	// whole expansion (before filters and shards): combination index × runs
	// + Run − 1, stable for a given matrix whatever selection produced the
	// job. A sources.Source renumbers it as the job's deterministic position
	// within the whole run (sources one after another, after filters).
	Index int64
	// ScenarioID is the base scenario's id.
	ScenarioID string
	// Matrix is the matrix's name; "" for a scenario without a matrix.
	Matrix string
	// Combination is the content-addressed combination id (c-<16 hex>), or
	// "-" for a scenario without a matrix.
	Combination string
	// Run is the 1-based run number within the combination.
	Run int
	// Params are the job's parameters in axis order; nil without a matrix.
	Params []Param
	// Agent and Model are the suite's agent and model the job runs with
	// (a suite's run sets them and prefixes ID with agent/model/);
	// "" outside a suite.
	Agent, Model string
	// Scenario is the scenario to run, with the parameters applied and
	// defaults set; nil from Plan.Headers. It shares every part that the
	// parameters do not touch with the base scenario and with other jobs,
	// and is never modified after it is yielded: treat it as read-only.
	Scenario *scenario.Scenario
}

// Parameters returns the axes' paths in canonical form, in axis order.
func (p *Plan) Parameters() []string {
	out := make([]string, len(p.axes))
	for i, a := range p.axes {
		out[i] = a.param
	}
	return out
}

// total returns the number of jobs the filters select, before sharding.
// It never expands the matrix; ErrOverflow when the number does not fit.
func (p *Plan) total() (int64, error) {
	n := int64(p.runs)
	for i := range p.axes {
		var ok bool
		if n, ok = mul(n, int64(len(p.sel[i]))); !ok {
			return 0, fmt.Errorf("%w: %s", ErrOverflow, p.sizeText())
		}
	}
	return n, nil
}

// Count returns the number of jobs Jobs yields: the filtered total, then the
// shard's share of it. It never expands the matrix and ignores the cap;
// ErrOverflow when the total does not fit an int64.
func (p *Plan) Count() (int64, error) {
	n, err := p.total()
	if err != nil {
		return 0, err
	}
	return p.shard.Size(n), nil
}

// sizeText describes the product of the selection's sizes, for messages.
func (p *Plan) sizeText() string {
	parts := make([]string, 0, len(p.axes)+1)
	for i := range p.axes {
		parts = append(parts, fmt.Sprint(len(p.sel[i])))
	}
	parts = append(parts, fmt.Sprintf("%d run(s)", p.runs))
	return strings.Join(parts, " × ")
}

// mul multiplies non-negative a and b, reporting whether the product fits an int64.
func mul(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<63-1 {
		return 0, false
	}
	return int64(lo), true
}

// Select returns a copy of the plan narrowed to the jobs that match every
// filter, then to one shard; it replaces any selection p already had.
// Filters must name axes of the matrix and match at least one of its
// values; a plan without a matrix accepts no filters.
func (p *Plan) Select(filters []Filter, shard Shard) (*Plan, error) {
	if err := shard.Validate(); err != nil {
		return nil, err
	}
	q := *p
	q.shard = shard.norm()
	q.filters = slices.Clone(filters)
	if len(filters) > 0 || p.filters != nil {
		q.sel = selectAll(p.axes)
	} // else p selects everything too, and nothing writes a selection
	for _, f := range filters {
		canon := f.canon
		if canon == "" {
			c, err := canonicalJSON(f.Value)
			if err != nil {
				return nil, fmt.Errorf("filter %q: %w", f.Text, err)
			}
			canon = string(c)
		}
		param := f.Path.String()
		i := slices.IndexFunc(p.axes, func(a axis) bool { return a.param == param })
		if i < 0 {
			return nil, p.unknownParam(f, param)
		}
		a := p.axes[i]
		// The windows of selectAll share one array: filter a copy.
		q.sel[i] = slices.DeleteFunc(slices.Clone(q.sel[i]), func(v int) bool { return string(a.canonOf(v)) != canon })
		if len(q.sel[i]) == 0 {
			vals := make([]string, len(a.canon))
			for j := range a.canon {
				vals[j] = string(a.canonOf(j))
			}
			hint := ""
			if _, raw, ok := strings.Cut(f.Text, "="); ok {
				// `a=Question 3: x?` reads as a YAML map; the author meant the text.
				if c, err := canonicalJSON(raw); err == nil && slices.ContainsFunc(vals, func(v string) bool { return v == string(c) }) {
					hint = fmt.Sprintf("; to compare it as text, quote it: %s=%q", param, raw)
				}
			}
			return nil, fmt.Errorf("filter %q: no value of %s matches %s (it takes %s, and earlier filters may have narrowed it)%s", f.Text, param, canon, strings.Join(vals, ", "), hint)
		}
	}
	return &q, nil
}

func (p *Plan) unknownParam(f Filter, param string) error {
	if len(p.axes) == 0 {
		return fmt.Errorf("filter %q: this scenario has no matrix, so there are no parameters to filter on", f.Text)
	}
	names := p.Parameters()
	msg := fmt.Sprintf("filter %q: %s is not a parameter of this matrix; its parameters are %s", f.Text, param, strings.Join(names, ", "))
	if s := textdist.Suggest(param, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return fmt.Errorf("%s", msg)
}

// selectAll returns every axis's selection of all its values: windows of
// one array of indexes, capped so that nothing appends into a neighbour.
func selectAll(axes []axis) [][]int {
	n := 0
	for i := range axes {
		n = max(n, len(axes[i].values))
	}
	all := allIndexes(n)
	sel := make([][]int, len(axes))
	for i := range axes {
		k := len(axes[i].values)
		sel[i] = all[:k:k]
	}
	return sel
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
