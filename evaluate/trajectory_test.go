package evaluate_test

import (
	"encoding/json"
	"testing"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
)

func act(name string, args map[string]any) results.Action {
	return results.Action{Name: name, Args: args}
}

func TestTrajectoryContainsAction(t *testing.T) {
	t.Parallel()
	withTurns := stepIn(convo("hi", "listing", "and now?", "creating"))
	withTurns.Trace.Steps[0].Turns[1].Actions = []results.Action{act("LIST_ISSUES", nil)}
	withTurns.Trace.Steps[0].Turns[3].Actions = []results.Action{act("create_issue", nil)}
	turn3 := withTurns
	turn3.Scope, turn3.Turn = results.ScopeTurn, 3
	failed := results.Action{Name: "deploy", Error: "permission denied"}

	runCases(t, "trajectory_contains_action", []evalCase{
		{name: "found, normalised name", params: &evalparams.TrajectoryContainsAction{Action: "LIST_GITHUB_ISSUES"}, in: reply("ok", act("listGithubIssues", nil)), pass: true, score: 1, msg: "action listGithubIssues was called (action 1 of 1)"},
		{name: "not called", params: &evalparams.TrajectoryContainsAction{Action: "create_issue"}, in: reply("ok", act("list_issues", nil), act("get_issue", nil)), score: 0,
			msg: "action create_issue was not called; the agent called list_issues, get_issue"},
		{name: "no actions", params: &evalparams.TrajectoryContainsAction{Action: "x"}, in: reply("ok"), score: 0, msg: "the agent called no actions"},
		{name: "failed call still counts", params: &evalparams.TrajectoryContainsAction{Action: "deploy"}, in: reply("ok", failed), pass: true, score: 1, msg: "the call failed: permission denied"},
		{name: "args partial, numbers by value", params: &evalparams.TrajectoryContainsAction{Action: "get_issue", Args: map[string]any{"number": 42, "repo": map[string]any{"owner": "o"}}},
			in: reply("ok", act("get_issue", map[string]any{"number": 42.0, "repo": map[string]any{"owner": "o", "name": "r"}, "verbose": true})), pass: true, score: 1},
		{name: "args numeric string from a placeholder", params: &evalparams.TrajectoryContainsAction{Action: "get_issue", Args: map[string]any{"number": "42"}},
			in: reply("ok", act("get_issue", map[string]any{"number": json.Number("42")})), pass: true, score: 1},
		{name: "args differ", params: &evalparams.TrajectoryContainsAction{Action: "get_issue", Args: map[string]any{"number": 7}},
			in: reply("ok", act("get_issue", map[string]any{"number": 42})), score: 0, msg: "action get_issue was called but not with the expected arguments: action 1 (get_issue) args.number: want 7, got 42"},
		{name: "args missing key", params: &evalparams.TrajectoryContainsAction{Action: "get_issue", Args: map[string]any{"labels": []any{"bug"}}},
			in: reply("ok", act("get_issue", nil)), score: 0, msg: `args.labels: missing (want ["bug"])`},
		{name: "second call matches args", params: &evalparams.TrajectoryContainsAction{Action: "get_issue", Args: map[string]any{"number": 2}},
			in: reply("ok", act("get_issue", map[string]any{"number": 1}), act("get_issue", map[string]any{"number": 2})), pass: true, msg: "action 2 of 2", score: 1},
		{name: "conversation step: all turns' actions", params: &evalparams.TrajectoryContainsAction{Action: "list_issues"}, in: withTurns, pass: true, score: 1},
		{name: "turn: only that turn's actions", params: &evalparams.TrajectoryContainsAction{Action: "list_issues"}, in: turn3, score: 0, msg: "the agent called create_issue"},
		{name: "this step only", params: &evalparams.TrajectoryContainsAction{Action: "earlier"}, in: twoSteps(), score: 0, msg: "the agent called later"},
		{name: "malformed: empty action", params: &evalparams.TrajectoryContainsAction{Action: "__"}, buildErr: "action is empty"},
	})
}

// twoSteps is a trace of two steps, evaluated at the second.
func twoSteps() evaluate.Input {
	in := reply("ok", act("later", nil))
	in.Trace.Steps = append([]evaluate.StepTrace{{Kind: "input", Actions: []results.Action{act("earlier", nil)}}}, in.Trace.Steps...)
	in.Step = 1
	return in
}

func TestTrajectoryMatch(t *testing.T) {
	t.Parallel()
	exp := func(names ...string) []evalparams.ExpectedAction {
		out := make([]evalparams.ExpectedAction, len(names))
		for i, n := range names {
			out[i] = evalparams.ExpectedAction{Action: n}
		}
		return out
	}
	tm := func(mode string, e ...evalparams.ExpectedAction) *evalparams.TrajectoryMatch {
		return &evalparams.TrajectoryMatch{Mode: mode, Expected: e}
	}
	abc := reply("ok", act("a", nil), act("b", nil), act("c", nil))
	runCases(t, "trajectory_match", []evalCase{
		{name: "strict pass", params: tm("strict", exp("a", "b", "c")...), in: abc, pass: true, score: 1, msg: "the 3 actions match the expected trajectory (strict)"},
		{name: "default mode is strict", params: &evalparams.TrajectoryMatch{Expected: exp("b", "a", "c")}, in: abc, score: 1.0 / 3, msg: "(strict): action 1: expected b, got a"},
		{name: "strict too short", params: tm("strict", exp("a", "b", "c", "d")...), in: abc, score: 0.75, msg: "action 4: expected d, but the agent made only 3 actions"},
		{name: "strict too long", params: tm("strict", exp("a", "b")...), in: abc, score: 2.0 / 3, msg: "action 3: unexpected c; expected only 2 actions"},
		{name: "unordered pass", params: tm("unordered", exp("c", "a", "b")...), in: abc, pass: true, score: 1},
		{name: "unordered extra", params: tm("unordered", exp("c", "a")...), in: abc, score: 2.0 / 3, msg: "unexpected action 2 (b)"},
		{name: "unordered multiplicity", params: tm("unordered", exp("a", "a", "b")...), in: reply("", act("a", nil), act("b", nil), act("b", nil)), score: 2.0 / 3,
			msg: "expected action 2 (a) was not called"},
		{name: "unordered needs augmenting pairs", params: &evalparams.TrajectoryMatch{Mode: "unordered", ArgsMatch: "partial", Expected: []evalparams.ExpectedAction{
			{Action: "f"}, {Action: "f", Args: map[string]any{"x": 1}},
		}}, in: reply("", act("f", map[string]any{"x": 1}), act("f", map[string]any{"x": 2})), pass: true, score: 1},
		{name: "subset pass with repeats", params: tm("subset", exp("a", "b", "c", "d")...), in: reply("", act("a", nil), act("a", nil), act("c", nil)), pass: true, score: 1},
		{name: "subset pass with nothing", params: tm("subset", exp("a")...), in: reply(""), pass: true, score: 1},
		{name: "subset fail", params: tm("subset", exp("a", "b")...), in: abc, score: 2.0 / 3, msg: "(subset): action 3 (c) is not among the expected actions"},
		{name: "superset pass", params: tm("superset", exp("c", "a")...), in: abc, pass: true, score: 1},
		{name: "superset fail", params: tm("superset", exp("a", "z")...), in: abc, score: 0.5, msg: "(superset): expected action 2 (z) was not called"},
		{name: "exact args pass", params: &evalparams.TrajectoryMatch{ArgsMatch: "exact", Expected: []evalparams.ExpectedAction{{Action: "f", Args: map[string]any{"x": 1, "l": []any{1, "a"}}}}},
			in: reply("", act("f", map[string]any{"x": 1.0, "l": []any{1.0, "a"}})), pass: true, score: 1},
		{name: "exact args extra key", params: &evalparams.TrajectoryMatch{ArgsMatch: "exact", Expected: []evalparams.ExpectedAction{{Action: "f", Args: map[string]any{"x": 1}}}},
			in: reply("", act("f", map[string]any{"x": 1, "y": 2})), score: 0, msg: "action 1: f args.y: not expected (got 2) (args_match exact)"},
		{name: "partial args pass", params: &evalparams.TrajectoryMatch{ArgsMatch: "partial", Expected: []evalparams.ExpectedAction{{Action: "f", Args: map[string]any{"x": 1}}}},
			in: reply("", act("f", map[string]any{"x": 1, "y": 2})), pass: true, score: 1},
		{name: "ignore args by default", params: &evalparams.TrajectoryMatch{Expected: []evalparams.ExpectedAction{{Action: "f", Args: map[string]any{"x": 9}}}},
			in: reply("", act("f", map[string]any{"x": 1})), pass: true, score: 1},
		{name: "per-action override beats default", params: &evalparams.TrajectoryMatch{ArgsMatch: "ignore", Expected: []evalparams.ExpectedAction{
			{Action: "f"}, {Action: "g", Args: map[string]any{"x": 9}, ArgsMatch: "partial"}}},
			in: reply("", act("f", map[string]any{"x": 1}), act("g", map[string]any{"x": 1})), score: 0.5, msg: "action 2: g args.x: want 9, got 1 (args_match partial)"},
		{name: "superset explains closest call", params: &evalparams.TrajectoryMatch{Mode: "superset", ArgsMatch: "partial", Expected: []evalparams.ExpectedAction{{Action: "g", Args: map[string]any{"x": 9}}}},
			in: reply("", act("g", map[string]any{"x": 1})), score: 0, msg: "expected action 1 (g) not matched; closest call, action 1: g args.x: want 9, got 1"},
		{name: "malformed: no expected", params: &evalparams.TrajectoryMatch{}, buildErr: "expected is empty"},
		{name: "malformed: mode", params: tm("sorted", exp("a")...), buildErr: `mode "sorted" is not strict`},
		{name: "malformed: args_match", params: &evalparams.TrajectoryMatch{ArgsMatch: "fuzzy", Expected: exp("a")}, buildErr: `args_match "fuzzy"`},
		{name: "malformed: action override", params: &evalparams.TrajectoryMatch{Expected: []evalparams.ExpectedAction{{Action: "a", ArgsMatch: "fuzzy"}}}, buildErr: `expected[0]: args_match "fuzzy"`},
		{name: "malformed: empty action", params: &evalparams.TrajectoryMatch{Expected: []evalparams.ExpectedAction{{Action: ""}}}, buildErr: "expected[0]: action is empty"},
	})
}
