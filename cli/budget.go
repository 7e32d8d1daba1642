package cli

import (
	"context"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/infile"

	"github.com/agenteval/agenteval/internal/textdist"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/plan"
	"github.com/agenteval/agenteval/results"
	"github.com/agenteval/agenteval/runner"
	"github.com/agenteval/agenteval/scenario"
)

// budgetKeys are the limits --budget takes.
var budgetKeys = []string{"tokens", "cost", "time"}

// parseBudget reads --budget: comma-separated limits, any combination of
// tokens=N (200000, 200k, 1.5M), cost=AMOUNT (5, 5usd, $5, 0.50usd) and
// time=DURATION (30m, 1h30m). Each error names the part it is about.
func parseBudget(spec string) (runner.Budget, error) {
	var b runner.Budget
	if strings.TrimSpace(spec) == "" {
		return b, fmt.Errorf("--budget is empty: want tokens=N, cost=USD, time=DURATION, comma-separated, such as tokens=200k,cost=5usd,time=30m")
	}
	seen := map[string]bool{}
	for part := range strings.SplitSeq(spec, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if !ok || key == "" || val == "" {
			return b, fmt.Errorf("--budget: %q is not a limit: want KEY=VALUE with KEY one of %s, such as tokens=200k", part, strings.Join(budgetKeys, ", "))
		}
		if seen[key] {
			return b, fmt.Errorf("--budget: %s is given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "tokens":
			b.Tokens, err = parseTokens(val)
		case "cost":
			b.CostUSD, err = parseUSD(val)
		case "time":
			var d time.Duration
			d, err = time.ParseDuration(val)
			switch {
			case err != nil:
				err = fmt.Errorf("want a duration such as 30m or 1h30m")
			case d <= 0:
				err = fmt.Errorf("want a duration above zero")
			}
			b.Time = d
		default:
			hint := ""
			if s := textdist.Suggest(key, budgetKeys); s != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", s)
			}
			return b, fmt.Errorf("--budget: unknown limit %q%s: want %s", key, hint, strings.Join(budgetKeys, ", "))
		}
		if err != nil {
			return b, fmt.Errorf("--budget %s=%s: %w", key, val, err)
		}
	}
	return b, nil
}

// parseTokens reads a positive token count, with an optional k or M.
func parseTokens(s string) (int64, error) {
	mult := 1.0
	switch {
	case strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "m") || strings.HasSuffix(s, "M"):
		mult, s = 1e6, s[:len(s)-1]
	}
	f, err := strconv.ParseFloat(s, 64)
	n := f * mult
	if err != nil || math.IsNaN(n) || n < 1 || n > math.MaxInt64/2 || n != math.Trunc(n) {
		return 0, fmt.Errorf("want a whole number of tokens of at least 1, such as 200000, 200k or 1.5M")
	}
	return int64(n), nil
}

// parseUSD reads an amount of US dollars above zero: 5, 5usd, $5.
func parseUSD(s string) (float64, error) {
	t := strings.TrimPrefix(strings.TrimSuffix(strings.ToLower(s), "usd"), "$")
	f, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 {
		return 0, fmt.Errorf("want an amount of US dollars above zero, such as 5, 5usd or 0.50usd")
	}
	return f, nil
}

// agentModel is the model whose prices apply to the agent's tokens: the
// one --agent-model names, else MODEL of --agent openai:MODEL.
func agentModel(agentSpec, flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if m, ok := strings.CutPrefix(agentSpec, "openai:"); ok {
		return m
	}
	return ""
}

// loadPrices is the built-in price table with the --prices file over it.
func loadPrices(file string, read func(string) ([]byte, error)) (plan.Prices, error) {
	prices := plan.DefaultPrices()
	if file == "" {
		return prices, nil
	}
	data, err := read(file)
	if err != nil {
		return nil, err
	}
	over, err := plan.ParsePrices(file, data)
	if err != nil {
		return nil, err
	}
	return prices.With(over), nil
}

// runBudget builds run's budget from its flags (nil without --budget). A
// cost limit needs the agent model's price; with a suite each agent ×
// model's, checked by runSuite.priceBudget once the suite is loaded.
func runBudget(spec, pricesFile, agentSpec, agentModelFlag string, suite bool) (*runner.Budget, plan.Prices, error) {
	prices, err := loadPrices(pricesFile, readInput)
	if err != nil {
		return nil, nil, fmt.Errorf("--prices: %w", err)
	}
	if spec == "" {
		return nil, prices, nil
	}
	b, err := parseBudget(spec)
	if err != nil {
		return nil, nil, err
	}
	if suite {
		return &b, prices, nil
	}
	model := agentModel(agentSpec, agentModelFlag)
	pr, known := prices.Lookup(model)
	switch {
	case known:
		b.Cost = func(j *results.Job) float64 { return budgetCost(j, pr) }
	case b.CostUSD > 0 && model == "":
		return nil, nil, fmt.Errorf("--budget cost=%gusd: the agent's model is not known, so its tokens cannot be priced: name it with --agent-model NAME", b.CostUSD)
	case b.CostUSD > 0:
		return nil, nil, fmt.Errorf("--budget cost=%gusd: no price for model %q: give its price in a --prices file (models: {%s: {input_per_mtok: N, output_per_mtok: N}})", b.CostUSD, model, model)
	}
	return &b, prices, nil
}

// priceBudget prices each job of the suite by its agent × model: the
// model its agent uses (see agentModel), nothing for echo. A cost limit
// with an agent × model whose price is unknown is refused.
func (rs *runSuite) priceBudget(b *runner.Budget, prices plan.Prices, agentModelFlag string) error {
	if b == nil {
		return nil
	}
	modelOf := rs.agentModel(agentModelFlag)
	priced := map[matrix.Variant]plan.Price{}
	for _, v := range rs.variants {
		model, none := modelOf(matrix.Job{Agent: v.Agent, Model: v.Model})
		if none {
			priced[v] = plan.Price{}
			continue
		}
		pr, ok := prices.Lookup(model)
		switch {
		case ok:
			priced[v] = pr
		case b.CostUSD > 0 && model == "":
			return fmt.Errorf("--budget cost=%gusd: the model of the suite's agent %s is not known, so its tokens cannot be priced: give the suite models or name it with --agent-model NAME", b.CostUSD, v)
		case b.CostUSD > 0:
			return fmt.Errorf("--budget cost=%gusd: no price for model %q (the suite's agent %s): give its price in a --prices file", b.CostUSD, model, v)
		default:
			return nil // no cost limit: the use is recorded unpriced
		}
	}
	b.Cost = func(j *results.Job) float64 {
		return budgetCost(j, priced[matrix.Variant{Agent: j.Agent, Model: j.Model}])
	}
	return nil
}

// budgetCost is what a job used of a cost budget: its whole cost (agent,
// simulated user and judge) when every role's price is known, else its
// agent's: what the agent reported (a coding-agent CLI's cost), or its
// tokens at agent.
func budgetCost(j *results.Job, agent plan.Price) float64 {
	if j.Cost != nil && j.Cost.USD != nil {
		return *j.Cost.USD
	}
	if j.Usage.CostUSD > 0 {
		return j.Usage.CostUSD
	}
	return agent.Cost(j.Usage)
}

// jobPricer prices each job's model calls for its record (results.Cost):
// the agent's tokens at its model's price (agentModel; a suite's job by
// its agent × model), or at the cost the agent reported (a coding-agent
// CLI's own figure, which plan.Prices.JobCost prefers), the simulated user's at --user-model's
// and the judge's at --judge-model's, from the built-in table under
// --prices.
func jobPricer(prices plan.Prices, suite *runSuite, agentSpec, agentModelFlag, userModel, judgeModel string) func(*results.Job) *results.Cost {
	user, _ := strings.CutPrefix(userModel, "openai:")
	judge, _ := strings.CutPrefix(judgeModel, "openai:")
	agent := agentModel(agentSpec, agentModelFlag)
	var modelOf func(matrix.Job) (string, bool)
	if suite != nil {
		modelOf = suite.agentModel(agentModelFlag)
	}
	return func(j *results.Job) *results.Cost {
		a := agent
		if modelOf != nil {
			a, _ = modelOf(matrix.Job{Agent: j.Agent, Model: j.Model})
		}
		return prices.JobCost(j, a, user, judge)
	}
}

// runEstimate is the forecast a run with a budget stores in its plan
// record, so that report can put it beside what the run used: plan's,
// from the scenarios' limits, over the jobs of the run's shard.
func runEstimate(ctx context.Context, env *cliEnv, jobs iter.Seq2[matrix.Job, error], suite *runSuite, files []*scenario.File, agentSpec, agentModelFlag, userModel, judgeModel, pricesFile string, concurrency int) (*results.Estimate, error) {
	opts, err := planOptions(agentSpec, agentModelFlag, userModel, judgeModel, pricesFile, concurrency, env)
	if err != nil {
		return nil, err
	}
	if suite != nil {
		suite.planOptions(files, &opts, agentModelFlag)
	}
	p, err := plan.Make(ctx, jobs, opts)
	if err != nil {
		return nil, err
	}
	basis := "limits"
	if p.Basis.HistoryJobs > 0 {
		basis = "history"
	}
	return &results.Estimate{Jobs: p.Jobs, Tokens: p.Tokens.Total, CostUSD: p.CostUSD, WallMS: p.WallMS, Basis: basis}, nil
}

// readInput reads a file given on the command line (--prices): a
// regular file of at most infile.MaxBytes, never a device or a pipe.
func readInput(name string) ([]byte, error) { return infile.ReadFile(name, 0) }
