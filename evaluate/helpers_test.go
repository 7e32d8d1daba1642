package evaluate_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

// evalCase is one row of a per-type table. A row with buildErr is a
// malformed case: building must fail with that text. A row with evalErr
// must judge nothing and report that error. Otherwise the Result must have
// Passed == pass, contain msg in its Message, and have Score == score when
// score is not -1.
type evalCase struct {
	name     string
	params   any
	in       evaluate.Input
	pass     bool
	score    float64
	msg      string
	buildErr string
	evalErr  string
}

// runCases runs a table for the evaluation type typ.
func runCases(t *testing.T, typ string, cases []evalCase) {
	t.Helper()
	reg := evaluate.NewRegistry()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev, err := evaluate.Build(reg, scenario.Evaluation{Type: typ, Description: "d", Params: tc.params})
			if tc.buildErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.buildErr)
				return
			}
			require.NoError(t, err)
			r, err := ev.Evaluate(context.Background(), tc.in)
			assert.Equal(t, typ, r.Type)
			assert.Equal(t, "d", r.Description)
			assert.Equal(t, 1.0, r.Weight)
			if tc.evalErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.evalErr)
				assert.False(t, r.Passed)
				assert.Equal(t, err.Error(), r.Error)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.pass, r.Passed, "message: %s", r.Message)
			assert.Contains(t, r.Message, tc.msg)
			assert.GreaterOrEqual(t, r.Score, 0.0)
			assert.LessOrEqual(t, r.Score, 1.0)
			if tc.score != -1 {
				assert.InDelta(t, tc.score, r.Score, 1e-9, "message: %s", r.Message)
			}
		})
	}
}

var t0 = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// stepIn returns an Input for results.ScopeStep on a trace of one step.
func stepIn(st evaluate.StepTrace) evaluate.Input {
	st.Started = t0
	return evaluate.Input{Trace: &evaluate.Trace{ScenarioID: "s", Steps: []evaluate.StepTrace{st}}, Turn: -1, Scope: results.ScopeStep, Env: &evaluate.Env{}}
}

// reply is an input step whose agent replied text.
func reply(text string, actions ...results.Action) evaluate.Input {
	return stepIn(evaluate.StepTrace{Kind: "input", Input: "hi", Reply: text, Actions: actions})
}

// convo returns a conversation step from alternating user and assistant
// texts, starting with the user.
func convo(texts ...string) evaluate.StepTrace {
	st := evaluate.StepTrace{Kind: "conversation", Input: texts[0]}
	for i, s := range texts {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
			st.Reply = s
		}
		st.Turns = append(st.Turns, results.Turn{Role: role, Text: s, At: t0.Add(time.Duration(i) * time.Second), Duration: time.Second})
	}
	return st
}

// final is an Input for results.ScopeFinal on a conversation.
func final(texts ...string) evaluate.Input {
	in := stepIn(convo(texts...))
	in.Scope = results.ScopeFinal
	return in
}

// turn is an Input for results.ScopeTurn on turn i of a conversation.
func turn(i int, texts ...string) evaluate.Input {
	in := stepIn(convo(texts...))
	in.Scope, in.Turn = results.ScopeTurn, i
	return in
}

func ptr[T any](v T) *T { return &v }
