package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/agenteval/agenteval/results"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A code step's stdout, stderr, exit code and duration are in the record.
func TestCodeStepOutputIsKept(t *testing.T) {
	t.Parallel()
	res := runOne(t, Config{Agent: echoAgent{}, AllowCommands: true},
		codeScenario(t, "echo started; echo oops >&2; exit 3", "20s"))
	require.Len(t, res.CodeSteps, 1)
	cs := res.CodeSteps[0]
	assert.Equal(t, 0, cs.Step)
	assert.Equal(t, 3, cs.ExitCode)
	assert.Equal(t, "started\n", cs.Stdout)
	assert.Equal(t, "oops\n", cs.Stderr)
	assert.Greater(t, cs.DurationMS, 0.0)
}

// A Go agent's panic keeps its stack, naming the function that panicked.
func TestAgentPanicKeepsItsStack(t *testing.T) {
	t.Parallel()
	agent := AgentFunc(func(context.Context, SessionConfig, string) (Reply, error) { panicsHere(); return Reply{}, nil })
	res := runOne(t, Config{Agent: agent, InfraRetries: -1}, loadScenario(t, "echo.scenario.yaml"))
	assert.False(t, res.Completed)
	assert.Contains(t, res.Error, "agent panicked: the map was nil")
	assert.Contains(t, res.Crash, "panic: the map was nil")
	assert.Contains(t, res.Crash, "panicsHere", "the stack names the function")
	assert.Contains(t, res.Why(), "incomplete (agent_crash): ")
}

func panicsHere() { panic("the map was nil") }

// Transcripts: all keeps a passing job's, failing keeps only a failing
// one's, none keeps none; the crash is kept whatever it says.
func TestTranscriptsSetting(t *testing.T) {
	t.Parallel()
	s := loadScenario(t, "echo.scenario.yaml")
	pass := runOne(t, Config{Agent: echoAgent{}}, s)
	require.True(t, pass.Passed, pass.Explain())
	assert.NotEmpty(t, pass.Transcript, "all is the default")
	assert.Empty(t, runOne(t, Config{Agent: echoAgent{}, Transcripts: "failing"}, s).Transcript)
	fail := runOne(t, Config{Agent: scriptedAgent("nothing useful"), Transcripts: "failing"}, s)
	require.False(t, fail.Passed)
	assert.NotEmpty(t, fail.Transcript)
	assert.Empty(t, runOne(t, Config{Agent: scriptedAgent("nothing useful"), Transcripts: "none"}, s).Transcript)
	_, err := newRun(Config{Agent: echoAgent{}, Transcripts: "some"})
	assert.ErrorContains(t, err, `Transcripts "some": want all, failing or none`)
}

// The transcript is bounded: long messages and tool results are cut, and a
// long conversation keeps its first and last messages.
func TestBoundTranscript(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxTurnText+10)
	acts := []results.Action{{Name: "read", Result: map[string]any{"data": strings.Repeat("y", maxActionResult)}}}
	ts := []results.Turn{{Role: "assistant", Text: big, Actions: acts}}
	out, cut := boundTranscript(ts)
	assert.True(t, cut)
	assert.Len(t, out[0].Text, maxTurnText+len("…"))
	assert.IsType(t, "", out[0].Actions[0].Result)
	assert.IsType(t, map[string]any{}, acts[0].Result, "the trace's actions are not changed")
	many := make([]results.Turn, maxTurns+50)
	for i := range many {
		many[i] = results.Turn{Role: "user", Text: "m"}
	}
	out, cut = boundTranscript(many)
	assert.True(t, cut)
	assert.Len(t, out, maxTurns+1)
	assert.Equal(t, "50 messages left out", out[maxTurns/2].Text)
}
