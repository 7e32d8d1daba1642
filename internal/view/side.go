package view

import (
	"net/http"
	"slices"
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
	for i := range out[1:] {
		sb := &out[i+1]
		switch st := sb.Status; {
		case first == statusPassed && st != "passed":
			sb.Versus = "regression"
		case first != statusPassed && st == "passed":
			sb.Versus = "improvement"
		}
	}
	writeJSON(w, map[string]any{"id": id, "jobs": out})
}
