package report

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// What the HTML report derives from a scenario's combinations: the
// parameters in matrix order, which of them vary, short names for them,
// and heat maps over the two that vary most.

// matrixOrder is the parameters of some combinations in the order their
// matrix declares them, and each parameter's values likewise. Combinations
// come in job order, where the first axis varies slowest: so a parameter
// that changes less often between neighbours comes first, and values come
// in the order they first appear.
type matrixOrder struct {
	paths  []string
	values map[string][]string
	// pos is each value's position in values (path → value → position),
	// so that placing a combination or ordering values is a lookup, never
	// a search: the page stays linear in the combinations.
	pos map[string]map[string]int
}

func newMatrixOrder(combos []*CombinationSummary) matrixOrder {
	o := matrixOrder{values: map[string][]string{}, pos: map[string]map[string]int{}}
	changes := map[string]int{}
	first := map[string]int{}
	var prev *CombinationSummary
	for i, c := range combos {
		for p, v := range c.Params {
			if _, ok := first[p]; !ok {
				first[p] = i
				o.paths = append(o.paths, p)
				o.pos[p] = map[string]int{}
			}
			s := valueString(v)
			if _, seen := o.pos[p][s]; !seen {
				o.pos[p][s] = len(o.values[p])
				o.values[p] = append(o.values[p], s)
			}
		}
		if prev != nil {
			for _, p := range o.paths {
				a, aok := prev.Params[p]
				b, bok := c.Params[p]
				if aok != bok || (aok && valueString(a) != valueString(b)) {
					changes[p]++
				}
			}
		}
		prev = c
	}
	slices.SortStableFunc(o.paths, func(a, b string) int {
		return cmp.Or(cmp.Compare(changes[a], changes[b]), cmp.Compare(first[a], first[b]), strings.Compare(a, b))
	})
	return o
}

// varying returns the paths with two or more values, in matrix order.
func (o matrixOrder) varying() []string {
	var out []string
	for _, p := range o.paths {
		if len(o.values[p]) > 1 {
			out = append(out, p)
		}
	}
	return out
}

// withParams returns the combinations that have parameters.
func withParams(combos []CombinationSummary) []*CombinationSummary {
	var out []*CombinationSummary
	for i := range combos {
		if len(combos[i].Params) > 0 {
			out = append(out, &combos[i])
		}
	}
	return out
}

// commonPrefix is the longest prefix, ending at a '.', that all paths
// share and that leaves every path a name of its own: for
// run[0].conversation.max_turns and run[0].conversation.user_simulator.persona
// it is "run[0].conversation.".
func commonPrefix(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	prefix := paths[0]
	for _, p := range paths[1:] {
		n := 0
		for n < len(prefix) && n < len(p) && prefix[n] == p[n] {
			n++
		}
		prefix = prefix[:n]
	}
	// Every path must keep at least its last segment.
	for _, p := range paths {
		if len(prefix) >= len(p) {
			prefix = p[:strings.LastIndexByte(p, '.')+1]
		}
	}
	return prefix[:strings.LastIndexByte(prefix, '.')+1]
}

// htmlParam is one parameter and value, named without the common prefix.
type htmlParam struct {
	Name, Path, Value string
}

// htmlNaming is how a scenario's combinations are labelled: the prefix
// their varying parameters share, said once, the parameters every
// combination has with the same value, said once, and per combination only
// the parameters that vary.
type htmlNaming struct {
	Prefix  string
	Varying []htmlParam // Name and Path
	Fixed   []htmlParam
	// Outer is the varying parameter that changes least often (the first
	// axis of the matrix) when two or more vary: the rows are grouped by it
	// and their labels leave it out.
	Outer  string
	order  matrixOrder
	varies map[string]bool
}

func newHTMLNaming(sc *ScenarioSummary) htmlNaming {
	combos := withParams(sc.Combinations)
	n := htmlNaming{order: newMatrixOrder(combos), varies: map[string]bool{}}
	varying := n.order.varying()
	n.Prefix = commonPrefix(varying)
	for _, p := range varying {
		n.varies[p] = true
		n.Varying = append(n.Varying, htmlParam{Name: n.name(p), Path: p})
	}
	for _, p := range n.order.paths {
		if n.varies[p] {
			continue
		}
		// One value: fixed if every combination with parameters has it.
		all := true
		for _, c := range combos {
			if _, ok := c.Params[p]; !ok {
				all = false
			}
		}
		if all {
			n.Fixed = append(n.Fixed, htmlParam{Name: p, Path: p, Value: n.order.values[p][0]})
		} else {
			n.varies[p] = true // present in some combinations only: it tells them apart
			n.Varying = append(n.Varying, htmlParam{Name: n.name(p), Path: p})
		}
	}
	if len(varying) >= 2 {
		n.Outer = varying[0]
	}
	return n
}

// name is a path's short name.
func (n *htmlNaming) name(path string) string { return strings.TrimPrefix(path, n.Prefix) }

// label lists a combination's varying parameters in matrix order.
func (n *htmlNaming) label(c *CombinationSummary) []htmlParam {
	var out []htmlParam
	for _, p := range n.order.paths {
		if v, ok := c.Params[p]; ok && n.varies[p] {
			out = append(out, htmlParam{Name: n.name(p), Path: p, Value: valueString(v)})
		}
	}
	return out
}

// group splits a combination's label into its outer parameter, which
// names its group of rows, and the rest.
func (n *htmlNaming) group(label []htmlParam) (outer []htmlParam, rest []htmlParam) {
	if n.Outer == "" {
		return nil, label
	}
	for i, p := range label {
		if p.Path == n.Outer {
			return label[i : i+1], append(slices.Clip(label[:i]), label[i+1:]...)
		}
	}
	return nil, label
}

// Heat maps.

// maxFacets bounds the heat maps drawn per matrix; the pooled map covers
// every combination whatever the bound.
const maxFacets = 48

// openFacets is how many facets may be shown open; beyond it they start
// folded and the reader opens the ones they want.
const openFacets = 4

// htmlHeat is the heat maps of one matrix: pass rate over the two
// parameters with the most values (ties in matrix order), one map per
// value combination of the other varying parameters (facets), and a map
// pooled over them when there are facets.
type htmlHeat struct {
	Matrix           string
	RowName, ColName string
	RowPath, ColPath string
	Cols             []string
	FacetNames       []string
	// Pooled covers every combination: over the facets when there are any.
	Pooled     *htmlHeatTable
	Facets     []htmlHeatFacet
	MoreFacets int
	Open       bool
}

type htmlHeatFacet struct {
	Label []htmlParam
	Table *htmlHeatTable
}

type htmlHeatTable struct {
	Counts Counts
	Rows   []htmlHeatRow
}

type htmlHeatRow struct {
	Value string
	Cells []htmlHeatCell
}

type htmlHeatCell struct {
	Has    bool
	Counts Counts
	Class  string
}

// newHTMLHeats builds the heat maps of a scenario: one set per matrix in
// which two or more parameters vary.
func newHTMLHeats(sc *ScenarioSummary, n *htmlNaming) []*htmlHeat {
	var order []string
	groups := map[string][]*CombinationSummary{}
	for _, c := range withParams(sc.Combinations) {
		if _, ok := groups[c.Matrix]; !ok {
			order = append(order, c.Matrix)
		}
		groups[c.Matrix] = append(groups[c.Matrix], c)
	}
	var heats []*htmlHeat
	for _, m := range order {
		if h := newHTMLHeat(m, groups[m], n); h != nil {
			heats = append(heats, h)
		}
	}
	return heats
}

func newHTMLHeat(matrix string, combos []*CombinationSummary, n *htmlNaming) *htmlHeat {
	o := newMatrixOrder(combos)
	axes := o.varying()
	if len(axes) < 2 {
		return nil
	}
	slices.SortStableFunc(axes, func(a, b string) int { return cmp.Compare(len(o.values[b]), len(o.values[a])) })
	rowP, colP, facetPs := axes[0], axes[1], axes[2:]
	// The facets in matrix order.
	pathPos := make(map[string]int, len(o.paths))
	for i, p := range o.paths {
		pathPos[p] = i
	}
	slices.SortStableFunc(facetPs, func(a, b string) int { return cmp.Compare(pathPos[a], pathPos[b]) })
	h := &htmlHeat{Matrix: matrix, RowPath: rowP, ColPath: colP, RowName: n.name(rowP), ColName: n.name(colP),
		Cols: o.values[colP]}
	for _, p := range facetPs {
		h.FacetNames = append(h.FacetNames, n.name(p))
	}
	newTable := func() *htmlHeatTable {
		t := &htmlHeatTable{}
		for _, rv := range o.values[rowP] {
			t.Rows = append(t.Rows, htmlHeatRow{Value: rv, Cells: make([]htmlHeatCell, len(h.Cols))})
		}
		return t
	}
	add := func(t *htmlHeatTable, c *CombinationSummary) {
		rv, rok := c.Params[rowP]
		cv, cok := c.Params[colP]
		if !rok || !cok {
			return
		}
		cell := &t.Rows[o.pos[rowP][valueString(rv)]].Cells[o.pos[colP][valueString(cv)]]
		cell.Counts = newCounts(cell.Counts.Runs+c.Runs, cell.Counts.Completed+c.Completed, cell.Counts.Passed+c.Passed)
		t.Counts = newCounts(t.Counts.Runs+c.Runs, t.Counts.Completed+c.Completed, t.Counts.Passed+c.Passed)
	}
	h.Pooled = newTable()
	if len(facetPs) == 0 {
		for _, c := range combos {
			add(h.Pooled, c)
		}
	} else {
		facetIdx := map[string]int{}
		for _, c := range combos {
			add(h.Pooled, c)
			var key strings.Builder
			var label []htmlParam
			for _, p := range facetPs {
				v, ok := c.Params[p]
				s := "(not set)"
				if ok {
					s = valueString(v)
				}
				key.WriteString(s)
				key.WriteByte(0)
				label = append(label, htmlParam{Name: n.name(p), Path: p, Value: s})
			}
			i, ok := facetIdx[key.String()]
			if !ok {
				if len(h.Facets) == maxFacets {
					h.MoreFacets++
					facetIdx[key.String()] = -1
					continue
				}
				i = len(h.Facets)
				facetIdx[key.String()] = i
				h.Facets = append(h.Facets, htmlHeatFacet{Label: label, Table: newTable()})
			}
			if i >= 0 {
				add(h.Facets[i].Table, c)
			}
		}
		h.Open = len(h.Facets) <= openFacets
	}
	for _, t := range h.tables() {
		for i := range t.Rows {
			for j := range t.Rows[i].Cells {
				cell := &t.Rows[i].Cells[j]
				cell.Has = cell.Counts.Runs > 0
				cell.Class = "hn"
				if cell.Has {
					cell.Class = heatClass(cell.Counts.PassRate)
				}
			}
		}
	}
	return h
}

func (h *htmlHeat) tables() []*htmlHeatTable {
	ts := []*htmlHeatTable{h.Pooled}
	for _, f := range h.Facets {
		ts = append(ts, f.Table)
	}
	return ts
}

// heatClass buckets a pass rate into the stylesheet's eleven fills, from
// red (h0, 0%) through amber to green (h10, 100%).
func heatClass(rate float64) string {
	return "h" + strconv.Itoa(int(rate*10+0.5))
}
