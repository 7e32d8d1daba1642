package main

import (
	"context"
	"fmt"
	"iter"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// matrixSource compiles a matrix file into a lazily expanded job source.
// Filters select combinations; sharding is left to runner.Combine, which
// numbers jobs across all sources of the run.
func matrixSource(l *scenario.Loader, f *scenario.File, filters []string, maxJobs int64) (runner.Source, error) {
	fs, err := matrix.ParseFilters(filters)
	if err != nil {
		return runner.Source{}, err
	}
	plan, diags := matrix.Compile(f, matrix.Options{Loader: l, Filters: fs, MaxJobs: maxJobs})
	if diags.HasErrors() {
		return runner.Source{}, diags
	}
	count, err := plan.Count()
	if err != nil {
		return runner.Source{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	return runner.Source{Name: f.Name, Count: count, Jobs: func(offset int64) iter.Seq2[runner.Job, error] {
		return func(yield func(runner.Job, error) bool) {
			i := offset
			for j, err := range plan.Jobs(context.Background()) {
				if err != nil {
					yield(runner.Job{}, err)
					return
				}
				rj := runner.Job{ID: j.ID, Index: i, Scenario: j.Scenario, Matrix: f.Matrix.Name, Combination: j.Combination, Run: j.Run}
				if len(j.Params) > 0 {
					rj.Params = make([]runner.Param, len(j.Params))
					for k, p := range j.Params {
						rj.Params[k] = runner.Param{Path: p.Path, Value: p.Value}
					}
				}
				i++
				if !yield(rj, nil) {
					return
				}
			}
		}
	}}, nil
}
