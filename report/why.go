package report

import (
	"cmp"
	"slices"
)

// Bounds of the grouping of failures: how many distinct reasons are
// counted (the rest are counted together), how many groups a report lists,
// and how many job ids each names.
const (
	maxWhyKeys     = 10_000
	maxWhyGroups   = 20
	maxWhyExamples = 3
	maxWhyEvidence = 2 << 10 // bytes of the first job's evidence a group keeps
)

// whyGroup is the jobs that did not pass for one identical reason.
type whyGroup struct {
	Why        string   // the reason, as Why words it
	Incomplete bool     // the jobs did not complete (else they failed their checks)
	Jobs       int      // how many jobs
	IDs        []string // the first few jobs' ids, in report order
	Evidence   string   // the first job's evidence (evidenceText), cut to maxWhyEvidence
	first      int      // order of first sight, for ties
}

// whyReport is every failing and incomplete job grouped by reason.
type whyReport struct {
	Groups []whyGroup // the largest groups, at most maxWhyGroups
	// MoreGroups and MoreJobs count the groups not listed and their jobs.
	MoreGroups, MoreJobs int
	// Uncounted is the jobs whose reason came after maxWhyKeys distinct
	// ones (counted in MoreJobs too); they were not grouped.
	Uncounted int
}

// groupWhy reads back every job that did not pass and groups identical
// reasons, keeping at most maxWhyKeys distinct ones.
func (r *Results) groupWhy() (*whyReport, error) {
	byKey := map[string]*whyGroup{}
	out := &whyReport{}
	for j, err := range r.failingJobs() {
		if err != nil {
			return nil, err
		}
		key := j.Why()
		g := byKey[key]
		if g == nil {
			if len(byKey) == maxWhyKeys {
				out.Uncounted++
				continue
			}
			g = &whyGroup{Why: key, Incomplete: !j.Completed, first: len(byKey), Evidence: clip(evidenceText(j), maxWhyEvidence)}
			byKey[key] = g
		}
		g.Jobs++
		if len(g.IDs) < maxWhyExamples {
			g.IDs = append(g.IDs, j.ID)
		}
	}
	all := make([]whyGroup, 0, len(byKey))
	for _, g := range byKey {
		all = append(all, *g)
	}
	slices.SortFunc(all, func(a, b whyGroup) int {
		if c := cmp.Compare(b.Jobs, a.Jobs); c != 0 {
			return c
		}
		return cmp.Compare(a.first, b.first)
	})
	if len(all) > maxWhyGroups {
		for _, g := range all[maxWhyGroups:] {
			out.MoreGroups++
			out.MoreJobs += g.Jobs
		}
		all = all[:maxWhyGroups]
	}
	out.MoreJobs += out.Uncounted
	out.Groups = all
	return out, nil
}
