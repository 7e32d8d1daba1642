package github

import (
	"context"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/textdist"
)

// Task describes one task an Executor runs.
type Task struct {
	// Name is the task name, e.g. "pr.view".
	Name string
	// Description says what the task returns.
	Description string
	// Inputs are the accepted input fields.
	Inputs []Input
	// Output summarises the shape of the returned data.
	Output string
}

// Input describes one input field of a task.
type Input struct {
	Name     string
	Type     string // string, integer, boolean, string|null or string|integer
	Required bool
	// Aliases are other accepted spellings (snake_case is always accepted).
	Aliases     []string
	Enum        []string
	Description string
}

// taskDef is a registry entry: the public description plus how to run it.
type taskDef struct {
	name   string
	desc   string
	output string
	params []param
	run    func(ctx context.Context, c *call, in args) (any, error)
}

// registry is the table of tasks, built by newRegistry; there is no global
// registration.
type registry struct {
	byName map[string]*taskDef
	names  []string
}

func newRegistry() *registry {
	r := &registry{byName: map[string]*taskDef{}}
	for _, group := range [][]taskDef{repoTasks(), issueTasks(), prTasks(), prReviewTasks(), workflowTasks(), projectTasks(), releaseTasks()} {
		for i := range group {
			d := &group[i]
			if _, dup := r.byName[d.name]; dup {
				panic("github: task " + d.name + " defined twice")
			}
			r.byName[d.name] = d
			r.names = append(r.names, d.name)
		}
	}
	slices.Sort(r.names)
	return r
}

func (r *registry) lookup(name string) (*taskDef, error) {
	if d, ok := r.byName[name]; ok {
		return d, nil
	}
	return nil, &Error{Kind: ErrUnknownTask, Task: name, Suggestions: nearest(name, r.names, 3)}
}

func (r *registry) list() []Task {
	out := make([]Task, 0, len(r.names))
	for _, n := range r.names {
		d := r.byName[n]
		t := Task{Name: d.name, Description: d.desc, Output: d.output}
		for _, p := range d.params {
			t.Inputs = append(t.Inputs, Input{Name: p.name, Type: p.kind.String(), Required: p.required,
				Aliases: append([]string(nil), p.aliases...), Enum: append([]string(nil), p.enum...), Description: p.desc})
		}
		out = append(out, t)
	}
	return out
}

// nearest returns up to n names closest to name by edit distance, among
// those close enough to be plausible typos, plus names that share its
// first two segments (pr.review_threads.* for pr.review_threads.get).
func nearest(name string, names []string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	var cands []scored
	limit := max(3, len(name)/3)
	prefix := segmentPrefix(name)
	for _, c := range names {
		d := levenshtein(strings.ToLower(name), strings.ToLower(c))
		if d <= limit || prefix != "" && strings.HasPrefix(c, prefix) {
			cands = append(cands, scored{c, d})
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, n)
	for _, c := range cands {
		if len(out) == n {
			break
		}
		out = append(out, c.name)
	}
	return out
}

func segmentPrefix(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[0] + "." + parts[1] + "."
}

// levenshtein is textdist.Distance, the measure every suggestion uses.
func levenshtein(a, b string) int { return textdist.Distance(a, b) }
