package view

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/buger/jsonparser"

	"github.com/agenteval/agenteval/results"
)

// query is what the jobs table asks for: filters, a sort and a page.
type query struct {
	Status   string // passed, failed, incomplete, "not-passed" or ""
	Scenario string
	Variant  string
	Why      string // a reason exactly as the groups list it
	// Params are "path=value" texts a job must all have (as the facets
	// list them); Eval an evaluation type it ran, Failing one that failed;
	// Review "pass", "fail", "any" (reviewed) or "none" (not reviewed).
	Params  []string
	Eval    string
	Failing string
	Review  string
	Text    string // case-insensitive text anywhere in the record (inputs, replies, messages)
	Sort    string // index (default), duration, status
	Desc    bool
	Offset  int
	Limit   int
}

// row is one job in the table.
type row struct {
	ID         string         `json:"id"`
	Index      int64          `json:"index"`
	Status     string         `json:"status"`
	Scenario   string         `json:"scenario"`
	Variant    string         `json:"variant,omitempty"`
	DurationMS float64        `json:"duration_ms"`
	Why        string         `json:"why,omitempty"`
	Params     map[string]any `json:"params,omitempty"`
	Tokens     int            `json:"tokens"`
	// Review is a person's verdict on the job (pass or fail), if any.
	Review string `json:"review,omitempty"`
}

// page is one page of the jobs table.
type page struct {
	// Total is how many jobs match; with Text it counts only as far as the
	// search went (More says there may be more).
	Total int  `json:"total"`
	More  bool `json:"more,omitempty"`
	// Searched is how many jobs a text search read before it answered
	// (it stops at a full page or after searchTime).
	Searched int   `json:"searched,omitempty"`
	Rows     []row `json:"rows"`
	// Facets are the values the filters offer, with their counts in the run.
	Facets facets `json:"facets"`
}

type facets struct {
	Scenarios []count `json:"scenarios"`
	Variants  []count `json:"variants,omitempty"`
	Statuses  []count `json:"statuses"`
	// Params are each parameter's most frequent values (at most
	// maxFacetValues each), named "path=value" as filters take them.
	Params []paramFacet `json:"params,omitempty"`
	// Evals counts the jobs that ran each evaluation type, Failing those
	// where it failed.
	Evals   []count `json:"evals,omitempty"`
	Failing []count `json:"failing,omitempty"`
}

// paramFacet is one parameter's values with their counts.
type paramFacet struct {
	Path   string  `json:"path"`
	Values []count `json:"values"`
	// More counts the values past the ones listed.
	More int `json:"more,omitempty"`
}

// maxFacetValues bounds the values a parameter's facet lists.
const maxFacetValues = 50

type count struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// searchTime bounds how long a text search reads records for one page, so
// that a search over a million jobs answers in time; the page then says
// how far it searched and that there may be more.
const searchTime = 800 * time.Millisecond

// query answers a query. Filters on indexed fields cost a pass over the
// index; a text search reads records back only until the page is full.
func (r *run) query(q query) (page, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	scen, variant, why := uint32(0), uint32(0), uint32(0)
	ok := true
	if q.Scenario != "" {
		scen, ok = r.strs.ids[q.Scenario]
	}
	if q.Variant != "" && ok {
		variant, ok = r.strs.ids[q.Variant]
	}
	if q.Why != "" && ok {
		why, ok = r.whys.ids[q.Why]
	}
	var params []uint32
	for _, pv := range q.Params {
		if !ok {
			break
		}
		var id uint32
		id, ok = r.pvals.ids[pv]
		params = append(params, id)
	}
	var evalBit, failBit uint64
	if q.Eval != "" && ok {
		evalBit, ok = r.evalBit(q.Eval)
	}
	if q.Failing != "" && ok {
		failBit, ok = r.evalBit(q.Failing)
	}
	p := page{Rows: []row{}, Facets: r.facetsCached()}
	if !ok {
		return p, nil
	}
	match := func(e *entry) bool {
		if e.dead || (scen != 0 && e.scenario != scen) || (variant != 0 && e.variant != variant) || (why != 0 && e.why != why) {
			return false
		}
		if e.evals&evalBit != evalBit || e.failing&failBit != failBit {
			return false
		}
		for _, id := range params {
			if !slices.Contains(r.params[e.pOff:e.pOff+uint32(e.pN)], id) {
				return false
			}
		}
		if q.Review != "" && !r.reviewMatches(e, q.Review) {
			return false
		}
		switch q.Status {
		case "":
		case "not-passed":
			return e.status != statusPassed
		default:
			return statusNames[e.status] == q.Status
		}
		return true
	}
	order := r.order(q.Sort, q.Desc)
	needle := []byte(strings.ToLower(q.Text))
	scanned, began := 0, time.Now()
	var line []byte
	for _, i := range order {
		e := &r.jobs[i]
		if !match(e) {
			continue
		}
		if len(needle) > 0 {
			if scanned%1024 == 1023 && time.Since(began) > searchTime {
				p.More = true
				break
			}
			scanned++
			p.Searched = scanned
			var err error
			if line, err = r.rawLine(e, line); err != nil {
				return p, err
			}
			// Searched raw first (fast), then masked: a secret can be found
			// only where the masked text still holds the words.
			if !containsFold(line, needle) {
				continue
			}
			line = r.red.JSON(line)
			if !containsFold(line, needle) {
				continue
			}
			if len(p.Rows) >= q.Limit {
				p.More = true // the page is full: the count stops here
				p.Total++
				break
			}
		}
		if p.Total >= q.Offset && len(p.Rows) < q.Limit {
			var shown []byte
			if len(needle) > 0 {
				shown = line
			}
			rw, err := r.row(e, shown)
			if err != nil {
				return p, err
			}
			p.Rows = append(p.Rows, rw)
		}
		p.Total++
	}
	return p, nil
}

// evalBit is the bit of an evaluation type in entry.evals (false: no job
// ran it, or it is past the first 64 types).
func (r *run) evalBit(typ string) (uint64, bool) {
	id, ok := r.evalTypes.ids[typ]
	if !ok || id == 0 || id > 64 {
		return 0, false
	}
	return 1 << (id - 1), true
}

// reviewMatches says whether e's review is what the filter asks: "pass",
// "fail", "any" or "none" (r.mu held). A reviewed job's id is read back
// only while the run has reviews.
func (r *run) reviewMatches(e *entry, want string) bool {
	if len(r.labels) == 0 {
		return want == "none"
	}
	line, err := r.line(e)
	if err != nil {
		return false
	}
	id, _ := jsonparser.GetString(line, "id")
	l, ok := r.labels[id]
	switch want {
	case "any":
		return ok
	case "none":
		return !ok
	}
	return ok && l.Verdict == want
}

// containsFold reports whether b holds needle (lower case), ignoring
// ASCII case.
func containsFold(b, needle []byte) bool {
	if len(needle) == 0 {
		return true
	}
	c := needle[0]
	first := string([]byte{c})
	if 'a' <= c && c <= 'z' {
		first += string([]byte{c - ('a' - 'A')})
	}
	for i := 0; i+len(needle) <= len(b); {
		k := bytes.IndexAny(b[i:], first)
		if k < 0 || i+k+len(needle) > len(b) {
			return false
		}
		i += k
		if bytes.EqualFold(b[i:i+len(needle)], needle) {
			return true
		}
		i++
	}
	return false
}

// order is the jobs in the sort's order, cached until the index grows
// (r.mu read-held: the cache is written under its own lock).
func (r *run) order(key string, desc bool) []int32 {
	name := key
	if desc {
		name += "-desc"
	}
	r.sortMu.Lock()
	defer r.sortMu.Unlock()
	if o, ok := r.sorted[name]; ok && len(o) == len(r.jobs) {
		return o
	}
	o := make([]int32, len(r.jobs))
	js := r.jobs
	// Sort (key, index) pairs: no indirection through the entries while
	// sorting, which costs seconds at a million jobs.
	type pair struct {
		k   float64
		idx int64
		i   int32
	}
	ps := make([]pair, len(js))
	for i := range js {
		k := float64(js[i].index)
		switch key {
		case "duration":
			k = float64(js[i].dur)
		case "status":
			k = -float64(js[i].status) // incomplete, failed, passed
		}
		if desc {
			k = -k
		}
		ps[i] = pair{k, js[i].index, int32(i)}
	}
	slices.SortFunc(ps, func(a, b pair) int {
		if c := cmp.Compare(a.k, b.k); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	for i := range ps {
		o[i] = ps[i].i
	}
	if r.sorted == nil {
		r.sorted = map[string][]int32{}
	}
	r.sorted[name] = o
	return o
}

// row reads back what the table shows of e (line, when already read).
func (r *run) row(e *entry, line []byte) (row, error) {
	if line == nil {
		var err error
		if line, err = r.line(e); err != nil {
			return row{}, err
		}
	}
	var rec struct {
		ID     string         `json:"id"`
		Params map[string]any `json:"params"`
		Usage  struct {
			Total int `json:"total_tokens"`
		} `json:"usage"`
	}
	_ = json.Unmarshal(line, &rec)
	review := ""
	if l, ok := r.labels[rec.ID]; ok {
		review = l.Verdict
	}
	return row{Review: review, ID: rec.ID, Index: e.index, Status: statusNames[e.status], Scenario: r.strs.str(e.scenario),
		Variant: r.strs.str(e.variant), DurationMS: math.Round(float64(e.dur)*1000) / 1000, Why: r.whys.str(e.why), Params: rec.Params, Tokens: rec.Usage.Total}, nil
}

// facetsCached is facets, computed once until the index grows.
func (r *run) facetsCached() facets {
	r.sortMu.Lock()
	defer r.sortMu.Unlock()
	if r.facetsOf != len(r.jobs) || r.facetsMemo == nil {
		f := r.facets()
		r.facetsMemo, r.facetsOf = &f, len(r.jobs)
	}
	return *r.facetsMemo
}

// facets counts the run's jobs by scenario, variant and status (r.mu held).
func (r *run) facets() facets {
	scen := map[uint32]int{}
	vars := map[uint32]int{}
	for i := range r.jobs {
		e := &r.jobs[i]
		if e.dead {
			continue
		}
		scen[e.scenario]++
		if e.variant != 0 {
			vars[e.variant]++
		}
	}
	f := facets{}
	f.Params = r.paramFacets()
	evals, failing := make([]int, 64), make([]int, 64)
	for i := range r.jobs {
		e := &r.jobs[i]
		if e.dead {
			continue
		}
		for b := e.evals; b != 0; b &= b - 1 {
			evals[bits.TrailingZeros64(b)]++
		}
		for b := e.failing; b != 0; b &= b - 1 {
			failing[bits.TrailingZeros64(b)]++
		}
	}
	for b := range 64 {
		if evals[b] > 0 {
			f.Evals = append(f.Evals, count{r.evalTypes.str(uint32(b + 1)), evals[b]})
		}
		if failing[b] > 0 {
			f.Failing = append(f.Failing, count{r.evalTypes.str(uint32(b + 1)), failing[b]})
		}
	}
	for id, n := range scen {
		f.Scenarios = append(f.Scenarios, count{r.strs.str(id), n})
	}
	for id, n := range vars {
		f.Variants = append(f.Variants, count{r.strs.str(id), n})
	}
	byName := func(a, b count) int { return cmp.Compare(a.Name, b.Name) }
	slices.SortFunc(f.Scenarios, byName)
	slices.SortFunc(f.Variants, byName)
	for s, n := range r.counts {
		f.Statuses = append(f.Statuses, count{statusNames[s], n})
	}
	return f
}

// paramFacets counts each parameter's values over the live jobs (r.mu
// held), the most frequent first, at most maxFacetValues a parameter.
func (r *run) paramFacets() []paramFacet {
	if len(r.params) == 0 {
		return nil
	}
	n := make([]int, len(r.pvals.strs))
	for i := range r.jobs {
		e := &r.jobs[i]
		if e.dead {
			continue
		}
		for _, id := range r.params[e.pOff : e.pOff+uint32(e.pN)] {
			n[id]++
		}
	}
	by := map[string]*paramFacet{}
	var out []*paramFacet
	for id, c := range n {
		if c == 0 || r.pvals.strs[id] == otherReasons {
			continue
		}
		path, _, _ := strings.Cut(r.pvals.strs[id], "=")
		pf := by[path]
		if pf == nil {
			pf = &paramFacet{Path: path}
			by[path] = pf
			out = append(out, pf)
		}
		pf.Values = append(pf.Values, count{r.pvals.strs[id], c})
	}
	res := make([]paramFacet, 0, len(out))
	for _, pf := range out {
		slices.SortFunc(pf.Values, func(a, b count) int {
			if c := cmp.Compare(b.N, a.N); c != 0 {
				return c
			}
			return cmp.Compare(a.Name, b.Name)
		})
		if len(pf.Values) > maxFacetValues {
			pf.More = len(pf.Values) - maxFacetValues
			pf.Values = pf.Values[:maxFacetValues]
		}
		res = append(res, *pf)
	}
	slices.SortFunc(res, func(a, b paramFacet) int { return cmp.Compare(a.Path, b.Path) })
	return res
}

// group is the jobs that did not pass for one reason.
type group struct {
	Why     string   `json:"why"`
	Status  string   `json:"status"`
	Jobs    int      `json:"jobs"`
	Example string   `json:"example"`
	IDs     []string `json:"ids"`
}

// groups lists the reasons jobs did not pass, the most frequent first
// (at most limit).
func (r *run) groups(limit int) ([]group, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	type acc struct {
		n      int
		status uint8
		first  []int
	}
	by := map[uint32]*acc{}
	for i := range r.jobs {
		e := &r.jobs[i]
		if e.dead || e.status == statusPassed {
			continue
		}
		a := by[e.why]
		if a == nil {
			a = &acc{status: e.status}
			by[e.why] = a
		}
		a.n++
		if len(a.first) < 3 {
			a.first = append(a.first, i)
		}
	}
	keys := make([]uint32, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b uint32) int {
		if c := cmp.Compare(by[b].n, by[a].n); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(keys) > limit {
		keys = keys[:limit]
	}
	out := make([]group, 0, len(keys))
	for _, k := range keys {
		a := by[k]
		g := group{Why: r.whys.str(k), Status: statusNames[a.status], Jobs: a.n}
		for _, i := range a.first {
			rw, err := r.row(&r.jobs[i], nil)
			if err != nil {
				return nil, err
			}
			g.IDs = append(g.IDs, rw.ID)
		}
		if len(g.IDs) > 0 {
			g.Example = g.IDs[0]
		}
		out = append(out, g)
	}
	return out, nil
}

// job reads back the latest record of the job with this id; index, when
// not negative, is where to look first (the table's rows carry it). Nil
// when the run has no such job.
func (r *run) job(id string, index int64) (*results.Job, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if e := r.locateByIndex(id, index); e != nil {
		return r.decode(e, id)
	}
	// Another run of the same job may number it differently: look for the
	// id in every record (the newest first).
	key := []byte(`"id":` + quote(id))
	for i := len(r.jobs) - 1; i >= 0; i-- {
		e := &r.jobs[i]
		if e.dead {
			continue
		}
		line, err := r.line(e)
		if err != nil {
			return nil, err
		}
		if bytes.Contains(line, key) {
			if j, err := r.decode(e, id); j != nil || err != nil {
				return j, err
			}
		}
	}
	return nil, nil
}

// locateByIndex is the entry of the job at index if its id is id (r.mu held).
func (r *run) locateByIndex(id string, index int64) *entry {
	if index < 0 || index >= int64(len(r.byIndex)) || r.byIndex[index] == 0 {
		return nil
	}
	e := &r.jobs[r.byIndex[index]-1]
	if line, err := r.line(e); err != nil || !bytes.Contains(line, []byte(`"id":`+quote(id))) {
		return nil
	}
	return e
}

// locate is the entry of the latest record of the job with this id
// (index, when not negative, is where to look first), or nil (r.mu held).
func (r *run) locate(id string, index int64) *entry {
	if e := r.locateByIndex(id, index); e != nil {
		return e
	}
	key := []byte(`"id":` + quote(id))
	for i := len(r.jobs) - 1; i >= 0; i-- {
		e := &r.jobs[i]
		if e.dead {
			continue
		}
		if line, err := r.line(e); err == nil && bytes.Contains(line, key) {
			return e
		}
	}
	return nil
}

// decodeAny reads back e's record.
func (r *run) decodeAny(e *entry) (*results.Job, error) {
	line, err := r.line(e)
	if err != nil {
		return nil, err
	}
	var j results.Job
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, fmt.Errorf("%s offset %d: %w", r.files[e.file].path, e.off, err)
	}
	return &j, nil
}

// decode reads back e's record, or nil when its id is not id.
func (r *run) decode(e *entry, id string) (*results.Job, error) {
	line, err := r.line(e)
	if err != nil {
		return nil, err
	}
	var j results.Job
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, fmt.Errorf("%s offset %d: %w", r.files[e.file].path, e.off, err)
	}
	if j.ID != id {
		return nil, nil
	}
	return &j, nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
