// Package usagecheck refuses the token usage (and reported cost) of an
// agent's reply that no model call spends: a negative or absurd count
// would show "-2000000 tokens", overflow the sums and lower the spend
// --budget counts. The runner checks every agent's replies here (exec, Go,
// OpenAI, coding-agent CLIs), so the session that reported it fails with
// the reason.
package usagecheck

import (
	"errors"
	"fmt"

	"github.com/agenteval/agenteval/llm"
)

// maxTokens bounds each count of one reply's usage: no model call spends a
// billion tokens.
const maxTokens = 1_000_000_000

// maxUSD bounds the cost one reply reports: no reply costs a million
// dollars.
const maxUSD = 1_000_000

// ErrImpossible is wrapped by Check's error.
var ErrImpossible = errors.New("agent protocol error: impossible token usage")

// Check returns an error wrapping ErrImpossible, naming the field, when a
// count of u is negative or over a billion, or its cost is negative, not a
// number or over a million dollars.
func Check(u llm.Usage) error {
	for _, c := range []struct {
		name string
		n    int
	}{{"prompt_tokens", u.PromptTokens}, {"completion_tokens", u.CompletionTokens}, {"total_tokens", u.TotalTokens},
		{"reasoning_tokens", u.ReasoningTokens}, {"cache_read_tokens", u.CacheReadTokens}, {"cache_write_tokens", u.CacheWriteTokens}} {
		if c.n < 0 || c.n > maxTokens {
			return fmt.Errorf("%w: %s is %d (want 0 to %d)", ErrImpossible, c.name, c.n, maxTokens)
		}
	}
	if !(u.CostUSD >= 0 && u.CostUSD <= maxUSD) { // NaN too
		return fmt.Errorf("%w: cost_usd is %v (want 0 to %d)", ErrImpossible, u.CostUSD, maxUSD)
	}
	return nil
}
