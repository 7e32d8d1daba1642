package plan

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// WriteText writes the forecast for a reader: jobs, calls by role, tokens
// and cost per role with the prices used and their dates, wall time, and
// what the forecast assumes.
func (p *Plan) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "%d job(s) at concurrency %d\n", p.Jobs, p.Concurrency)
	fmt.Fprintf(b, "model calls: agent %d, simulated user %d, judge %d (%d judgment(s), samples included)\n\n",
		p.Calls.Agent, p.Calls.User, p.Calls.Judge, p.Calls.JudgeEvaluations)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "role\tmodel\tcalls\tinput tokens\toutput tokens\tcost\tprice (USD per M tokens in/out, as of)")
	for _, r := range p.Roles {
		model, price := r.Model, "-"
		if model == "" {
			model = "-"
		}
		if r.Price != nil {
			price = fmt.Sprintf("%g/%g, %s (%s)", r.Price.Input, r.Price.Output, r.Price.AsOf, r.Price.Source)
		}
		role := r.Role
		if r.Agent != "" {
			role += " " + r.Agent
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", role, model, r.Calls, r.InputTokens, r.OutputTokens, costText(r.CostUSD), price)
	}
	tw.Flush()
	fmt.Fprintf(b, "\ntokens: %d (%d input, %d output)\n", p.Tokens.Total, p.Tokens.Input, p.Tokens.Output)
	fmt.Fprintf(b, "cost: %s\n", costText(p.CostUSD))
	for _, u := range p.CostUnknown {
		fmt.Fprintf(b, "  unknown because %s\n", u)
	}
	bound := "about"
	if p.Basis.HistoryJobs == 0 {
		bound = "at most"
	}
	limit := ""
	if p.MaxRequests > 0 {
		limit = fmt.Sprintf(", at most %d model request(s) in flight", p.MaxRequests)
	}
	fmt.Fprintf(b, "wall time: %s %s at concurrency %d%s (all jobs one after another: %s; longest job: %s)\n",
		bound, msText(p.WallMS), p.Concurrency, limit, msText(p.JobMS), msText(p.LongestJobMS))
	fmt.Fprintf(b, "basis: %d job(s) from past results, %d from limits\n", p.Basis.HistoryJobs, p.Basis.LimitJobs)
	if len(p.Sources) > 0 {
		fmt.Fprintf(b, "\n")
		tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "source\tjobs\tagent\tuser\tjudge\ttokens\ttime per job\tbasis")
		for _, s := range p.Sources {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", s.Source, s.Jobs, s.Calls.Agent, s.Calls.User, s.Calls.Judge, s.Tokens, msText(s.JobMS), s.Basis)
		}
		tw.Flush()
	}
	if len(p.Notes) > 0 {
		fmt.Fprintf(b, "\nnotes:\n")
		for _, n := range p.Notes {
			fmt.Fprintf(b, "  - %s\n", n)
		}
	}
	return b.Flush()
}

func costText(c *float64) string {
	if c == nil {
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", *c)
}

func msText(ms float64) string {
	return time.Duration(ms * float64(time.Millisecond)).Round(time.Millisecond).String()
}
