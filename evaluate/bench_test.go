package evaluate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// typicalStep is an input step as agents produce them: a reply of a few
// hundred characters and five tool calls with arguments.
func typicalStep() evaluate.StepTrace {
	reply := strings.Repeat("I looked at the repository and the open pull requests. ", 8) +
		"There are 3 open issues: #12 (crash on start), #15 (typo in README) and #19 (slow build)."
	actions := []results.Action{
		{Name: "list_repositories", Args: map[string]any{"owner": "acme"}},
		{Name: "get_repository", Args: map[string]any{"owner": "acme", "name": "widgets"}},
		{Name: "list_issues", Args: map[string]any{"owner": "acme", "repo": "widgets", "state": "open", "limit": 50.0}},
		{Name: "get_issue", Args: map[string]any{"owner": "acme", "repo": "widgets", "number": 12.0}},
		{Name: "add_comment", Args: map[string]any{"owner": "acme", "repo": "widgets", "number": 12.0, "body": "Triaged."}},
	}
	return evaluate.StepTrace{Kind: "input", Input: "Triage the open issues of acme/widgets", Reply: reply, Actions: actions,
		Started: t0, Duration: 1800 * time.Millisecond}
}

// typicalConversation is a ten-turn support conversation.
func typicalConversation() evaluate.StepTrace {
	return convo(
		"Hi, I'm Ada from Berlin. My build is broken, why does it fail?",
		"I'm sorry to hear that, Ada. Which Go version are you using?",
		"Go 1.26, on Linux.",
		"Thanks. Try running go clean -cache, then build again.",
		"Still failing with the same error.",
		"Could you paste the first lines of the error?",
		"undefined: slices.Collect in main.go line 3",
		"Your go.mod says go 1.20; update it to go 1.26 and run go mod tidy.",
		"That fixed it, thanks! Perfect.",
		"Glad to help, Ada. Enjoy Berlin!",
	)
}

func BenchmarkEvaluations(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "out"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "out", "report.md"), []byte(strings.Repeat("line of the report\n", 200)+"3 issues triaged\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	step := &evaluate.Trace{ScenarioID: "bench", Dir: dir, Steps: []evaluate.StepTrace{typicalStep()}}
	conv := &evaluate.Trace{ScenarioID: "bench", Steps: []evaluate.StepTrace{typicalConversation()}}
	stepIn := evaluate.Input{Trace: step, Turn: -1, Scope: results.ScopeStep, Env: &evaluate.Env{AllowCommands: true}}
	finalIn := evaluate.Input{Trace: conv, Turn: -1, Scope: results.ScopeFinal, Env: &evaluate.Env{}}
	turnIn := evaluate.Input{Trace: conv, Turn: 7, Scope: results.ScopeTurn, Env: &evaluate.Env{}}
	echo := &evaluate.Trace{ScenarioID: "echo", Steps: []evaluate.StepTrace{{Kind: "input", Input: "Question 17: what is topic-17?", Reply: "Question 17: what is topic-17?"}}}
	echoIn := evaluate.Input{Trace: echo, Turn: -1, Scope: results.ScopeStep, Env: &evaluate.Env{}}
	expected := []evalparams.ExpectedAction{{Action: "list_repositories"}, {Action: "get_repository"}, {Action: "list_issues", Args: map[string]any{"state": "open"}},
		{Action: "get_issue"}, {Action: "add_comment", Args: map[string]any{"number": 12}}}
	reversed := []evalparams.ExpectedAction{expected[4], expected[3], expected[2], expected[1], expected[0]}

	cases := []struct {
		name   string
		typ    string
		params any
		in     evaluate.Input
	}{
		{"string_contains", "string_contains", &evalparams.StringContains{Value: "#19 (SLOW BUILD)"}, stepIn},
		{"string_contains/transcript", "string_contains", &evalparams.StringContains{Value: "go mod tidy"}, finalIn},
		{"regex_match", "regex_match", &evalparams.RegexMatch{Pattern: `\b\d+ open issues\b`}, stepIn},
		{"trajectory_contains_action", "trajectory_contains_action", &evalparams.TrajectoryContainsAction{Action: "ADD_COMMENT", Args: map[string]any{"number": 12}}, stepIn},
		{"trajectory_match/strict", "trajectory_match", &evalparams.TrajectoryMatch{Mode: "strict", ArgsMatch: "partial", Expected: expected}, stepIn},
		{"trajectory_match/unordered", "trajectory_match", &evalparams.TrajectoryMatch{Mode: "unordered", ArgsMatch: "partial", Expected: reversed}, stepIn},
		{"execution_time", "execution_time", &evalparams.ExecutionTime{MaxDurationMS: ptr(5000.0), TargetDurationMS: ptr(2000.0)}, stepIn},
		{"file_exists", "file_exists", &evalparams.FileExists{Path: "out/report.md"}, stepIn},
		{"file_contains", "file_contains", &evalparams.FileContains{Path: "out/report.md", Value: "3 issues triaged"}, stepIn},
		{"command_exit_code_is", "command_exit_code_is", &evalparams.CommandExitCodeIs{Command: "test -f out/report.md"}, stepIn},
		{"conversation_length", "conversation_length", &evalparams.ConversationLength{MinTurns: 2, MaxTurns: 8, OptimalTurns: 4}, finalIn},
		{"conversation_flow", "conversation_flow", flow(0.7, "question_then_answer", "problem_then_solution", "clarification_cycle", "empathy_then_solution", "escalation_pattern"), finalIn},
		{"user_satisfaction/keyword", "user_satisfaction", sat("keyword_analysis", 0.7, nil), finalIn},
		{"user_satisfaction/sentiment", "user_satisfaction", sat("sentiment_analysis", 0.7, nil), finalIn},
		{"context_retention", "context_retention", retention(3, 0.8, "Ada", "Berlin"), finalIn},
		{"string_contains/turn", "string_contains", &evalparams.StringContains{Value: "go.mod"}, turnIn},
		// The echo workload's regex (bench/echo): anchored, on a short reply.
		{"regex_match/echo", "regex_match", &evalparams.RegexMatch{Pattern: `^Question [0-9]+: what is topic-[0-9]+\?$`}, echoIn},
	}
	reg := evaluate.NewRegistry()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ev, err := evaluate.Build(reg, scenario.Evaluation{Type: c.typ, Params: c.params})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ev.Evaluate(ctx, c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompile measures building a scenario's evaluations once.
func BenchmarkCompile(b *testing.B) {
	s := &scenario.Scenario{Run: []scenario.RunStep{{Evaluations: []scenario.Evaluation{
		{Type: "string_contains", Params: &evalparams.StringContains{Value: "issues"}},
		{Type: "regex_match", Params: &evalparams.RegexMatch{Pattern: `#\d+`}},
		{Type: "trajectory_contains_action", Params: &evalparams.TrajectoryContainsAction{Action: "list_issues"}},
		{Type: "execution_time", Params: &evalparams.ExecutionTime{MaxDurationMS: ptr(5000.0)}},
	}}}}
	reg := evaluate.NewRegistry()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := evaluate.Compile(reg, s); err != nil {
			b.Fatal(err)
		}
	}
}
