package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/stats"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/results"
)

// VariantSummary is one agent × model of a suite's results: its success
// with a Wilson interval, its rank, and its medians of effort per job.
type VariantSummary struct {
	Agent string `json:"agent"`
	Model string `json:"model,omitempty"`
	Counts
	// Rank orders the variants by pass rate, then by the lower end of its
	// interval (1 is the best); equal rates share a rank. A variant none of
	// whose jobs completed is not ranked (0): it was not measured.
	Rank int `json:"rank"`
	// Median are medians per job (ghx's interpolation, stats.Median); all
	// 0 when no job completed, which renderers show as "—".
	// ActiveTokens are ghx's active tokens (activeTokens: cache excluded),
	// Tokens the total.
	Median struct {
		DurationMS   float64 `json:"duration_ms"`
		ActiveTokens float64 `json:"active_tokens"`
		Tokens       float64 `json:"tokens"`
		ToolCalls    float64 `json:"tool_calls"`
		Turns        float64 `json:"turns"`
	} `json:"median"`
	// ToolCalls totals the variant's tool calls by category: ghx's
	// categories in ghx's order, then the suite's own by name; categories
	// without calls left out.
	// In JSON an object of category to calls, in that order, as a job
	// record's efficiency.tool_calls.by_category.
	ToolCalls results.Counts `json:"tool_calls,omitempty"`
}

// Axes by which Compare's variants are split.
const (
	byAgent = "agent"
	byModel = "model"
)

// variantLabel names a variant in labels: "agent × model", "agent", or "".
func variantLabel(agent, model string) string {
	switch {
	case agent == "" && model == "":
		return ""
	case model == "":
		return agent
	case agent == "":
		return model
	}
	return agent + " × " + model
}

type variantKey struct{ agent, model string }

// variantSlots groups the recorded jobs by agent and model, in the order of
// their first job.
func (r *Results) variantSlots() ([]variantKey, map[variantKey][]slot) {
	keys, slots, _ := r.variantGroups()
	return keys, slots
}

// variantGroups is variantSlots with each variant's tool calls by category.
func (r *Results) variantGroups() ([]variantKey, map[variantKey][]slot, map[variantKey]map[string]int) {
	first := map[variantKey]int64{}
	slots := map[variantKey][]slot{}
	tools := map[variantKey]map[string]int{}
	for _, c := range r.combos {
		if c.agent == "" && c.model == "" {
			continue
		}
		k := variantKey{c.agent, c.model}
		if i, ok := first[k]; !ok || c.minIndex < i {
			first[k] = c.minIndex
		}
		slots[k] = append(slots[k], c.slots...)
		for cat, n := range c.t.tools {
			if tools[k] == nil {
				tools[k] = map[string]int{}
			}
			tools[k][cat] += n
		}
	}
	keys := make([]variantKey, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b variantKey) int { return cmp.Compare(first[a], first[b]) })
	return keys, slots, tools
}

// ghxCategories are ghx's tool-call categories in its report order.
var ghxCategories = []string{"ghx", "mcp", "gh_cli", "bash", "file_ops", "other"}

// categoryCounts orders counts by category: ghx's first, in its order,
// then the others by name.
func categoryCounts(m map[string]int) results.Counts {
	names := make([]string, 0, len(m))
	for k, n := range m {
		if n != 0 {
			names = append(names, k)
		}
	}
	rank := func(s string) int {
		if i := slices.Index(ghxCategories, s); i >= 0 {
			return i
		}
		return len(ghxCategories)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	out := make(results.Counts, len(names))
	for i, n := range names {
		out[i] = results.Count{Name: n, N: m[n]}
	}
	return out
}

func (r *Results) variants() []VariantSummary {
	keys, slots, tools := r.variantGroups()
	if len(keys) == 0 {
		return nil
	}
	out := make([]VariantSummary, 0, len(keys))
	for _, k := range keys {
		ss := slots[k]
		completed, passed := 0, 0
		for _, s := range ss {
			if s.completed {
				completed++
			}
			if s.passed {
				passed++
			}
		}
		v := VariantSummary{Agent: k.agent, Model: k.model, Counts: newCounts(len(ss), completed, passed), ToolCalls: categoryCounts(tools[k])}
		if completed > 0 {
			dur, active, tok, calls, turns := metricValues(ss)
			v.Median.DurationMS, v.Median.ActiveTokens, v.Median.Tokens = roundMS(stats.Median(dur)), stats.Median(active), stats.Median(tok)
			v.Median.ToolCalls, v.Median.Turns = stats.Median(calls), stats.Median(turns)
		}
		out = append(out, v)
	}
	var order []int // the ranked: variants with a completed job
	for i := range out {
		if out[i].Completed > 0 {
			order = append(order, i)
		}
	}
	better := func(a, b *VariantSummary) int {
		return cmp.Or(cmp.Compare(b.PassRate, a.PassRate), cmp.Compare(b.PassInterval.Lower, a.PassInterval.Lower))
	}
	slices.SortStableFunc(order, func(i, j int) int { return better(&out[i], &out[j]) })
	for pos, i := range order {
		out[i].Rank = pos + 1
		if pos > 0 && better(&out[order[pos-1]], &out[i]) == 0 {
			out[i].Rank = out[order[pos-1]].Rank
		}
	}
	return out
}

// activeTokens are the tokens ghx's agent-profiler compares: input, output
// and reasoning, cache excluded (OpenCode's active = input + output +
// reasoning, whose input leaves cached tokens out). Our usage follows
// OpenAI's: prompt tokens include the cache's reads and writes, completion
// tokens include reasoning, so active = total − cache read − cache write
// (total taken as prompt + completion when an agent reports no total).
func activeTokens(u llm.Usage) int64 {
	total := int64(u.TotalTokens)
	if total == 0 {
		total = int64(u.PromptTokens) + int64(u.CompletionTokens)
	}
	return max(total-int64(u.CacheReadTokens)-int64(u.CacheWriteTokens), 0)
}

// metricValues are the per-job values of each effort metric.
func metricValues(ss []slot) (dur, active, tokens, tools, turns []float64) {
	for _, s := range ss {
		dur = append(dur, s.dur)
		active = append(active, float64(s.active))
		tokens = append(tokens, float64(s.tokens))
		tools = append(tools, float64(s.tools))
		turns = append(turns, float64(s.turns))
	}
	return
}

// EfficiencyRow compares one effort metric of the candidate with the
// baseline over the matched combinations' jobs, as ghx's report does
// (stats.CompareGroups, 1,000 resamples and 1,000 permutations, seed 42).
type EfficiencyRow struct {
	Metric          string  `json:"metric"`
	BaselineMedian  float64 `json:"baseline_median"`
	CandidateMedian float64 `json:"candidate_median"`
	stats.GroupComparison
	// Significant is true when the permutation test's p is below alpha and
	// the interval of the reduction excludes 0.
	Significant bool `json:"significant"`
}

// ghxReportOptions are ghx's report options for CompareGroups.
var ghxReportOptions = stats.GroupOptions{Bootstrap: stats.BootstrapOptions{Resamples: 1000, Seed: 42},
	Permutation: stats.PermutationOptions{Permutations: 1000, Seed: 42}}

// efficiencyRows compares the candidate's jobs with the baseline's on
// every effort metric both recorded.
func efficiencyRows(base, cand []slot, alpha float64) []EfficiencyRow {
	if len(base) == 0 || len(cand) == 0 {
		return nil
	}
	bd, ba, bt, bc, bn := metricValues(base)
	cd, ca, ct, cc, cn := metricValues(cand)
	var out []EfficiencyRow
	for _, m := range []struct {
		name string
		b, c []float64
	}{{"duration_ms", bd, cd}, {"active_tokens", ba, ca}, {"total_tokens", bt, ct}, {"tool_calls", bc, cc}, {"turns", bn, cn}} {
		if allZero(m.b) && allZero(m.c) {
			continue // not recorded by either side
		}
		g, err := stats.CompareGroups(m.c, m.b, ghxReportOptions)
		if err != nil {
			continue
		}
		bm, cm := stats.Median(m.b), stats.Median(m.c)
		if m.name == "duration_ms" {
			bm, cm = roundMS(bm), roundMS(cm)
		}
		out = append(out, EfficiencyRow{Metric: m.name, BaselineMedian: bm, CandidateMedian: cm, GroupComparison: g,
			Significant: stats.Below(g.PValue, alpha) && (g.CI95[0] > 0 || g.CI95[1] < 0)})
	}
	return out
}

func allZero(v []float64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// VariantNames returns the agents (by "agent") or models (by "model") of
// the results, in the order of their first job.
func (r *Results) VariantNames(by string) []string {
	keys, _ := r.variantSlots()
	var out []string
	for _, k := range keys {
		v := k.agent
		if by == byModel {
			v = k.model
		}
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// CompareBy compares two agents (by "agent") or two models (by "model")
// within one results set: the jobs of baseline and of candidate, their
// combinations matched by scenario, combination and the other axis. It
// tests success as Compare does and adds the efficiency comparison.
func (r *Results) CompareBy(by, baseline, candidate string, opts CompareOptions) (*Comparison, error) {
	if by != byAgent && by != byModel {
		return nil, fmt.Errorf("compare: by %q; want %s or %s", by, byAgent, byModel)
	}
	names := r.VariantNames(by)
	for _, n := range []string{baseline, candidate} {
		if !slices.Contains(names, n) {
			if len(names) == 0 {
				return nil, fmt.Errorf("compare: the results hold no suite's %ss (run --suite records them)", by)
			}
			return nil, fmt.Errorf("compare: no %s %q in the results; they hold %s", by, n, strings.Join(names, ", "))
		}
	}
	if baseline == candidate {
		return nil, fmt.Errorf("compare: baseline and candidate are both %s %q", by, baseline)
	}
	sum := r.Summary()
	b, bs := r.selectBy(sum, by, baseline)
	c, cs := r.selectBy(sum, by, candidate)
	cmp, err := Compare(b, c, opts)
	if err != nil {
		return nil, err
	}
	cmp.By, cmp.BaselineName, cmp.CandidateName = by, baseline, candidate
	matched := map[string]bool{}
	for _, row := range cmp.Rows {
		matched[row.Key] = true
	}
	cmp.Efficiency = efficiencyRows(matchedSlots(bs, matched), matchedSlots(cs, matched), cmp.Alpha)
	return cmp, nil
}

// CompareResults compares a candidate's results with a baseline's, as
// Compare does, and adds the efficiency comparison over the matched
// combinations' jobs.
func CompareResults(baseline, candidate *Results, opts CompareOptions) (*Comparison, error) {
	cmp, err := Compare(baseline.Summary(), candidate.Summary(), opts)
	if err != nil {
		return nil, err
	}
	matched := map[string]bool{}
	for _, row := range cmp.Rows {
		matched[row.Key] = true
	}
	all := func(r *Results) map[string][]slot {
		out := map[string][]slot{}
		for k, c := range r.combos {
			out[k] = c.slots
		}
		return out
	}
	cmp.Efficiency = efficiencyRows(matchedSlots(all(baseline), matched), matchedSlots(all(candidate), matched), cmp.Alpha)
	return cmp, nil
}

func matchedSlots(byKey map[string][]slot, matched map[string]bool) []slot {
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		if matched[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys) // a deterministic order: the bootstrap resamples by position
	var out []slot
	for _, k := range keys {
		out = append(out, byKey[k]...)
	}
	return out
}

// selectBy returns the part of sum run by one agent or model, each
// combination keyed without it so that the two parts match, and that
// part's slots by the same keys.
func (r *Results) selectBy(sum *Summary, by, value string) (*Summary, map[string][]slot) {
	// The run's missing jobs and shards go with either part: which variant
	// a job that never ran belonged to is not recorded anywhere.
	out := &Summary{K: sum.K, Agent: sum.Agent, RunIDs: sum.RunIDs, Sources: sum.Sources, Seed: sum.Seed,
		Shards: sum.Shards, TotalJobs: sum.TotalJobs, Missing: sum.Missing, MissingJobs: sum.MissingJobs}
	slots := map[string][]slot{}
	var runs, completed, passed int
	for _, sc := range sum.Scenarios {
		part := ScenarioSummary{ID: sc.ID, Name: sc.Name}
		for _, c := range sc.Combinations {
			this, other := c.Agent, c.Model
			if by == byModel {
				this, other = c.Model, c.Agent
			}
			if this != value {
				continue
			}
			key := c.Key
			if i := strings.IndexByte(key, '/'); i >= 0 {
				key = other + "|" + key[i+1:]
			}
			if rc := r.combos[c.Key]; rc != nil {
				slots[key] = rc.slots
			}
			c.Key = key
			c.Label = strings.TrimPrefix(strings.TrimPrefix(c.Label, variantLabel(c.Agent, c.Model)), " · ")
			if by == byAgent && c.Model != "" {
				c.Label = strings.TrimSpace(c.Model + " " + c.Label)
			} else if by == byModel && c.Agent != "" {
				c.Label = strings.TrimSpace(c.Agent + " " + c.Label)
			}
			if c.Label == "" {
				c.Label = "-"
			}
			part.Combinations = append(part.Combinations, c)
			runs, completed, passed = runs+c.Runs, completed+c.Completed, passed+c.Passed
		}
		if len(part.Combinations) > 0 {
			out.Scenarios = append(out.Scenarios, part)
		}
	}
	out.Totals = newCounts(runs, completed, passed)
	return out, slots
}
