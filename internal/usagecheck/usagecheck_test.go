package usagecheck

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		usage llm.Usage
		want  string // "" when valid
	}{
		{"zero", llm.Usage{}, ""},
		{"counts and a cost", llm.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12, CostUSD: 0.5}, ""},
		{"negative prompt", llm.Usage{PromptTokens: -2000000}, "prompt_tokens is -2000000"},
		{"a billion and one cache reads", llm.Usage{CacheReadTokens: 1_000_000_001}, "cache_read_tokens is 1000000001"},
		{"negative cost", llm.Usage{CostUSD: -1}, "cost_usd is -1"},
		{"NaN cost", llm.Usage{CostUSD: math.NaN()}, "cost_usd is NaN"},
		{"two million dollars", llm.Usage{CostUSD: 2e6}, "cost_usd is 2e+06"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(tc.usage)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrImpossible)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
