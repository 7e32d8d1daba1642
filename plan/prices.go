package plan

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agenteval/agenteval/internal/textdist"
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

// ParsePrices reads a prices file (YAML or JSON):
//
//	as_of: "2026-11-01"            # when the prices were taken
//	models:
//	  gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.60}
//	  my-model:    {input_per_mtok: 1, output_per_mtok: 2, as_of: "2026-10-01"}
//
// Prices are US dollars per million tokens. Unknown fields (with the
// nearest known name), duplicate keys, a negative, missing or non-numeric
// price and a model without a name are errors, each at name:LINE:COL with
// its field path. name labels the file in errors and becomes each price's
// Source.
func ParsePrices(name string, data []byte) (Prices, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fail := func(n *yaml.Node, path, format string, a ...any) error {
		return fmt.Errorf("%s:%d:%d: %s: %s", name, n.Line, n.Column, path, fmt.Sprintf(format, a...))
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s is empty: want as_of and models: {NAME: {input_per_mtok: N, output_per_mtok: N}}", name)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "(file)", "want a mapping with as_of and models")
	}
	var asOf string
	var models *yaml.Node
	err := eachKey(root, "", []string{"as_of", "models"}, fail, func(key string, v *yaml.Node) error {
		switch key {
		case "as_of":
			return v.Decode(&asOf)
		default:
			if v.Kind != yaml.MappingNode {
				return fail(v, "models", "want a mapping of model names to prices")
			}
			models = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if models == nil || len(models.Content) == 0 {
		return nil, fmt.Errorf("%s: no models: want models: {NAME: {input_per_mtok: N, output_per_mtok: N}}", name)
	}
	out := Prices{}
	var errs []error
	seen := map[string]bool{}
	for i := 0; i+1 < len(models.Content); i += 2 {
		k, v := models.Content[i], models.Content[i+1]
		m := k.Value
		path := "models." + m
		switch {
		case strings.TrimSpace(m) == "":
			errs = append(errs, fail(k, "models", "a model without a name"))
			continue
		case seen[m]:
			errs = append(errs, fail(k, path, "the model is given twice"))
			continue
		case v.Kind != yaml.MappingNode:
			errs = append(errs, fail(v, path, "want {input_per_mtok: N, output_per_mtok: N}"))
			continue
		}
		seen[m] = true
		var in, outp *float64
		pr := Price{AsOf: asOf, Source: name}
		err := eachKey(v, path+".", []string{"input_per_mtok", "output_per_mtok", "as_of", "source"}, fail, func(key string, n *yaml.Node) error {
			switch key {
			case "as_of":
				return n.Decode(&pr.AsOf)
			case "source":
				return n.Decode(&pr.Source)
			}
			var f float64
			if n.Kind != yaml.ScalarNode || n.Decode(&f) != nil || !finiteNonNegative(f) {
				return fail(n, path+"."+key, "want a price of zero or more US dollars per million tokens, got %q", n.Value)
			}
			if key == "input_per_mtok" {
				in = &f
			} else {
				outp = &f
			}
			return nil
		})
		switch {
		case err != nil:
			errs = append(errs, err)
			continue
		case in == nil || outp == nil:
			errs = append(errs, fail(v, path, "give both input_per_mtok and output_per_mtok (US dollars per million tokens)"))
			continue
		}
		pr.Input, pr.Output = *in, *outp
		out[m] = pr
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// eachKey calls f for each key of mapping n, refusing a key not in known
// (with the nearest known one) or given twice.
func eachKey(n *yaml.Node, prefix string, known []string, fail func(*yaml.Node, string, string, ...any) error, f func(string, *yaml.Node) error) error {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			hint := ""
			if s := textdist.Suggest(k.Value, known); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", s)
			}
			return fail(k, prefix+k.Value, "unknown field%s; want %s", hint, strings.Join(known, ", "))
		case seen[k.Value]:
			return fail(k, prefix+k.Value, "given twice")
		}
		seen[k.Value] = true
		if err := f(k.Value, v); err != nil {
			return err
		}
	}
	return nil
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
