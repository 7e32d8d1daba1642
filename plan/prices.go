package plan

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/agenteval/agenteval/llm"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	// Input is the price of a million prompt tokens; Output of a million
	// completion tokens.
	Input  float64 `json:"input_per_mtok"`
	Output float64 `json:"output_per_mtok"`
	// AsOf is the date the price was taken (YYYY-MM-DD), and Source where.
	AsOf   string `json:"as_of,omitempty"`
	Source string `json:"source,omitempty"`
}

// Cost is the price of usage u.
func (p Price) Cost(u llm.Usage) float64 {
	in, out := float64(u.PromptTokens), float64(u.CompletionTokens)
	if in == 0 && out == 0 && u.TotalTokens > 0 {
		in = float64(u.TotalTokens) // usage without the split: priced as input, the cheaper side
	}
	return (in*p.Input + out*p.Output) / 1e6
}

// Prices is a price table by model name.
type Prices map[string]Price

// Built-in price dates: when the prices below were read off the providers'
// public pricing pages (list prices, standard tier, no batch or cache
// discount). They go stale: override them with a prices file.
const (
	openAIPricesAsOf    = "2026-03-21"
	anthropicPricesAsOf = "2025-10-15"
	googlePricesAsOf    = "2025-10-15"
)

// DefaultPrices returns the built-in price table of common models, each
// with the date its price was taken.
func DefaultPrices() Prices {
	p := Prices{}
	add := func(asOf, source string, table map[string][2]float64) {
		for m, io := range table {
			p[m] = Price{Input: io[0], Output: io[1], AsOf: asOf, Source: source}
		}
	}
	add(openAIPricesAsOf, "openai.com/api/pricing", map[string][2]float64{
		"gpt-4o": {2.50, 10.00}, "gpt-4o-mini": {0.15, 0.60},
		"gpt-4.1": {2.00, 8.00}, "gpt-4.1-mini": {0.40, 1.60}, "gpt-4.1-nano": {0.10, 0.40},
		"gpt-5": {1.25, 10.00}, "gpt-5-mini": {0.25, 2.00}, "gpt-5-nano": {0.05, 0.40}, "gpt-5.1": {1.25, 10.00},
		"o3": {2.00, 8.00}, "o3-mini": {1.10, 4.40}, "o4-mini": {1.10, 4.40},
	})
	add(anthropicPricesAsOf, "anthropic.com/pricing", map[string][2]float64{
		"claude-opus-4-1": {15, 75}, "claude-opus-4": {15, 75}, "claude-sonnet-4-5": {3, 15}, "claude-sonnet-4": {3, 15},
		"claude-3-7-sonnet": {3, 15}, "claude-haiku-4-5": {1, 5}, "claude-3-5-haiku": {0.80, 4},
	})
	add(googlePricesAsOf, "ai.google.dev/pricing", map[string][2]float64{
		"gemini-2.5-pro": {1.25, 10}, "gemini-2.5-flash": {0.30, 2.50}, "gemini-2.5-flash-lite": {0.10, 0.40},
		"gemini-2.0-flash": {0.10, 0.40},
	})
	return p
}

// Lookup finds model's price: by its exact name, then without a provider
// prefix ("openai/gpt-4o"), then by the longest known name it extends with
// a dash (a dated snapshot such as "gpt-4o-mini-2024-07-18"), ignoring case.
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	best, found := "", false
	for name := range p {
		n := strings.ToLower(name)
		if (m == n || strings.HasPrefix(m, n+"-")) && len(n) >= len(best) {
			if len(n) > len(best) || name < best { // deterministic between names differing only in case
				best, found = name, true
			}
		}
	}
	if !found {
		return Price{}, false
	}
	return p[best], true
}

// pricesFile is the prices file: a date and the models' prices.
type pricesFile struct {
	AsOf   string                `json:"as_of"`
	Models map[string]priceEntry `json:"models"`
}

type priceEntry struct {
	Input  *float64 `json:"input_per_mtok"`
	Output *float64 `json:"output_per_mtok"`
	AsOf   string   `json:"as_of"`
	Source string   `json:"source"`
}

// ParsePrices reads a prices file (YAML or JSON):
//
//	as_of: "2026-11-01"            # when the prices were taken
//	models:
//	  gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.60}
//	  my-model:    {input_per_mtok: 1, output_per_mtok: 2, as_of: "2026-10-01"}
//
// Prices are US dollars per million tokens. Unknown fields, a negative or
// missing price and a model without a name are errors. name labels the
// file in errors and becomes each price's Source.
func ParsePrices(name string, data []byte) (Prices, error) {
	var f pricesFile
	if err := yaml.UnmarshalStrict(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w (want as_of and models: {NAME: {input_per_mtok, output_per_mtok}})", name, err)
	}
	if len(f.Models) == 0 {
		return nil, fmt.Errorf("%s: no models: want models: {NAME: {input_per_mtok: N, output_per_mtok: N}}", name)
	}
	out := Prices{}
	var errs []error
	for _, m := range slices.Sorted(maps.Keys(f.Models)) {
		e := f.Models[m]
		switch {
		case strings.TrimSpace(m) == "":
			errs = append(errs, fmt.Errorf("%s: models: a model without a name", name))
			continue
		case e.Input == nil || e.Output == nil:
			errs = append(errs, fmt.Errorf("%s: models.%s: give both input_per_mtok and output_per_mtok (US dollars per million tokens)", name, m))
			continue
		case !finiteNonNegative(*e.Input) || !finiteNonNegative(*e.Output):
			errs = append(errs, fmt.Errorf("%s: models.%s: prices must be zero or more US dollars per million tokens (input_per_mtok %v, output_per_mtok %v)", name, m, *e.Input, *e.Output))
			continue
		}
		pr := Price{Input: *e.Input, Output: *e.Output, AsOf: e.AsOf, Source: e.Source}
		if pr.AsOf == "" {
			pr.AsOf = f.AsOf
		}
		if pr.Source == "" {
			pr.Source = name
		}
		out[m] = pr
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

func finiteNonNegative(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }

// With returns p with over's prices in place of its own for the models
// over names.
func (p Prices) With(over Prices) Prices {
	out := maps.Clone(p)
	if out == nil {
		out = Prices{}
	}
	maps.Copy(out, over)
	return out
}
