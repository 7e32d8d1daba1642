package evaluate_test

import (
	"context"
	"maps"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/evaluate"
	"github.com/agenteval/agenteval/internal/evalparams"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/scenario"
)

func TestStringContains(t *testing.T) {
	t.Parallel()
	code := stepIn(evaluate.StepTrace{Kind: "code", Stdout: "ok: 3 tests passed\n", Reply: "ignored"})
	runCases(t, "string_contains", []evalCase{
		{name: "reply, case-insensitive by default", params: &evalparams.StringContains{Value: "ISSUES"}, in: reply("Found 3 open issues."), pass: true, score: 1, msg: `reply contains "ISSUES" (case-insensitive)`},
		{name: "case-sensitive passes", params: &evalparams.StringContains{Value: "issues", CaseSensitive: true}, in: reply("Found 3 open issues."), pass: true, score: 1},
		{name: "case-sensitive fails on case", params: &evalparams.StringContains{Value: "Issues", CaseSensitive: true}, in: reply("Found 3 open issues."), score: 0,
			msg: `reply does not contain "Issues" (case-sensitive); reply starts "Found 3 open issues."`},
		{name: "missing, with excerpt", params: &evalparams.StringContains{Value: "issues"}, in: reply("Sorry, I cannot reach GitHub right now because the token has expired and must be renewed."), score: 0,
			msg: `reply does not contain "issues" (case-insensitive); reply starts "Sorry, I cannot reach GitHub right now because the token has…"`},
		{name: "empty reply", params: &evalparams.StringContains{Value: "x"}, in: reply(""), score: 0, msg: "reply is empty"},
		{name: "unicode folding", params: &evalparams.StringContains{Value: "STRASSE ÜBER"}, in: reply("die strasse über den Fluss"), pass: true, score: 1},
		{name: "code step reads stdout", params: &evalparams.StringContains{Value: "3 tests passed"}, in: code, pass: true, score: 1, msg: "stdout contains"},
		{name: "code step ignores reply", params: &evalparams.StringContains{Value: "ignored"}, in: code, msg: `stdout does not contain "ignored"`, score: 0},
		{name: "conversation step reads the transcript", params: &evalparams.StringContains{Value: "user: my repo"}, in: stepIn(convo("my repo is x", "ok")), pass: true, msg: "transcript contains", score: 1},
		{name: "final reads the transcript", params: &evalparams.StringContains{Value: "assistant: done"}, in: final("go", "done"), pass: true, score: 1},
		{name: "turn reads only that reply", params: &evalparams.StringContains{Value: "first"}, in: turn(3, "a", "first", "b", "second"), msg: `reply does not contain "first"`, score: 0},
		{name: "turn passes on its reply", params: &evalparams.StringContains{Value: "second"}, in: turn(3, "a", "first", "b", "second"), pass: true, score: 1},
		{name: "malformed: empty value", params: &evalparams.StringContains{}, buildErr: "value is empty"},
		{name: "malformed: wrong params type", params: &evalparams.RegexMatch{Pattern: "x"}, buildErr: "want *evalparams.StringContains"},
		{name: "malformed input: step out of range", params: &evalparams.StringContains{Value: "x"}, in: evaluate.Input{Trace: &evaluate.Trace{}, Step: 2, Scope: results.ScopeStep}, evalErr: "step 2 is not in a trace of 0 steps"},
		{name: "malformed input: turn out of range", params: &evalparams.StringContains{Value: "x"}, in: turn(7, "a", "b"), evalErr: "turn 7 is not in a conversation of 2 turns"},
		{name: "malformed input: turn is the user's", params: &evalparams.StringContains{Value: "x"}, in: turn(0, "a", "b"), evalErr: "turn 0 is a user turn"},
		{name: "malformed input: unknown scope", params: &evalparams.StringContains{Value: "x"}, in: evaluate.Input{Trace: reply("x").Trace, Scope: "later"}, evalErr: `unknown scope "later"`},
		{name: "malformed input: no trace", params: &evalparams.StringContains{Value: "x"}, in: evaluate.Input{Scope: results.ScopeStep}, evalErr: "no trace"},
	})
}

func TestRegexMatch(t *testing.T) {
	t.Parallel()
	runCases(t, "regex_match", []evalCase{
		{name: "match, case-insensitive by default", params: &evalparams.RegexMatch{Pattern: `issue #\d+`}, in: reply("See ISSUE #42 for details"), pass: true, score: 1, msg: `at "ISSUE #42"`},
		{name: "case-sensitive mismatch", params: &evalparams.RegexMatch{Pattern: `issue #\d+`, CaseSensitive: true}, in: reply("See ISSUE #42"), score: 0,
			msg: `reply does not match /issue #\d+/ (case-sensitive); reply starts "See ISSUE #42"`},
		{name: "no match", params: &evalparams.RegexMatch{Pattern: `^\d+$`}, in: reply("forty-two"), score: 0, msg: "does not match"},
		{name: "anchors apply to the whole, trimmed stdout", params: &evalparams.RegexMatch{Pattern: `^ok$`}, in: stepIn(evaluate.StepTrace{Kind: "code", Stdout: "ok\n"}), pass: true, score: 1, msg: "stdout matches"},
		{name: "transcript", params: &evalparams.RegexMatch{Pattern: `assistant: .*sorry`}, in: final("help", "I am sorry to hear that"), pass: true, score: 1},
		{name: "malformed: look-ahead", params: &evalparams.RegexMatch{Pattern: `foo(?=bar)`}, buildErr: "does not compile (RE2 syntax"},
		{name: "malformed: unbalanced", params: &evalparams.RegexMatch{Pattern: `(abc`}, buildErr: "missing closing )"},
		{name: "malformed: empty", params: &evalparams.RegexMatch{}, buildErr: "pattern is empty"},
	})
}

// TestTextChecksOwnTheirDetails: every result of string_contains and
// regex_match carries details of its own; a host that changes one result's
// details changes no other result.
func TestTextChecksOwnTheirDetails(t *testing.T) {
	t.Parallel()
	for _, ev := range []scenario.Evaluation{
		{Type: "string_contains", Params: &evalparams.StringContains{Value: "topic-"}},
		{Type: "regex_match", Params: &evalparams.RegexMatch{Pattern: "topic-[0-9]"}},
	} {
		t.Run(ev.Type, func(t *testing.T) {
			t.Parallel()
			e, err := evaluate.Build(evaluate.NewRegistry(), ev)
			require.NoError(t, err)
			for _, text := range []string{"Question 1: what is topic-1?", "nothing"} {
				first, err := e.Evaluate(context.Background(), reply(text))
				require.NoError(t, err)
				want := maps.Clone(first.Details)
				first.Details["host"] = "edited"
				second, err := e.Evaluate(context.Background(), reply(text))
				require.NoError(t, err)
				assert.Equal(t, want, second.Details)
			}
		})
	}
}
