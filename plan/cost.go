package plan

import (
	"math"
	"slices"

	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// JobCost prices j's model calls by role: the agent's usage at agent's
// price, the simulated user's at user's and the judge's at judge's (model
// names, looked up as Lookup does; "" for a role whose model is not known).
// A role whose usage carries the cost its caller reported (llm.Usage's
// CostUSD: a coding-agent CLI's own figure, at the provider's prices and
// discounts) costs that, over the table's price or its lack. A role that
// spent no tokens costs 0 whatever its model; one that spent tokens with a
// model that has no price costs unknown (nil), and so does the total. Amounts are rounded to a billionth of a dollar, so that sums
// print without floating-point noise.
func (p Prices) JobCost(j *results.Job, agent, user, judge string) *results.Cost {
	c := &results.Cost{}
	total, known := 0.0, true
	for _, r := range []struct {
		role, model string
		usage       llm.Usage
		out         **float64
	}{{"agent", agent, j.Usage, &c.Agent}, {"user", user, j.UserUsage, &c.User}, {"judge", judge, j.JudgeUsage, &c.Judge}} {
		if r.usage == (llm.Usage{}) {
			zero := 0.0
			*r.out = &zero
			continue
		}
		if r.usage.CostUSD > 0 {
			v := roundNano(r.usage.CostUSD)
			*r.out = &v
			total += v
			continue
		}
		pr, ok := p.Lookup(r.model)
		if !ok || r.model == "" {
			name := r.model
			if name == "" {
				name = "?"
			}
			c.Unpriced = append(c.Unpriced, r.role+": "+name)
			known = false
			continue
		}
		v := roundNano(pr.Cost(r.usage))
		*r.out = &v
		total += v
		if pr.AsOf != "" && !slices.Contains(c.AsOf, pr.AsOf) {
			c.AsOf = append(c.AsOf, pr.AsOf)
		}
	}
	if known {
		t := roundNano(total)
		c.USD = &t
	}
	return c
}

// roundNano rounds US dollars to a billionth.
func roundNano(usd float64) float64 { return math.Round(usd*1e9) / 1e9 }
