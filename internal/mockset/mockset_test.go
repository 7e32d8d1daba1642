package mockset

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/scenario"
)

func f64(v float64) *float64 { return &v }

func TestMocksMatching(t *testing.T) {
	t.Parallel()
	mocks := []scenario.Mock{
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Input: map[string]any{"repo": "acme/demo", "filter": map[string]any{"state": "open"}}}, Response: "deep partial"},
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Args: []any{"x", 1.0}}, Response: "exact args"},
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{PartialArgs: []any{"pre"}}, Response: "partial args"},
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Matcher: "${input.n} > 10"}, Response: "matcher"},
		{Service: "github", Method: "getIssue", When: &scenario.MockWhen{Context: map[string]any{"argsCount": 3}}, Response: "context"},
		{Service: "github", Method: "getIssue", ResponseFn: `{"echo": "${input.title}", "first": "${args[0].title}"}`},
		{Service: "github", Method: "fail", Error: &scenario.MockError{Code: "E_RATE", Message: "slow down", Status: 429}},
		{Service: "github", Method: "greet", ResponseFn: "hello ${input.name}"},
	}
	tests := []struct {
		name   string
		method string
		args   []any
		want   any
		err    string
	}{
		{"deep partial input", "getIssue", []any{map[string]any{"repo": "acme/demo", "filter": map[string]any{"state": "open", "page": 2}}}, "deep partial", ""},
		{"exact args (numbers by value)", "getIssue", []any{"x", 1}, "exact args", ""},
		{"partial args", "getIssue", []any{"pre", "more"}, "partial args", ""},
		{"matcher", "getIssue", []any{map[string]any{"n": 11}}, "matcher", ""},
		{"context", "getIssue", []any{"a", "b", "c"}, "context", ""},
		{"responseFn JSON template", "getIssue", []any{map[string]any{"title": "Bug"}}, map[string]any{"echo": "Bug", "first": "Bug"}, ""},
		{"error mock", "fail", nil, nil, "E_RATE: slow down"},
		{"text template", "greet", []any{map[string]any{"name": "Ada"}}, "hello Ada", ""},
		{"unmatched", "nothing", nil, nil, "no mock matches"},
	}
	m := New(mocks, 1, nil)
	for _, tc := range tests {
		got, err := m.Call(context.Background(), "github", tc.method, tc.args...)
		if tc.err != "" {
			require.Error(t, err, tc.name)
			assert.Contains(t, err.Error(), tc.err, tc.name)
			continue
		}
		require.NoError(t, err, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
	var me *scenario.MockError
	_, err := m.Call(context.Background(), "github", "fail")
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 429, me.Status)
	assert.Len(t, m.Unmatched(), 1)
	assert.Len(t, m.Calls(), len(tests)+1)
}

func TestMockProbabilityIsSeeded(t *testing.T) {
	t.Parallel()
	mocks := []scenario.Mock{
		{Service: "s", Method: "m", Response: "mocked", Metadata: &scenario.MockMetadata{Probability: f64(0.5)}},
		{Service: "s", Method: "m", Response: "fallback"},
	}
	draw := func(seed int64) []any {
		m := New(mocks, seed, nil)
		var out []any
		for range 64 {
			v, err := m.Call(context.Background(), "s", "m")
			require.NoError(t, err)
			out = append(out, v)
		}
		return out
	}
	a, b := draw(7), draw(7)
	assert.Equal(t, a, b, "the same seed gives the same draws")
	mocked := 0
	for _, v := range a {
		if v == "mocked" {
			mocked++
		}
	}
	assert.InDelta(t, 32, mocked, 16, "probability 0.5 applies about half the time")
	never := New([]scenario.Mock{{Service: "s", Method: "m", Metadata: &scenario.MockMetadata{Probability: f64(0)}}}, 1, nil)
	_, err := never.Call(context.Background(), "s", "m")
	assert.ErrorIs(t, err, ErrNoMock, "probability 0 never applies")
}

func TestMockDelayIsCancellable(t *testing.T) {
	t.Parallel()
	m := New([]scenario.Mock{{Service: "s", Method: "slow", Response: 1, Metadata: &scenario.MockMetadata{Delay: 60_000}}}, 1, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := m.Call(ctx, "s", "slow")
	assert.True(t, errors.Is(err, context.DeadlineExceeded))
	assert.Less(t, time.Since(start), 5*time.Second)
}

// FuzzMockTemplates feeds arbitrary matcher and responseFn templates to the
// mock engine: it never panics, whatever the template or the call.
func FuzzMockTemplates(f *testing.F) {
	for _, s := range []string{"${input.owner} == 'acme'", "${args[0].x} > 10", "{\"a\": \"${input.a}\"}", "${", "${args[999999999999]}", "${context.argsCount}", "[${input}]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tmpl string) {
		m := New([]scenario.Mock{
			{Service: "s", Method: "m", When: &scenario.MockWhen{Matcher: tmpl}, ResponseFn: tmpl},
			{Service: "s", Method: "m", ResponseFn: tmpl},
		}, 1, nil)
		_, _ = m.Call(context.Background(), "s", "m", map[string]any{"owner": "acme", "a": []any{1, "x"}}, "two", 3)
	})
}
