package plan

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agenteval/agenteval/llm"
)

func TestPricesLookup(t *testing.T) {
	t.Parallel()
	p := DefaultPrices()
	for _, tc := range []struct{ model, want string }{
		{"gpt-4o-mini", "gpt-4o-mini"},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini"},
		{"gpt-4o-2024-08-06", "gpt-4o"},
		{"openai/GPT-4o", "gpt-4o"},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
	} {
		pr, ok := p.Lookup(tc.model)
		require.True(t, ok, tc.model)
		assert.Equal(t, p[tc.want], pr, tc.model)
		assert.NotEmpty(t, pr.AsOf, "every built-in price says when it was taken")
	}
	for _, unknown := range []string{"", "gpt", "gpt-4oo", "my-model", "script"} {
		_, ok := p.Lookup(unknown)
		assert.False(t, ok, unknown)
	}
	pr, _ := p.Lookup("gpt-4o-mini")
	assert.InDelta(t, (1000*0.15+500*0.60)/1e6, pr.Cost(llm.Usage{PromptTokens: 1000, CompletionTokens: 500, TotalTokens: 1500}), 1e-15)
}

func TestParsePrices(t *testing.T) {
	t.Parallel()
	p, err := ParsePrices("prices.yaml", []byte("as_of: \"2026-11-01\"\nmodels:\n  gpt-4o-mini: {input_per_mtok: 0.1, output_per_mtok: 0.4}\n  house: {input_per_mtok: 1, output_per_mtok: 2, as_of: \"2026-10-01\"}\n"))
	require.NoError(t, err)
	assert.Equal(t, Price{Input: 0.1, Output: 0.4, AsOf: "2026-11-01", Source: "prices.yaml"}, p["gpt-4o-mini"])
	assert.Equal(t, "2026-10-01", p["house"].AsOf)
	merged := DefaultPrices().With(p)
	assert.InDelta(t, 0.1, merged["gpt-4o-mini"].Input, 0)
	assert.InDelta(t, 2.5, merged["gpt-4o"].Input, 0, "the file overrides only the models it names")

	for _, tc := range []struct{ in, want string }{
		{"models: {}", "no models"},
		{"", "prices.yaml is empty"},
		{"models:\n  m: {input_per_mtok: 1}", "prices.yaml:2:6: models.m: give both input_per_mtok and output_per_mtok"},
		{"models:\n  m: {input_per_mtok: -1, output_per_mtok: 1}", `prices.yaml:2:23: models.m.input_per_mtok: want a price of zero or more US dollars per million tokens, got "-1"`},
		{"models:\n  m: {input_per_mtok: cheap, output_per_mtok: 1}", `models.m.input_per_mtok: want a price of zero or more US dollars per million tokens, got "cheap"`},
		{"models:\n  m: {input: 1, output: 1}", `prices.yaml:2:7: models.m.input: unknown field (did you mean "input_per_mtok"?)`},
		{"currency: EUR\nmodels:\n  m: {input_per_mtok: 1, output_per_mtok: 1}", "prices.yaml:1:1: currency: unknown field; want as_of, models"},
		{"modles:\n  m: {input_per_mtok: 1, output_per_mtok: 1}", `modles: unknown field (did you mean "models"?)`},
		{"models:\n  m: {input_per_mtok: 1, output_per_mtok: 1}\n  m: {input_per_mtok: 2, output_per_mtok: 2}", "prices.yaml:3:3: models.m: the model is given twice"},
		{"models:\n  m: {input_per_mtok: 1, input_per_mtok: 2, output_per_mtok: 1}", "models.m.input_per_mtok: given twice"},
		{"models:\n  m: 5", "prices.yaml:2:6: models.m: want {input_per_mtok: N, output_per_mtok: N}"},
		{"[1, 2]", "prices.yaml:1:1: (file): want a mapping"},
		{"models: [a]", "models: want a mapping of model names to prices"},
		{"{", "prices.yaml: yaml:"},
	} {
		_, err := ParsePrices("prices.yaml", []byte(tc.in))
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.want, tc.in)
	}
}

// FuzzParsePrices: a prices file never panics the parser, and every price
// it accepts is a finite amount of zero or more that prices usage finitely.
func FuzzParsePrices(f *testing.F) {
	f.Add([]byte("as_of: \"2026-11-01\"\nmodels:\n  gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.6}\n"))
	f.Add([]byte(`{"models":{"m":{"input_per_mtok":1,"output_per_mtok":2,"as_of":"x"}}}`))
	f.Add([]byte("models:\n  m: {input_per_mtok: .inf, output_per_mtok: 1}\n"))
	f.Add([]byte("models:\n  '': {input_per_mtok: 1, output_per_mtok: 1}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePrices("f", data)
		if err != nil {
			return
		}
		for m, pr := range p {
			assert.NotEmpty(t, m)
			c := pr.Cost(llm.Usage{PromptTokens: 1_000_000, CompletionTokens: 1_000_000})
			assert.False(t, math.IsNaN(c) || math.IsInf(c, 0) || c < 0, "%s: %v", m, c)
		}
	})
}
