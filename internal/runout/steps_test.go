package runout

import (
	"strings"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
)

func TestStepsPrintsAsScenarioRun(t *testing.T) {
	t.Parallel()
	j := &results.Job{ID: "s/-/run-1", Scenario: "s", ScenarioName: "Weather", Run: 1, Completed: true,
		Transcript: []results.Turn{
			{Role: "user", Text: "Weather in Paris?"},
			{Role: "assistant", Text: "Sunny.\nWarm too.", Actions: []results.Action{{Name: "GET_WEATHER"}, {Name: "LOG", Error: "disk full"}}},
		},
		CodeSteps:   []results.CodeStep{{Step: 1, ExitCode: 3, Stdout: "ok\n", Stderr: "warn"}},
		Evaluations: []results.Evaluation{{Type: "string_contains", Scope: results.ScopeStep, Passed: true, Message: "has sunny"}},
	}
	for _, tc := range []struct {
		name  string
		steps *Steps
		total int64
		want  []string
		none  bool
	}{
		{name: "one job", steps: &Steps{}, total: 1, want: []string{
			"▶️ RUNNING SCENARIO: Weather\n",
			"--- Execution Output ---\nSTDOUT:\n  | [action GET_WEATHER]\n  | [action LOG] failed: disk full\n  | Sunny.\n  | Warm too.\n------------------------\n",
			"STDOUT:\n  | ok\nSTDERR:\n  | warn\n  | (exit code 3)\n",
			"--- Evaluation Results ---\n✅ PASS: has sunny\n",
			"SCENARIO STATUS: ❌ FAIL\n",
		}},
		{name: "many jobs, not always", steps: &Steps{}, total: 5, none: true},
		{name: "always", steps: &Steps{Always: true}, total: 5, want: []string{"SCENARIO STATUS: ❌ FAIL"}},
		{name: "colour", steps: &Steps{Always: true, Color: true}, total: 2, want: []string{"\033[1;36m▶️ RUNNING SCENARIO: Weather\033[0m", "\033[31m❌ FAIL\033[0m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			tc.steps.W = &b
			tc.steps.Job(j, tc.total)
			if tc.none {
				assert.Empty(t, b.String())
			}
			for _, w := range tc.want {
				assert.Contains(t, b.String(), w)
			}
		})
	}
	var nilSteps *Steps
	nilSteps.Job(j, 1) // a run without --steps
}
