package runner

import (
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
)

// efficiency counts what the agent did in one attempt: its replies and its
// tool calls, by category. It allocates only the counts it records.
func (r *run) efficiency(trace *evaluate.Trace) results.Efficiency {
	var e results.Efficiency
	names := r.tools.Names()
	var small [16]int
	var counts []int
	if len(names) <= len(small) {
		counts = small[:len(names)]
	} else {
		counts = make([]int, len(names))
	}
	for i := range trace.Steps {
		st := &trace.Steps[i]
		switch {
		case len(st.Turns) > 0:
			for _, t := range st.Turns {
				if t.Role == "assistant" {
					e.Turns++
				}
			}
		case st.Kind == "input" && (st.Reply != "" || len(st.Actions) > 0 || st.Error == ""):
			e.Turns++
		}
		for _, a := range st.Actions {
			e.ToolCalls.Total++
			if a.Error != "" {
				e.ToolCalls.Failed++
			}
			counts[r.tools.Index(a.Name, a.Args)]++
		}
	}
	if e.ToolCalls.Total == 0 {
		return e
	}
	n := 0
	for _, c := range counts {
		if c > 0 {
			n++
		}
	}
	e.ToolCalls.ByCategory = make(results.Counts, 0, n)
	for i, c := range counts {
		if c > 0 {
			e.ToolCalls.ByCategory = append(e.ToolCalls.ByCategory, results.Count{Name: names[i], N: c})
		}
	}
	return e
}
