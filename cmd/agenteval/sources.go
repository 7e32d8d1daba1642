package main

import (
	"fmt"

	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// buildSources turns loaded files into job sources: each scenario runs
// `runs` times; each matrix expands lazily. Manifests and scenario sets
// contribute no jobs.
func buildSources(l *scenario.Loader, files []*scenario.File, runs int, filters []string, maxJobs int64) ([]runner.Source, error) {
	var out []runner.Source
	var total int64
	for _, f := range files {
		var src runner.Source
		switch {
		case f.Matrix != nil:
			s, err := matrixSource(l, f, filters, maxJobs)
			if err != nil {
				return nil, err
			}
			src = s
		case f.Scenario != nil:
			if len(filters) > 0 {
				continue // filters select matrix combinations
			}
			src = runner.ScenarioSource(f.Name, f.Scenario, runs)
		default:
			continue
		}
		total += src.Count
		if total > maxJobs {
			return nil, fmt.Errorf("the run has more than %d jobs; raise --max-jobs to run it anyway", maxJobs)
		}
		out = append(out, src)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenarios or matrices to run in the given paths")
	}
	return out, nil
}
