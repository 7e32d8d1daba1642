package sources

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/agenteval/agenteval/internal/formats"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// Options tune Files.
type Options struct {
	// Runs is how many times each plain scenario runs (at least 1);
	// matrices use their runs_per_combination.
	Runs int
	// Filters select matrix combinations (path=value, ANDed); plain
	// scenarios are left out when filters are given.
	Filters []string
	// MaxJobs refuses a run with more jobs (0 means no cap).
	MaxJobs int64
	// Skip, when set, names the jobs the run will skip (resume, with
	// runner.Config.Skip): a matrix yields those as headers, their Scenario nil,
	// without building their scenarios, so that skipping what a results
	// file holds costs no expansion.
	Skip func(id string) bool
}

// Files turns loaded files into job sources: each scenario runs
// opts.Runs times; each matrix expands lazily. Manifests and scenario sets
// contribute no jobs.
func Files(files []*scenario.File, opts Options) ([]Source, error) {
	var out []Source
	var total int64
	// Job ids are Source/Combination/run-N: two sources with one prefix
	// would record each other's jobs as done.
	prefixes := map[string]string{}
	leftOut := 0
	for _, f := range files {
		var src Source
		var prefix string
		switch {
		case f.Matrix != nil:
			s, err := Matrix(f, opts)
			if err != nil {
				return nil, err
			}
			src, prefix = s, s.prefix
		case f.Scenario != nil && (f.Kind == scenario.KindScenario || f.Kind == scenario.KindGitHub):
			if len(opts.Filters) > 0 {
				leftOut++
				continue // filters select matrix combinations
			}
			src = Scenario(f.Name, f.Scenario, opts.Runs)
			prefix = src.prefix
		default:
			continue
		}
		if prev, dup := prefixes[prefix]; dup {
			return nil, fmt.Errorf("%s and %s would give their jobs the same ids (%s/...); give one of them another id or file name", prev, f.Name, prefix)
		}
		prefixes[prefix] = f.Name
		total += src.Count
		if opts.MaxJobs > 0 && total > opts.MaxJobs {
			return nil, fmt.Errorf("the run has more than %d jobs; raise the cap (--max-jobs) to run it anyway", opts.MaxJobs)
		}
		out = append(out, src)
	}
	switch {
	case len(out) == 0 && leftOut > 0:
		return nil, fmt.Errorf("the filter %s matched nothing: filters select the combinations of a matrix, and no matrix is given (%d scenario file(s) left out)", strings.Join(opts.Filters, " "), leftOut)
	case len(out) == 0:
		return nil, fmt.Errorf("no scenarios or matrices to run")
	}
	return out, nil
}

// Matrix compiles a matrix file into a lazily expanded source. Its
// jobs are numbered by their position in the filtered expansion; a shard
// reaches its own positions by arithmetic (matrix.Plan.Select), so it costs
// its jobs, not the whole matrix.
func Matrix(f *scenario.File, opts Options) (Source, error) {
	fs, err := matrix.ParseFilters(opts.Filters)
	if err != nil {
		return Source{}, err
	}
	plan, diags := matrix.Compile(f, matrix.Options{Filters: fs, MaxJobs: opts.MaxJobs})
	if diags.HasErrors() {
		return Source{}, diags
	}
	count, err := plan.Count()
	if err != nil {
		return Source{}, fmt.Errorf("%s: %w", f.Name, err)
	}
	prefix := f.ID + "/c-"
	if f.ID == "" {
		prefix = formats.IDFromFileName(f.Name) + "/c-"
	}
	if len(plan.Parameters()) == 0 {
		prefix = prefix[:len(prefix)-2] + matrix.SingleCombination
	}
	return Source{Name: f.Name, Count: count, prefix: prefix, Jobs: func(offset int64, sh matrix.Shard) iter.Seq2[matrix.Job, error] {
		return func(yield func(matrix.Job, error) bool) {
			// Positions first, first+n, first+2n, ... of the filtered
			// expansion are the shard's: matrix.Shard{first+1, n} deals them.
			first, step := shardFirst(sh, offset), shardStep(sh)
			if first >= count {
				return
			}
			sel := plan
			if step > 1 {
				var err error
				if sel, err = plan.Select(fs, matrix.Shard{Index: int(first) + 1, Count: int(step)}); err != nil {
					yield(matrix.Job{}, err)
					return
				}
			}
			i := offset + first
			jobs := sel.Jobs
			if opts.Skip != nil {
				jobs = sel.Headers // build the scenarios of the jobs that run only
			}
			for j, err := range jobs(context.Background()) {
				if err == nil && opts.Skip != nil && !opts.Skip(j.ID) {
					j.Scenario, err = plan.Materialize(j.Index)
				}
				if err != nil {
					yield(matrix.Job{}, err)
					return
				}
				j.Index = i // the run's numbering, not the expansion's
				i += step
				if !yield(j, nil) {
					return
				}
			}
		}
	}}, nil
}
