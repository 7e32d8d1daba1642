package evaluate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// withJudge returns in with a judge backed by a llmtest server that
// answers with replies, in order.
func withJudge(t *testing.T, in evaluate.Input, replies ...llmtest.Reply) (evaluate.Input, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t)
	srv.Enqueue(replies...)
	j, err := judge.New(judge.Config{Model: srv.Model()})
	require.NoError(t, err)
	in.Env = &evaluate.Env{Judge: j}
	return in, srv
}

func verdict(pass bool, score float64, reasoning string, caps ...map[string]any) llmtest.Reply {
	if caps == nil {
		caps = []map[string]any{}
	}
	return llmtest.JSON(map[string]any{"pass": pass, "score": score, "reasoning": reasoning, "capabilities": caps})
}

func TestLLMJudge(t *testing.T) {
	t.Parallel()
	step := reply("Found 3 issues: #1, #2, #3.", results.Action{Name: "list_issues", Args: map[string]any{"state": "open"}, Result: []any{1, 2, 3}})
	pass, _ := withJudge(t, step, verdict(true, 0.9, "It lists the three issues."))
	fail, _ := withJudge(t, step, verdict(false, 0.2, "It invents issue numbers.",
		map[string]any{"capability": "Accuracy", "achieved": false, "reasoning": "made up"},
		map[string]any{"capability": "Format", "achieved": true, "reasoning": "ok"}))
	threshold, _ := withJudge(t, step, verdict(true, 0.6, "Mostly right."))
	serverDown, _ := withJudge(t, step, llmtest.Error(400, "invalid_request_error", "bad model"))
	garbage, _ := withJudge(t, step, llmtest.Text("I cannot decide."))
	runCases(t, "llm_judge", []evalCase{
		{name: "pass", params: &evalparams.LLMJudge{Prompt: "Did it list the open issues?", Expected: "yes"}, in: pass, pass: true, score: 0.9,
			msg: "judge: PASS (score 0.90, expected yes); It lists the three issues."},
		{name: "fail with capabilities", params: &evalparams.LLMJudge{Prompt: "Is it accurate?", Expected: "yes", Capabilities: []string{"Accuracy", "Format"}}, in: fail, score: 0.2,
			msg: "judge: FAIL (score 0.20, expected yes); not achieved: Accuracy; It invents issue numbers."},
		{name: "score threshold decides", params: &evalparams.LLMJudge{Prompt: "How good?", Expected: "0.8+"}, in: threshold, score: 0.6, msg: "expected 0.8+"},
		{name: "model error", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes"}, in: serverDown, evalErr: "judge:"},
		{name: "unparseable verdict", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes"}, in: garbage, evalErr: "unparseable judge output"},
		{name: "no judge configured", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes"}, in: step, evalErr: "no judge model is configured"},
		{name: "malformed: expected", params: &evalparams.LLMJudge{Prompt: "q", Expected: "1.5+"}, buildErr: "between 0 and 1"},
		{name: "malformed: empty expected", params: &evalparams.LLMJudge{Prompt: "q"}, buildErr: "expected is empty"},
		{name: "malformed: prompt", params: &evalparams.LLMJudge{Expected: "yes"}, buildErr: "prompt is empty"},
		{name: "malformed: empty capabilities", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes", Capabilities: []string{}}, buildErr: "capabilities is empty"},
		{name: "malformed: blank capability", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes", Capabilities: []string{"a", ""}}, buildErr: "capabilities[1] is empty"},
		{name: "malformed: temperature", params: &evalparams.LLMJudge{Prompt: "q", Expected: "yes", Temperature: ptr(3.0)}, buildErr: "temperature 3 is outside 0..2"},
	})
}

func TestLLMJudgeSendsEvidence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	reg := evaluate.NewRegistry()
	ev, err := evaluate.Build(reg, scenario.Evaluation{Type: "llm_judge", Params: &evalparams.LLMJudge{Prompt: "Did it help?", Expected: "yes", Samples: 1}})
	require.NoError(t, err)

	step := reply("Found 3 issues.", results.Action{Name: "list_issues", Args: map[string]any{"state": "open"}, Error: "rate limited"})
	step.Trace.Steps[0].Input = "List the open issues"
	step.Trace.Dir = t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(step.Trace.Dir, "out"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(step.Trace.Dir, "out", "report.md"), []byte("r"), 0o644))
	in, srv := withJudge(t, step, verdict(true, 1, "ok"))
	_, err = ev.Evaluate(ctx, in)
	require.NoError(t, err)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	sent := reqs[0].LastUserMessage()
	for _, want := range []string{"Did it help?", "List the open issues", "Found 3 issues.", `1. list_issues {"state":"open"} → error: rate limited`, "## Files in the run's directory\nout/report.md\n"} {
		assert.Contains(t, sent, want)
	}

	code := stepIn(evaluate.StepTrace{Kind: "code", Stdout: "PASS", Stderr: "warning: x", ExitCode: 2})
	in, srv = withJudge(t, code, verdict(true, 1, "ok"))
	_, err = ev.Evaluate(ctx, in)
	require.NoError(t, err)
	sent = srv.Requests()[0].LastUserMessage()
	for _, want := range []string{"## Exit code\n2", "## Standard output\nPASS", "## Standard error\nwarning: x"} {
		assert.Contains(t, sent, want)
	}

	in, srv = withJudge(t, final("I need help", "Sure, what with?"), verdict(true, 1, "ok"))
	_, err = ev.Evaluate(ctx, in)
	require.NoError(t, err)
	sent = srv.Requests()[0].LastUserMessage()
	assert.Contains(t, sent, "user: I need help\nassistant: Sure, what with?")

	in, srv = withJudge(t, turn(3, "a", "b", "second question", "second answer"), verdict(true, 1, "ok"))
	_, err = ev.Evaluate(ctx, in)
	require.NoError(t, err)
	sent = srv.Requests()[0].LastUserMessage()
	assert.Contains(t, sent, "## User message\nsecond question")
	assert.Contains(t, sent, "## Agent reply\nsecond answer")
	assert.False(t, strings.Contains(sent, "\nb\n"), "a turn's evidence is that turn only: %s", sent)
}

func TestUserSatisfactionLLMJudge(t *testing.T) {
	t.Parallel()
	conv := final("it broke", "Try restarting.", "That fixed it, thanks!", "Great.")
	happy, _ := withJudge(t, conv, verdict(true, 0.9, "The user thanks the agent."))
	meh, _ := withJudge(t, conv, llmtest.JSON(map[string]any{"score": 0.4, "reasoning": "lukewarm", "pass": false, "capabilities": []any{}}))
	runCases(t, "user_satisfaction", []evalCase{
		{name: "judge satisfied", params: sat("llm_judge", 0.7, nil), in: happy, pass: true, score: 0.9, msg: "user satisfaction 90% (threshold 70%, llm_judge): The user thanks the agent."},
		{name: "judge below threshold", params: sat("llm_judge", 0.7, nil), in: meh, score: 0.4},
		{name: "default method is llm_judge", params: &evalparams.UserSatisfaction{}, in: conv, evalErr: "no judge model is configured"},
	})
}
