package matrix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/formats"
	"github.com/agenteval/agenteval/scenario"
)

// Options configure Compile.
type Options struct {
	// Filters keep the jobs whose parameters match all of them.
	Filters []Filter
	// Shard selects one part of the run; the zero Shard is the whole run.
	Shard Shard
	// MaxJobs caps the jobs a selection may hold (after filters, before
	// sharding, so every shard of a run agrees): 0 (or less) means no cap.
	MaxJobs int64
}

// Compile checks a loaded matrix file against its base scenario and returns
// the plan that expands it. f comes from scenario.Loader.LoadFile (or
// LoadFS) of a *.matrix.yaml, which loads the base scenario too.
//
// Parameter paths are parsed and must exist in the base scenario after its
// defaults are applied; each value is applied to the base on its own and the
// result validated by the loader, so a value of the wrong type or outside an
// enum is reported at that value's line. The returned diagnostics hold f's
// own and Compile's, sorted; the plan is nil when they hold an error.
func Compile(f *scenario.File, opts Options) (*Plan, scenario.Diagnostics) {
	c := &compiler{f: f, res: newResolver()}
	p := c.compile()
	if p == nil || c.diags.HasErrors() {
		return nil, c.diags.Sort()
	}
	q, err := p.Select(opts.Filters, opts.Shard)
	if err != nil {
		c.diags = append(c.diags, scenario.Diagnostic{File: f.Name, Severity: scenario.Error, Code: "select", Message: err.Error()})
		return nil, c.diags.Sort()
	}
	q.maxJobs = max(opts.MaxJobs, 0)
	return q, c.diags.Sort()
}

type compiler struct {
	f      *scenario.File
	loader *scenario.Loader
	res    *resolver
	diags  scenario.Diagnostics
}

// at adds an error positioned at the value of p in the matrix file.
func (c *compiler) at(p scenario.Path, code, suggestion, format string, args ...any) {
	d := scenario.Diagnostic{File: c.f.Name, Path: slices.Clone(p), Severity: scenario.Error, Code: code,
		Message: fmt.Sprintf(format, args...), Suggestion: suggestion}
	if c.f.Doc != nil {
		d.Line, d.Column, _ = c.f.Doc.Locate(p)
	}
	c.diags = append(c.diags, d)
}

func (c *compiler) compile() *Plan {
	f := c.f
	if f == nil {
		c.diags = scenario.Diagnostics{{Severity: scenario.Error, Code: "kind", Message: "no file"}}
		return nil
	}
	c.diags = slices.Clone(f.Diagnostics)
	if f.Kind != scenario.KindMatrix {
		c.at(nil, "kind", "", "%s is a %s file, not a matrix", f.Name, f.Kind)
		return nil
	}
	if c.diags.HasErrors() || f.Matrix == nil || f.Base == nil || f.Base.Scenario == nil {
		if !c.diags.HasErrors() {
			c.at(scenario.Path{}.Key("base_scenario"), "base-invalid", "", "the base scenario could not be loaded")
		}
		return nil
	}
	// Values are checked by the loader that loaded the base, with the
	// evaluation types (and other registered names) it accepted.
	if c.loader = f.Base.Loader(); c.loader == nil {
		c.at(scenario.Path{}.Key("base_scenario"), "base-invalid", "", "the base scenario was not loaded by a scenario.Loader")
		return nil
	}
	base, p0 := c.base()
	if base == nil {
		return nil
	}
	id := f.ID
	if id == "" {
		id = formats.IDFromFileName(f.Name)
	}
	p := &Plan{id: id, scenarioID: base.ID, name: f.Matrix.Name, base: base, baseValue: reflect.ValueOf(base), runs: max(f.Matrix.RunsPerCombination, 1), trie: &node{axis: -1}}
	for i := range f.Matrix.Axes {
		// An axis whose path resolved keeps its place even when a value is
		// bad, so that axis numbers in the trie stay aligned with p.axes.
		if a, _ := c.axis(p, i, p0); a.param != "" {
			p.axes = append(p.axes, a)
		}
	}
	if c.diags.HasErrors() {
		return nil
	}
	c.finish(p)
	return p
}

// base re-validates the loaded base scenario in the plain form that values
// are applied to, and returns the decoded copy the plan owns (so that
// nothing the caller does to f afterwards reaches the jobs) and its plain data.
func (c *compiler) base() (*scenario.Scenario, any) {
	where := scenario.Path{}.Key("base_scenario")
	p0, err := toPlain(c.f.Base.Scenario)
	if err == nil {
		if m, ok := p0.(map[string]any); ok {
			// An id derived from the base's path (docs/a) is no id a file
			// may write; the base keeps it, the checks go without it.
			delete(m, "id")
		}
		var g *scenario.File
		g, err = c.loader.LoadValue(scenario.KindScenario, c.f.Base.Name, p0)
		if err == nil {
			g.Scenario.ID = c.f.Base.Scenario.ID
			return g.Scenario, p0
		}
	}
	c.at(where, "internal", "", "the base scenario does not validate again once its defaults are applied (a bug in agenteval): %v", err)
	return nil, nil
}

// axis compiles axis i: its path, each value's check and decoded form.
func (c *compiler) axis(p *Plan, i int, p0 any) (axis, bool) {
	ax := c.f.Matrix.Axes[i]
	at := scenario.Path{}.Key("matrix").Index(i)
	path, err := parseFullPath(ax.Parameter)
	if err != nil {
		c.at(at.Key("parameter"), "path-syntax", "", "%v", err)
		return axis{}, false
	}
	steps, err := c.res.resolve(p.baseValue, path)
	if err != nil {
		var re *resolveError
		sug, code := "", "path-missing"
		if errors.As(err, &re) {
			sug, code = re.suggestion, cmpOr(re.code, code)
		}
		c.at(at.Key("parameter"), code, sug, "%s: %v", path, err)
		return axis{}, false
	}
	if other, ok := p.trie.insert(steps, len(p.axes)); !ok {
		c.at(at.Key("parameter"), "path-overlap", "", "%s overlaps the parameter %s of an earlier axis; each part of the scenario can be varied by one axis only", path, p.axes[other].param)
		return axis{}, false
	}
	a := axis{param: path.String(), path: path, steps: steps}
	head, _ := json.Marshal(a.param)
	a.hashHead = append(append([]byte{'['}, head...), ',')
	ok := true
	free := freeTextSlot(p.baseValue, steps)
	// classes memoises the check of a free-text value by its emptiness
	// (empty, then not): the leaf's type and whether it redoes defaults.
	var classes [2]struct {
		checked   bool
		typ       reflect.Type
		redefault bool
	}
	valuesAt := at.Key("values")
	// The values as plain data, looked up once (not per value).
	plain, _ := plainAt(c.f.Doc.Value, valuesAt).([]any)
	if len(plain) != len(ax.Values) {
		plain = nil
	}
	a.values = make([]any, 0, len(ax.Values))
	a.redefault = make([]bool, 0, len(ax.Values))
	// The canonical forms of all the values, one after another in one
	// text, sized for the common values, texts without escapes.
	size := 0
	for j := range plain {
		if s, isText := plain[j].(string); isText {
			size += len(s) + 2
		}
	}
	a.canonText = make([]byte, 0, size)
	spans := make([]span, len(ax.Values))
	seen := newCanonSet(len(ax.Values))
	for j := range ax.Values {
		var v any
		if plain != nil {
			v = plain[j]
		} else {
			v = plainAt(c.f.Doc.Value, valuesAt.Index(j))
		}
		start := len(a.canonText)
		var err error
		if a.canonText, err = appendCanonical(a.canonText, v); err != nil {
			a.canonText = a.canonText[:start]
			c.at(valuesAt.Index(j), "value", "", "%s: %v", a.param, err)
			ok = false
			continue
		}
		spans[j] = span{start, len(a.canonText)}
		if prev, dup := seen.add(a.canonText, spans, j); dup {
			c.at(valuesAt.Index(j), "duplicate-value", "", "%s: value %s is already given as values[%d]; repeated values would make the same combination twice", a.param, spans[j].of(a.canonText), prev)
			ok = false
			continue
		}
		text, isText := v.(string)
		var leaf reflect.Value
		var redefault, good bool
		if free && isText {
			cls := &classes[min(len(text), 1)]
			if cls.checked {
				// Checked in full for a value of this class already.
				leaf, redefault, good = reflect.ValueOf(v), cls.redefault, true
				if leaf.Type() != cls.typ {
					leaf = leaf.Convert(cls.typ)
				}
			} else if leaf, redefault, good = c.value(p, a, v, valuesAt.Index(j), p0); good {
				cls.checked, cls.typ, cls.redefault = true, leaf.Type(), redefault
			}
		} else {
			leaf, redefault, good = c.value(p, a, v, valuesAt.Index(j), p0)
		}
		if !good {
			ok = false
			continue
		}
		if a.leaves == nil && (!isText || leaf.Type() != stringType || leaf.String() != text) {
			// The first value that is not its own leaf: keep every leaf.
			a.leaves = make([]reflect.Value, len(a.values), len(ax.Values))
			for k, w := range a.values {
				a.leaves[k] = reflect.ValueOf(w)
			}
		}
		if a.leaves != nil {
			a.leaves = append(a.leaves, leaf)
		}
		a.values = append(a.values, v)
		a.redefault = append(a.redefault, redefault)
	}
	if ok {
		// Every value was taken, so the spans line up with the values (a
		// plan with a value refused is never made).
		a.canon = spans
	}
	return a, ok
}

var stringType = reflect.TypeFor[string]()

// value applies v at the axis's path to the base's plain data, has the
// loader validate and decode the result, and takes the decoded value at the
// path as the value jobs will share. It also tells whether v changes a
// default elsewhere (so jobs must run SetDefaults again).
func (c *compiler) value(p *Plan, a axis, v any, at scenario.Path, p0 any) (reflect.Value, bool, bool) {
	doc, err := setPlain(p0, a.path, v)
	if err != nil {
		c.at(at, "internal", "", "%s: cannot apply the value (a bug in agenteval): %v", a.param, err)
		return reflect.Value{}, false, false
	}
	g, _ := c.loader.LoadValue(scenario.KindScenario, c.f.Base.Name, doc)
	if errs := g.Diagnostics.Errors(); len(errs) > 0 || g.Scenario == nil {
		for _, d := range errs {
			inner := cmpOr(d.Path.String(), a.param)
			c.at(at, cmpOr(d.Code, "value"), d.Suggestion, "%s: %s", inner, d.Message)
		}
		if len(errs) == 0 {
			c.at(at, "value", "", "%s: the value does not decode", a.param)
		}
		return reflect.Value{}, false, false
	}
	if m, ok := doc.(map[string]any); ok && m["id"] == nil {
		g.Scenario.ID = p.base.ID // see base: the checks go without a derived id
	}
	leaf := get(reflect.ValueOf(g.Scenario), a.steps)
	// Compare what cow builds with what the loader decoded.
	want, err1 := json.Marshal(g.Scenario)
	t := &node{axis: -1}
	t.insert(a.steps, 0)
	one := []axis{{leaves: []reflect.Value{leaf}}}
	built := cow(p.baseValue, t, one, []int{0}).Interface().(*scenario.Scenario)
	got, err2 := json.Marshal(built)
	if err1 == nil && err2 == nil && bytes.Equal(got, want) {
		return leaf, false, true
	}
	built.SetDefaults("")
	got, err2 = json.Marshal(built)
	if err1 == nil && err2 == nil && bytes.Equal(got, want) {
		return leaf, true, true
	}
	c.at(at, "value-side-effect", "", "%s: this value changes other parts of the scenario when it is loaded, so it cannot be varied on its own; vary the enclosing object instead", a.param)
	return reflect.Value{}, false, false
}

// finish computes strides, the hashing order and the whole selection.
func (c *compiler) finish(p *Plan) {
	combos, fits := int64(1), true
	for i := len(p.axes) - 1; i >= 0; i-- {
		p.axes[i].stride = combos
		if combos, fits = mul(combos, int64(len(p.axes[i].values))); !fits {
			break
		}
	}
	if _, ok := mul(combos, int64(p.runs)); !fits || !ok {
		combos = -1
	}
	p.combos = combos
	p.hashOrder = allIndexes(len(p.axes))
	slices.SortFunc(p.hashOrder, func(x, y int) int { return strings.Compare(p.axes[x].param, p.axes[y].param) })
	p.sel = selectAll(p.axes)
	p.shard = Shard{Index: 1, Count: 1}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Single returns the plan of a scenario without a matrix: one combination,
// "-", run runs times (at least once), so that a runner treats plain
// scenarios and matrices alike. s should be as the loader returns it;
// Single applies its defaults (which changes nothing if they are there)
// and shares it, read-only, with the jobs, each of which gets its own copy
// of the top-level struct. maxJobs caps its jobs as Options.MaxJobs caps
// a matrix's (0: no cap).
func Single(s *scenario.Scenario, runs int, maxJobs int64) *Plan {
	s.SetDefaults("")
	p := &Plan{
		id: s.ID, scenarioID: s.ID, base: s, baseValue: reflect.ValueOf(s), runs: max(runs, 1),
		trie: &node{axis: -1}, combos: 1, shard: Shard{Index: 1, Count: 1},
		sel: [][]int{}, maxJobs: max(maxJobs, 0),
	}
	return p
}
