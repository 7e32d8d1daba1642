package runner

import (
	"github.com/agenteval/agenteval/matrix"
)

// agentFor returns the agent of a job: its variant's, or Config.Agent
// outside a suite; nil when the run has none for it.
func (r *run) agentFor(j matrix.Job) Agent {
	if j.Agent == "" && j.Model == "" {
		return r.cfg.Agent
	}
	return r.variants[matrix.Variant{Agent: j.Agent, Model: j.Model}]
}
