package view

import (
	"net/http"
	"slices"

	"github.com/agenteval/agenteval/internal/stats"
)

// maxSiblings bounds the jobs a side-by-side view shows.
const maxSiblings = 16

// sibling is one job of a combination, in some run.
type sibling struct {
	Run     string `json:"run"`
	RunName string `json:"run_name"`
	Index   int64  `json:"index"`
	Variant string `json:"variant,omitempty"`
	Status  string `json:"status"`
	// Versus is what this job is against the first (the baseline):
	// "regression" when the baseline passed and this did not,
	// "improvement" the other way round, "" when they agree.
	Versus string `json:"versus,omitempty"`
	Job    any    `json:"job"`
}

// sideGroup is the jobs of the combination in one run with one agent and
// model, tested against the baseline's as `report compare` tests a
// combination: Fisher's exact one-sided test for a lower pass rate, at
// α = 0.05 (report compare also corrects across combinations; one
// combination alone needs no correction).
type sideGroup struct {
	Run     string  `json:"run"`
	Variant string  `json:"variant,omitempty"`
	Jobs    int     `json:"jobs"`
	Passed  int     `json:"passed"`
	P       float64 `json:"p,omitempty"`
	// Regression says the drop against the baseline's group is significant.
	Regression bool `json:"regression,omitempty"`
	Baseline   bool `json:"baseline,omitempty"`
}

// sideAlpha is the significance level of the side-by-side tests (report
// compare's default).
const sideAlpha = 0.05

// siblings are the jobs of e's combination in run r (r.mu read-held):
// its other agents, models and repetitions.
func (r *run) siblings(e *entry, limit int) []int {
	var out []int
	for i := range r.jobs {
		x := &r.jobs[i]
		if !x.dead && x.combo == e.combo && len(out) < limit {
			out = append(out, i)
		}
	}
	return out
}

// apiSide answers a job and the other jobs of its combination in every
// run (other agents, models, repetitions, runs), the job first; each says
// whether it regressed against it.
func (s *Server) apiSide(w http.ResponseWriter, req *http.Request) {
	base := s.runArg(w, req, "run")
	if base == nil {
		return
	}
	id := req.URL.Query().Get("id")
	base.mu.RLock()
	e := base.locate(id, indexArg(req))
	var key entry
	if e != nil {
		key = *e
	}
	base.mu.RUnlock()
	if e == nil {
		http.Error(w, "run "+base.id+" has no job "+quote(id), http.StatusNotFound)
		return
	}
	s.mu.RLock()
	runs := slices.Clone(s.runs)
	s.mu.RUnlock()
	// The baseline run first, then the others in the order they were found.
	slices.SortStableFunc(runs, func(a, b *run) int {
		switch {
		case a == base:
			return -1
		case b == base:
			return 1
		}
		return 0
	})
	out := []sibling{}
	add := func(r *run, x *entry) error {
		j, err := r.decodeAny(x)
		if err != nil {
			return err
		}
		out = append(out, sibling{Run: r.id, RunName: r.name, Index: x.index, Variant: r.strs.str(x.variant), Status: statusNames[x.status],
			Job: reviewedJob{Job: j, Review: r.label(j.ID)}})
		return nil
	}
	first := key.status
	for _, r := range runs {
		r.mu.RLock()
		var err error
		if r == base {
			err = add(r, &key) // the job asked for leads
		}
		for _, i := range r.siblings(&key, maxSiblings) {
			x := &r.jobs[i]
			if err != nil || len(out) >= maxSiblings {
				break
			}
			if r == base && x.off == key.off && x.file == key.file {
				continue
			}
			err = add(r, x)
		}
		r.mu.RUnlock()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	// Every job of the combination counted by run and agent·model, the
	// baseline's group first.
	var groups []sideGroup
	for _, r := range runs {
		r.mu.RLock()
		for i := range r.jobs {
			x := &r.jobs[i]
			if x.dead || x.combo != key.combo {
				continue
			}
			v := r.strs.str(x.variant)
			k := slices.IndexFunc(groups, func(g sideGroup) bool { return g.Run == r.id && g.Variant == v })
			if k < 0 {
				groups = append(groups, sideGroup{Run: r.id, Variant: v, Baseline: r == base && x.variant == key.variant})
				k = len(groups) - 1
			}
			groups[k].Jobs++
			if x.status == statusPassed {
				groups[k].Passed++
			}
		}
		r.mu.RUnlock()
	}
	slices.SortStableFunc(groups, func(a, b sideGroup) int {
		switch {
		case a.Baseline && !b.Baseline:
			return -1
		case b.Baseline && !a.Baseline:
			return 1
		}
		return 0
	})
	if len(groups) > 0 && groups[0].Baseline {
		b := groups[0]
		for i := range groups[1:] {
			g := &groups[i+1]
			g.P = stats.RoundP(stats.FisherLess(b.Passed, b.Jobs-b.Passed, g.Passed, g.Jobs-g.Passed))
			g.Regression = stats.Below(g.P, sideAlpha)
		}
	}
	for i := range out[1:] {
		sb := &out[i+1]
		switch st := sb.Status; {
		case first == statusPassed && st != "passed":
			sb.Versus = "regression"
		case first != statusPassed && st == "passed":
			sb.Versus = "improvement"
		}
	}
	writeJSON(w, map[string]any{"id": id, "jobs": out, "groups": groups, "alpha": sideAlpha})
}
