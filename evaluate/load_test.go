package evaluate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval"
	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/judge"
	"github.com/agenteval/agenteval/llm/llmtest"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// TestAllBuiltinsFromAFile loads every built-in type from YAML, with the
// loader's own decoding (numbers in args arrive as float64), compiles the
// scenario and runs it against a trace where everything passes.
func TestAllBuiltinsFromAFile(t *testing.T) {
	t.Parallel()
	kit := agenteval.New()
	reg := kit.Evaluations
	f, err := kit.Loader(scenario.Options{Strict: true}).LoadFile("testdata/all.scenario.yaml")
	require.NoError(t, err)
	c, err := evaluate.Compile(reg, f.Scenario)
	require.NoError(t, err)
	assert.Equal(t, evaluate.Needs{Dir: true, Commands: true, Judge: true}, c.Needs())

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "out"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "out", "report.md"), []byte("3 issues triaged\n"), 0o644))
	srv := llmtest.NewServer(t)
	srv.Enqueue(verdict(true, 0.9, "listed", map[string]any{"capability": "Accuracy", "achieved": true, "reasoning": "ok"}))
	j, err := judge.New(judge.Config{Model: srv.Model()})
	require.NoError(t, err)
	env := &evaluate.Env{AllowCommands: true, Judge: j}

	first := typicalStep()
	second := convo(
		"My build is broken, I use Go 1.26.",
		"Sorry about that. Which build command fails?",
		"go build ./...",
		"Update go.mod to Go 1.26 and run the build again.",
		"lgtm, thanks!",
		"Glad it works.",
	)
	second.Index = 1
	second.Duration = time.Second
	trace := &evaluate.Trace{ScenarioID: "all", Dir: dir, Steps: []evaluate.StepTrace{first, second}}
	ctx := context.Background()

	var got []results.Evaluation
	got = append(got, c.Evaluate(ctx, evaluate.Input{Trace: trace, Step: 0, Turn: -1, Scope: results.ScopeStep, Env: env})...)
	for i, tn := range second.Turns {
		if tn.Role == "assistant" && i != 5 {
			got = append(got, c.Evaluate(ctx, evaluate.Input{Trace: trace, Step: 1, Turn: i, Scope: results.ScopeTurn, Env: env})...)
		}
	}
	got = append(got, c.Evaluate(ctx, evaluate.Input{Trace: trace, Step: 1, Turn: -1, Scope: results.ScopeFinal, Env: env})...)
	require.Len(t, got, 9+2+4)
	for _, r := range got {
		assert.True(t, r.Passed, "%s (%s step %d turn %d): %s %s", r.Type, r.Scope, r.Step, r.Turn, r.Message, r.Error)
		assert.Empty(t, r.Error)
	}
	assert.Equal(t, 0.5, got[5].Weight)
	assert.True(t, got[8].Critical)
}
