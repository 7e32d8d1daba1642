// Package plan forecasts a run before it starts: its jobs, the model calls
// they make by role, the tokens, cost and wall time they should take, from
// past results when there are some and from the scenarios' limits
// otherwise. Prices come from a built-in table of common models, each with
// the date its price was taken, which a prices file overrides
// (ParsePrices); a model without a price has an unknown cost, never 0.
package plan
