package sources

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/scenario"
)

// Suite returns the sources of a comparison: every source once per
// variant, in order (the first variant's jobs first), each job carrying its
// variant's Agent and Model and an id prefixed with agent@model/. Combine
// numbers them as one run, so shards, resume and the report's merge treat
// the comparison as one run, and runner.Config.Variants gives each job its agent.
// Like Files, it refuses a run of more than maxJobs jobs (0: no cap): the
// variants multiply what Files counted.
func Suite(variants []matrix.Variant, srcs []Source, maxJobs int64) ([]Source, error) {
	var perVariant int64
	for _, s := range srcs {
		perVariant += s.Count
	}
	if n := int64(len(variants)); maxJobs > 0 && n > 0 && perVariant > maxJobs/n {
		return nil, fmt.Errorf("the run has more than %d jobs (%d agent/model variant(s) × %d); raise the cap (--max-jobs) to run it anyway", maxJobs, n, perVariant)
	}
	out := make([]Source, 0, len(variants)*len(srcs))
	for _, v := range variants {
		prefix := variantPrefix(v)
		for _, s := range srcs {
			inner := s.Jobs
			out = append(out, Source{Name: s.Name, Count: s.Count, prefix: prefix + s.prefix,
				Jobs: func(offset int64, sh matrix.Shard) iter.Seq2[matrix.Job, error] {
					return func(yield func(matrix.Job, error) bool) {
						for j, err := range inner(offset, sh) {
							if err == nil {
								j.ID = prefix + j.ID
								j.Agent, j.Model = v.Agent, v.Model
							}
							if !yield(j, err) {
								return
							}
						}
					}
				}})
		}
	}
	return out, nil
}

// variantPrefix is what the ids of the variant's jobs start with: agent/ or,
// with a model, agent@model/, the model's slashes written as colons
// (good@openai:gpt-4o/weather/-/run-1), so every id keeps the
// source/combination/run-N form after it.
func variantPrefix(v matrix.Variant) string {
	if v.Model == "" {
		return v.Agent + "/"
	}
	return v.Agent + "@" + strings.ReplaceAll(v.Model, "/", ":") + "/"
}

// SuiteTimeouts gives a suite's job timeout to the scenarios of files that
// set none (a matrix's base too) and returns its step timeout (0 when it sets
// none): the run (agenteval.Kit.Run) and plan's forecast apply them alike.
func SuiteTimeouts(s *scenario.Suite, files []*scenario.File) (step time.Duration) {
	step = time.Duration(s.Timeouts.Step)
	job := time.Duration(s.Timeouts.Job)
	if job <= 0 {
		return step
	}
	for _, f := range files {
		scens := []*scenario.Scenario{f.Scenario}
		if f.Base != nil {
			scens = append(scens, f.Base.Scenario)
		}
		for _, sc := range scens {
			if sc != nil && sc.TimeoutMS == 0 {
				sc.TimeoutMS = int(job / time.Millisecond)
			}
		}
	}
	return step
}
