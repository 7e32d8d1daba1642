package runner

import (
	"iter"
	"strings"

	"github.com/agenteval/agenteval/matrix"
)

// Variant is one agent of a suite with one of its models: an axis value of
// a comparison. Model is "" when the suite names no models.
type Variant struct {
	Agent, Model string
}

// prefix is what the ids of the variant's jobs start with: agent/ or,
// with a model, agent@model/, the model's slashes written as colons
// (good@openai:gpt-4o/weather/-/run-1), so every id keeps the
// source/combination/run-N form after it.
func (v Variant) prefix() string {
	if v.Model == "" {
		return v.Agent + "/"
	}
	return v.Agent + "@" + strings.ReplaceAll(v.Model, "/", ":") + "/"
}

// String is the variant's name in messages and reports: agent or
// agent × model.
func (v Variant) String() string {
	if v.Model == "" {
		return v.Agent
	}
	return v.Agent + " × " + v.Model
}

// SuiteSources returns the sources of a comparison: every source once per
// variant, in order (the first variant's jobs first), each job carrying its
// variant's Agent and Model and an id prefixed with agent@model/. Combine
// numbers them as one run, so shards, resume and the report's merge treat
// the comparison as one run, and Config.Variants gives each job its agent.
func SuiteSources(variants []Variant, sources []Source) []Source {
	out := make([]Source, 0, len(variants)*len(sources))
	for _, v := range variants {
		prefix := v.prefix()
		for _, s := range sources {
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
	return out
}

// agentFor returns the agent of a job: its variant's, or Config.Agent
// outside a suite; nil when the run has none for it.
func (r *run) agentFor(j matrix.Job) Agent {
	if j.Agent == "" && j.Model == "" {
		return r.cfg.Agent
	}
	return r.variants[Variant{Agent: j.Agent, Model: j.Model}]
}
