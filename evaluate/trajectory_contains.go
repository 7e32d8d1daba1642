package evaluate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/internal/jsonvalue"
	"github.com/agenteval/agenteval/results"
)

// trajectoryContainsActionKind returns the trajectory_contains_action evaluation type.
//
// The evaluation passes when the step's actions (see [Input.Actions]:
// this step's only, or this turn's for a turn evaluation) include one named
// action. Names compare ignoring case, underscores and hyphens, as in
// ElizaOS, so LIST_ISSUES matches listIssues. When args is given, the
// action must also match it partially (see [argsPartial]; numbers compare
// by value). A call that returned an error still counts: the check asks
// whether the agent chose the action, and the message says that it failed.
// The score is 1 on a pass and 0 otherwise.
func trajectoryContainsActionKind() *Kind {
	return NewKind("trajectory_contains_action",
		"The step's actions include the named action, optionally with matching arguments.",
		newTrajectoryContains)
}

// trajectoryContains is the evaluator of trajectoryContainsActionKind; its semantics are documented there.
type trajectoryContains struct {
	action string
	norm   string
	args   map[string]any
}

func newTrajectoryContains(p *evalparams.TrajectoryContainsAction) (Evaluator, error) {
	n := normalizeActionName(p.Action)
	if n == "" {
		return nil, errors.New("action is empty")
	}
	return &trajectoryContains{action: p.Action, norm: n, args: p.Args}, nil
}

// Evaluate judges in; see the type's documentation.
func (e *trajectoryContains) Evaluate(_ context.Context, in Input) (results.Evaluation, error) {
	actions := in.Actions()
	names := actionNames(actions)
	r := results.Evaluation{Details: map[string]any{"action": e.action, "actions": names}}
	if e.args != nil {
		r.Details["args"] = jsonvalue.Clone(e.args) // the result's own, not the scenario's
	}
	firstDiff := ""
	for i, a := range actions {
		if !sameAction(a.Name, e.norm) {
			continue
		}
		if e.args != nil {
			if ok, why := argsMatch(argsPartial, e.args, a.Args); !ok {
				if firstDiff == "" {
					firstDiff = fmt.Sprintf("action %d (%s) %s", i+1, a.Name, why)
				}
				continue
			}
		}
		r.Passed, r.Score = true, 1
		r.Details["index"] = i
		r.Message = fmt.Sprintf("action %s was called (action %d of %d)", a.Name, i+1, len(actions))
		if a.Error != "" {
			r.Details["error"] = a.Error
			r.Message += "; the call failed: " + excerpt(a.Error)
		}
		return r, nil
	}
	switch {
	case firstDiff != "":
		r.Message = fmt.Sprintf("action %s was called but not with the expected arguments: %s", e.action, firstDiff)
	case len(actions) == 0:
		r.Message = fmt.Sprintf("action %s was not called; the agent called no actions", e.action)
	default:
		r.Message = fmt.Sprintf("action %s was not called; the agent called %s", e.action, strings.Join(names, ", "))
	}
	return r, nil
}

func actionNames(actions []results.Action) []string {
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.Name
	}
	return names
}
