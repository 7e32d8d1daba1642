package report

import (
	"fmt"
	"maps"
	"path/filepath"

	"github.com/agenteval/agenteval/internal/labels"
	"github.com/agenteval/agenteval/results"
)

// readLabels reads the labels.jsonl beside each results file (each folder
// once; a review in a later folder wins).
func readLabels(paths []string) (map[string]labels.Label, error) {
	var out map[string]labels.Label
	seen := map[string]bool{}
	for _, p := range paths {
		dir := filepath.Dir(p)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		ls, err := labels.Read(labels.Beside(p))
		if err != nil {
			return nil, fmt.Errorf("read labels: %w", err)
		}
		if len(ls) > 0 {
			if out == nil {
				out = map[string]labels.Label{}
			}
			maps.Copy(out, ls)
		}
	}
	return out, nil
}

// reviewRecord gives a record the verdict of its job's review, if any,
// and counts it the first time (reading); read-backs apply it again.
func (r *Results) reviewRecord(rec *lineRecord) {
	l, ok := r.labels[rec.ID]
	if !ok || rec.Record != results.RecordJob {
		return
	}
	rec.Completed, rec.Passed = true, l.Verdict == labels.Pass
	rec.reviewed = true
}

// reviewJob applies the review of j's job, if any, to the record read back.
func (r *Results) reviewJob(j *results.Job) {
	if l, ok := r.labels[j.ID]; ok {
		labels.Apply(j, l)
	}
}
