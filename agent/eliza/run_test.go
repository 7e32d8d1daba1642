package eliza_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/conversation"
	"github.com/agenteval/agenteval/internal/testtool"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
)

// elizaPackages are the npm packages these tests run, as scripts/test.sh's
// npm_packages installs them.
var elizaPackages = []string{"@elizaos/core@1.7.2", "@elizaos/plugin-sql@1.7.2", "@elizaos/plugin-bootstrap@1.7.2", "@elizaos/plugin-openai@1.6.0", "zod@4.6.7"}

// elizaReply is an answer in ElizaOS's XML response format: the agent's
// thought, the actions it picks and its text.
func elizaReply(thought, actions, text string) llmtest.Reply {
	return llmtest.Text("<response><thought>" + thought + "</thought><actions>" + actions +
		"</actions><providers></providers><text>" + text + "</text></response>")
}

// elizaRun runs files with the agent spec (eliza or eliza:DIR) through the
// library against srv, with the user's npm folder and a kept template, and returns
// the job records.
func elizaRun(t *testing.T, srv *llmtest.Server, spec string, concurrency int, user llm.Model, paths ...string) []results.Job {
	t.Helper()
	testtool.NeedNPM(t, elizaPackages...)
	kit := agenteval.New()
	files, err := kit.Load(paths...)
	require.NoError(t, err)
	env := map[string]string{"OPENAI_BASE_URL": srv.URL, "OPENAI_API_KEY": srv.Config().APIKey, "AGENTEVAL_NPM_DIR": testtool.NPMDir()}
	// The migrated PGLite template is kept across test runs, as a user
	// may ask with AGENTEVAL_ELIZA_CACHE (making one takes tens of
	// seconds); cli's eliza_agent.txtar runs without, where it is made in
	// the run's work folder.
	if cache, err := os.UserCacheDir(); err == nil {
		env["AGENTEVAL_ELIZA_CACHE"] = filepath.Join(cache, "agenteval", "eliza")
	}
	out := filepath.Join(t.TempDir(), "out")
	sum, err := kit.Run(context.Background(), agenteval.RunConfig{AgentSpec: spec,
		AgentOptions: runner.AgentOptions{Getenv: func(k string) string { return env[k] }},
		Concurrency:  concurrency, UserModel: user, Out: out, AllowCommands: true}, files...)
	require.NoError(t, err)
	f, err := os.Open(sum.Path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var jobs []results.Job
	for sc.Scan() {
		var j results.Job
		require.NoError(t, json.Unmarshal(sc.Bytes(), &j))
		if j.Record == results.RecordJob {
			jobs = append(jobs, j)
		}
	}
	leftovers, err := filepath.Glob(filepath.Join(out, "work", "*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers, "no job directory (nor PGLite database) is left behind")
	return jobs
}

// TestRunsUpstreamScenario runs ElizaOS's own example scenarios that need
// no external service (nl-smoke: a regex on the reply;
// simple-natural-language: any of two phrases) with the agent eliza:
// a real ElizaOS runtime (plugin-sql on PGLite, plugin-bootstrap,
// plugin-openai) whose model is the llmtest server. The scenario's
// character reaches the model (its system prompt and llm.model with the
// step's input), the runtime's token counts reach the result, and the
// verdict is the author's.
func TestRunsUpstreamScenario(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("The user wants a greeting.", "REPLY", "Hello! Nice to meet you. I can help with questions.")
	})
	dir := t.TempDir()
	const examples = "../../testdata/corpus/eliza-7a128d1/packages/cli/src/commands/scenario/examples/"
	scen, err := os.ReadFile(examples + "nl-smoke.scenario.yaml")
	require.NoError(t, err)
	scen = append(scen, []byte("\ncharacter:\n  name: Ada\n  system: You are Ada, a terse tester.\n  llm:\n    model: ada-large\n")...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nl-smoke.scenario.yaml"), scen, 0o644))
	jobs := elizaRun(t, srv, "eliza", 1, nil, filepath.Join(dir, "nl-smoke.scenario.yaml"), examples+"simple-natural-language.scenario.yaml")
	require.Len(t, jobs, 2)
	var simple bool
	for _, j := range jobs {
		assert.True(t, j.Passed, "%s: %+v", j.ID, j)
		assert.Positive(t, j.Usage.TotalTokens, "the runtime's MODEL_USED events count the tokens")
		require.NotEmpty(t, j.Transcript)
		assert.Equal(t, "The user wants a greeting.", j.Transcript[len(j.Transcript)-1].Thought, "the runtime's thought is the turn's")
		if strings.HasPrefix(j.ID, "simple-natural-language/") {
			// any_pass: "help" is in the reply, "assist" is not.
			simple = true
			assert.Equal(t, 0.5, j.Score, "%+v", j.Evaluations)
		}
	}
	assert.True(t, simple, "simple-natural-language ran")
	var sawCharacter bool
	for _, r := range srv.Requests() {
		require.NoError(t, r.DecodeError)
		assert.Equal(t, "/v1/responses", r.Path)
		if r.Chat.Model == "ada-large" && r.Chat.Messages[0].Content == "You are Ada, a terse tester." &&
			strings.Contains(r.LastUserMessage(), "Say hello") {
			sawCharacter = true
		}
	}
	assert.True(t, sawCharacter, "no request carried the character's model and system prompt with the step's input")
}

// TestProjectActionCallsMockedService runs examples/eliza (an ElizaOS
// project: character Skye, a GET_WEATHER action calling its weather
// service) with eliza:examples/eliza: the model picks the action, the
// action's service call is answered by the scenario's mocks (by
// specificity: Paris by its own mock, Oslo by the catch-all), the
// trajectory holds the action the runtime ran, and both steps pass.
func TestProjectActionCallsMockedService(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("The user asks about the weather.", "GET_WEATHER", "Let me look that up.")
	})
	jobs := elizaRun(t, srv, "eliza:../../examples/eliza", 1, nil, "../../examples/eliza/weather.scenario.yaml")
	require.Len(t, jobs, 1)
	j := jobs[0]
	assert.True(t, j.Passed, "%+v", j)
	require.Len(t, j.MockCalls, 2, "%+v", j.MockCalls)
	assert.Equal(t, "weather", j.MockCalls[0].Service)
	assert.Equal(t, "forecast", j.MockCalls[0].Method)
	assert.Equal(t, []any{map[string]any{"city": "Paris"}}, j.MockCalls[0].Args)
	assert.Equal(t, 0, j.MockCalls[0].Mock)
	assert.Equal(t, []any{map[string]any{"city": "Oslo"}}, j.MockCalls[1].Args)
	assert.Equal(t, 1, j.MockCalls[1].Mock)
	var system bool
	for _, r := range srv.Requests() {
		if strings.HasPrefix(r.Chat.Messages[0].Content, "You are Skye.") && r.Chat.Model == "gpt-4o-mini" {
			system = true
		}
	}
	assert.True(t, system, "the scenario's character reached the model")
}

// TestConversationWithScriptedUser: a conversation step's turns are
// messages to the same ElizaOS runtime and room (the second turn's prompt
// holds the first exchange), judged per turn and at the end.
func TestConversationWithScriptedUser(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Handle(func(llmtest.Request) llmtest.Reply {
		return elizaReply("Helping with billing.", "REPLY", "I can help with billing.")
	})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "billing.scenario.yaml"), []byte(`name: billing
description: two turns with the scripted user
environment: {type: local}
run:
  - input: Hi, I was charged twice this month.
    conversation:
      max_turns: 2
      user_simulator:
        persona: a polite customer
        objective: find out why they were charged twice
      turn_evaluations:
        - {type: string_contains, value: billing}
      final_evaluations:
        - {type: string_contains, value: "can help"}
    evaluations:
      - {type: string_contains, value: help}
judgment: {strategy: all_pass}
`), 0o644))
	jobs := elizaRun(t, srv, "eliza", 1, conversation.ScriptedUser(5), filepath.Join(dir, "billing.scenario.yaml"))
	require.Len(t, jobs, 1)
	j := jobs[0]
	assert.True(t, j.Passed, "%+v", j)
	var turns, finals int
	for _, e := range j.Evaluations {
		switch e.Scope {
		case "turn":
			turns++
		case "final":
			finals++
		}
	}
	assert.Equal(t, 2, turns, "a turn evaluation per agent reply: %+v", j.Evaluations)
	assert.Equal(t, 1, finals, "%+v", j.Evaluations)
	var second bool
	for _, r := range srv.Requests() {
		if strings.Contains(r.LastUserMessage(), "charged twice this month") && strings.Contains(r.LastUserMessage(), "I can help with billing") {
			second = true
		}
	}
	assert.True(t, second, "the second turn's prompt carries the first exchange (one room for the conversation)")
}
