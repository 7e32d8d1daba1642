package runner

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStrictMocksFailUnmatchedCalls(t *testing.T) {
	t.Parallel()
	f, err := testLoad("strict.scenario.yaml", []byte(`name: strict
description: d
environment: {type: local}
setup:
  mocks:
    - {service: github, method: listIssues, response: [{"title": "a"}]}
run:
  - input: list issues
    evaluations: [{type: string_contains, value: list}]
judgment: {strategy: all_pass}
`))
	require.NoError(t, err)
	agent := AgentFunc(func(ctx context.Context, cfg SessionConfig, msg string) (Reply, error) {
		v, err := cfg.Mocks.Call(ctx, "github", "listIssues")
		if err != nil {
			return Reply{}, err
		}
		_, _ = cfg.Mocks.Call(ctx, "github", "closeIssue", 7)
		return Reply{Text: msg + " " + v.([]any)[0].(map[string]any)["title"].(string)}, nil
	})
	loose := runOne(t, Config{Agent: agent}, f.Scenario)
	assert.True(t, loose.Passed, loose.Explain())
	require.Len(t, loose.MockCalls, 2)
	assert.Equal(t, -1, loose.MockCalls[1].Mock)
	strict := runOne(t, Config{Agent: agent, StrictMocks: true}, f.Scenario)
	assert.False(t, strict.Passed)
	assert.Contains(t, strict.Reason, "github.closeIssue")
}
