package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agenteval/agenteval/internal/stats"
	"github.com/agenteval/agenteval/llm"
	"github.com/agenteval/agenteval/matrix"
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
		// CostUSD is the median cost of a job (agent, user and judge),
		// absent when a job's cost is unknown or was not priced.
		CostUSD *float64 `json:"cost_usd,omitempty"`
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

type variantKey struct{ agent, model string }

// variantOrder returns the suite's variants (indexes in Results.variants)
// in the order of their first job.
func (r *Results) variantOrder() []int {
	order := make([]int, len(r.variants))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.variants[a].minIndex, r.variants[b].minIndex) })
	return order
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

func (r *Results) variantSummaries() []VariantSummary {
	order := r.variantOrder()
	if len(order) == 0 {
		return nil
	}
	out := make([]VariantSummary, 0, len(order))
	var ss []slot
	for _, vi := range order {
		ss = ss[:0]
		for i := range r.combos {
			if c := &r.combos[i]; c.variant == int32(vi) {
				ss = append(ss, r.comboSlots(c)...)
			}
		}
		completed, passed := 0, 0
		for _, s := range ss {
			if s.completed {
				completed++
			}
			if s.passed {
				passed++
			}
		}
		k := r.variants[vi].key
		v := VariantSummary{Agent: k.agent, Model: k.model, Counts: newCounts(len(ss), completed, passed), ToolCalls: categoryCounts(r.variants[vi].tools)}
		if completed > 0 {
			dur, active, tok, calls, turns := r.metricValues(ss)
			v.Median.DurationMS, v.Median.ActiveTokens, v.Median.Tokens = roundMS(stats.Median(dur)), stats.Median(active), stats.Median(tok)
			v.Median.ToolCalls, v.Median.Turns = stats.Median(calls), stats.Median(turns)
			if costs, ok := r.costValues(ss); ok {
				m := roundUSD(stats.Median(costs))
				v.Median.CostUSD = &m
			}
		}
		out = append(out, v)
	}
	var ranks []int // the ranked: variants with a completed job
	for i := range out {
		if out[i].Completed > 0 {
			ranks = append(ranks, i)
		}
	}
	better := func(a, b *VariantSummary) int {
		return cmp.Or(cmp.Compare(b.PassRate, a.PassRate), cmp.Compare(b.PassInterval.Lower, a.PassInterval.Lower))
	}
	slices.SortStableFunc(ranks, func(i, j int) int { return better(&out[i], &out[j]) })
	for pos, i := range ranks {
		out[i].Rank = pos + 1
		if pos > 0 && better(&out[ranks[pos-1]], &out[i]) == 0 {
			out[i].Rank = out[ranks[pos-1]].Rank
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

// costValues are the jobs' costs, and false when any is unknown.
func (r *Results) costValues(ss []slot) ([]float64, bool) {
	out := make([]float64, 0, len(ss))
	for i := range ss {
		c := r.eff(&ss[i]).cost()
		if math.IsNaN(c) {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// roundUSD rounds US dollars to a billionth (the results' precision).
func roundUSD(usd float64) float64 { return math.Round(usd*1e9) / 1e9 }

// metricValues are the per-job values of each effort metric.
func (r *Results) metricValues(ss []slot) (dur, active, tokens, tools, turns []float64) {
	for i := range ss {
		e := r.eff(&ss[i])
		dur = append(dur, ss[i].dur)
		active = append(active, float64(e.active))
		tokens = append(tokens, float64(e.tokens))
		tools = append(tools, float64(e.tools))
		turns = append(turns, float64(e.turns))
	}
	return
}

// EfficiencyRow compares one effort metric of the candidate with the
// baseline over the matched combinations' jobs, as ghx's report does
// (stats.CompareGroups, 1,000 resamples and 1,000 permutations, seed 42).
// Over more than 10,000 jobs a side, the resampling draws from
// 10,000 of them picked evenly in the jobs' order, so its cost
// does not grow with the run; the medians and the reduction are over all.
type EfficiencyRow struct {
	Metric          string  `json:"metric"`
	BaselineMedian  float64 `json:"baseline_median"`
	CandidateMedian float64 `json:"candidate_median"`
	stats.GroupComparison
	// Significant is true when the permutation test's p is below alpha and
	// the interval of the reduction excludes 0.
	Significant bool `json:"significant"`
	// Resampled is how many jobs a side the bootstrap and the permutation
	// test drew from, when fewer than the side's jobs (0: all of them).
	Resampled int `json:"resampled,omitempty"`
}

// maxResampledJobs bounds the jobs a side an efficiency comparison's
// bootstrap and permutation test resample (see EfficiencyRow).
const maxResampledJobs = 10_000

// ghxReportOptions are ghx's report options for CompareGroups.
var ghxReportOptions = stats.GroupOptions{Bootstrap: stats.BootstrapOptions{Resamples: 1000, Seed: 42},
	Permutation: stats.PermutationOptions{Permutations: 1000, Seed: 42}}

// efficiencyRows compares the candidate's jobs with the baseline's on
// every effort metric both recorded. It holds one metric's values at a
// time.
func efficiencyRows(base, cand *resultsSide, matched []matchedPair, alpha float64) []EfficiencyRow {
	if len(matched) == 0 {
		return nil
	}
	// Combinations in the order of their keys: the bootstrap resamples by
	// position, so the order must not depend on the files' order.
	byKey := slices.Clone(matched)
	slices.SortFunc(byKey, func(x, y matchedPair) int { return strings.Compare(cand.keyAt(int(x.cand)), cand.keyAt(int(y.cand))) })
	values := func(side *resultsSide, pos func(matchedPair) int32, metric func(*slot, slotEff) float64) []float64 {
		n := 0
		for _, m := range byKey {
			n += len(side.slots(int(pos(m))))
		}
		out := make([]float64, 0, n) // sized once: 8 bytes a job, not 18 while it grows
		for _, m := range byKey {
			for i, ss := 0, side.slots(int(pos(m))); i < len(ss); i++ {
				out = append(out, metric(&ss[i], side.r.eff(&ss[i])))
			}
		}
		return out
	}
	basePos := func(m matchedPair) int32 { return m.base }
	candPos := func(m matchedPair) int32 { return m.cand }
	var out []EfficiencyRow
	for _, m := range []struct {
		name  string
		value func(*slot, slotEff) float64
	}{
		{"duration_ms", func(s *slot, _ slotEff) float64 { return s.dur }},
		{"active_tokens", func(_ *slot, e slotEff) float64 { return float64(e.active) }},
		{"total_tokens", func(_ *slot, e slotEff) float64 { return float64(e.tokens) }},
		{"tool_calls", func(_ *slot, e slotEff) float64 { return float64(e.tools) }},
		{"turns", func(_ *slot, e slotEff) float64 { return float64(e.turns) }},
		{"cost_usd", func(_ *slot, e slotEff) float64 { return e.cost() }},
	} {
		b, c := values(base, basePos, m.value), values(cand, candPos, m.value)
		if len(b) == 0 || len(c) == 0 {
			return nil
		}
		if slices.ContainsFunc(b, math.IsNaN) || slices.ContainsFunc(c, math.IsNaN) {
			continue // a job's cost is unknown (or was not priced): no comparison
		}
		if allZero(b) && allZero(c) {
			continue // not recorded by either side
		}
		sb, sc := evenSample(b, maxResampledJobs), evenSample(c, maxResampledJobs)
		g, err := stats.CompareGroups(sc, sb, ghxReportOptions)
		if err != nil {
			continue
		}
		bm, cm := stats.Median(b), stats.Median(c)
		row := EfficiencyRow{Metric: m.name, BaselineMedian: bm, CandidateMedian: cm, GroupComparison: g}
		if len(sb) < len(b) || len(sc) < len(c) {
			row.Resampled = maxResampledJobs
			if bm != 0 {
				row.ReductionPct = (1 - cm/bm) * 100
			}
		}
		switch m.name {
		case "duration_ms":
			row.BaselineMedian, row.CandidateMedian = roundMS(bm), roundMS(cm)
		case "cost_usd": // the slots' float32 noise is below a billionth of a dollar
			row.BaselineMedian, row.CandidateMedian = roundUSD(bm), roundUSD(cm)
		}
		row.Significant = stats.Below(g.PValue, alpha) && (g.CI95[0] > 0 || g.CI95[1] < 0)
		out = append(out, row)
	}
	return out
}

// evenSample returns v when it has at most n values, else n of them picked
// at even steps (the first, then every len(v)/n-th), in order.
func evenSample(v []float64, n int) []float64 {
	if len(v) <= n {
		return v
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = v[int(int64(i)*int64(len(v))/int64(n))]
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
	var out []string
	for _, vi := range r.variantOrder() {
		k := r.variants[vi].key
		v := k.agent
		if by == byModel {
			v = k.model
		}
		if v != "" && !slices.Contains(out, v) { // a suite has a handful
			out = append(out, v)
		}
	}
	return out
}

// CompareBy compares two agents (by "agent") or two models (by "model")
// within one results set: the jobs of baseline and of candidate, their
// combinations matched by scenario, combination and the other axis. It
// tests success as Compare does, over every combination, and adds the
// efficiency comparison.
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
	if opts.MaxRows <= 0 {
		opts.MaxRows = r.opts.MaxCombinations
	}
	b, c := r.newResultsSide(by, baseline), r.newResultsSide(by, candidate)
	cmp, matched, err := compareSides(b, c, opts)
	if err != nil {
		return nil, err
	}
	cmp.By, cmp.BaselineName, cmp.CandidateName = by, baseline, candidate
	cmp.Efficiency = efficiencyRows(b, c, matched, cmp.Alpha)
	cmp.reviewed = [2]int64{int64(len(r.reviewed)), int64(len(r.reviewed))}
	return cmp, nil
}

// reviewedText says how many verdicts of each side are a person's
// ("" when none are).
func reviewedText(c *Comparison) string {
	switch {
	case c.reviewed == [2]int64{}:
		return ""
	case c.By != "":
		return fmt.Sprintf("%d verdict(s) of these results are reviewed by a person (labels.jsonl) and count with the person's verdict (their reasons start \"reviewed:\"; --labels=false compares the runs' own).", c.reviewed[0])
	}
	return fmt.Sprintf("Verdicts reviewed by a person (labels.jsonl) count with the person's verdict: %d in the baseline, %d in the candidate (their reasons start \"reviewed:\"; --labels=false compares the runs' own).", c.reviewed[0], c.reviewed[1])
}

// CompareResults compares a candidate's results with a baseline's, as
// Compare does but over every combination (a Summary lists at most
// Options.MaxCombinations of a scenario), and adds the efficiency
// comparison over the matched combinations' jobs.
func CompareResults(baseline, candidate *Results, opts CompareOptions) (*Comparison, error) {
	if opts.MaxRows <= 0 {
		opts.MaxRows = candidate.opts.MaxCombinations
	}
	b, c := baseline.newResultsSide("", ""), candidate.newResultsSide("", "")
	cmp, matched, err := compareSides(b, c, opts)
	if err != nil {
		return nil, err
	}
	cmp.Efficiency = efficiencyRows(b, c, matched, cmp.Alpha)
	cmp.reviewed = [2]int64{int64(len(baseline.reviewed)), int64(len(candidate.reviewed))}
	return cmp, nil
}

// resultsSide is every combination of a Results (or of one agent or model
// of it: by and value), in report order, as one side of a comparison.
type resultsSide struct {
	r     *Results
	order []int32 // combos, in report order
	// keys are the combinations' keys when they are rewritten (by an
	// agent or model: the other axis, then the key without the variant).
	keys  []string
	by    string
	byKey map[string]int // position by rewritten key
	rank  []int32        // combo → position, when keys are not rewritten
	rd    *jobReader     // reads the labels' records back
}

func (r *Results) newResultsSide(by, value string) *resultsSide {
	side := &resultsSide{r: r, by: by}
	for _, g := range r.groups {
		for _, ci := range g.combos {
			c := &r.combos[ci]
			if by == "" {
				side.order = append(side.order, ci)
				continue
			}
			if c.variant < 0 {
				continue
			}
			k := r.variants[c.variant].key
			this, other := k.agent, k.model
			if by == byModel {
				this, other = k.model, k.agent
			}
			if this != value {
				continue
			}
			key := c.key
			if i := strings.IndexByte(key, '/'); i >= 0 {
				key = other + "|" + key[i+1:]
			}
			side.order = append(side.order, ci)
			side.keys = append(side.keys, key)
		}
	}
	if by == "" {
		side.rank = make([]int32, len(r.combos))
		for pos, ci := range side.order {
			side.rank[ci] = int32(pos)
		}
	} else {
		side.byKey = make(map[string]int, len(side.keys))
		for pos, k := range side.keys {
			side.byKey[k] = pos
		}
	}
	return side
}

func (s *resultsSide) len() int { return len(s.order) }

func (s *resultsSide) keyAt(i int) string {
	if s.keys != nil {
		return s.keys[i]
	}
	return s.r.combos[s.order[i]].key
}

func (s *resultsSide) at(i int) sideCombo {
	c := &s.r.combos[s.order[i]]
	return sideCombo{key: s.keyAt(i), scenario: s.r.groups[c.group].id, runs: int(c.runs), completed: int(c.completed), passed: int(c.passed)}
}

func (s *resultsSide) find(key string) (int, bool) {
	if s.byKey != nil {
		i, ok := s.byKey[key]
		return i, ok
	}
	ci, ok := s.r.comboIdx.Find(key, s.r.comboKey)
	if !ok {
		return 0, false
	}
	return int(s.rank[ci]), true
}

func (s *resultsSide) slots(i int) []slot { return s.r.comboSlots(&s.r.combos[s.order[i]]) }

// missing are the run's missing jobs and the shards read (a job that
// never ran is not recorded as any agent's or model's, so it goes with
// either side of CompareBy).
func (s *resultsSide) missing() ([]IndexRange, int64, []string) {
	return s.r.missing, s.r.missingJobs, s.r.shards()
}

// totals counts every job of the side.
func (s *resultsSide) totals() Counts {
	var runs, completed, passed int
	for _, ci := range s.order {
		c := &s.r.combos[ci]
		runs, completed, passed = runs+int(c.runs), completed+int(c.completed), passed+int(c.passed)
	}
	return newCounts(runs, completed, passed)
}

// label names combination i as a report does, read back from its first
// record; by an agent or model, without it and with the other axis first.
func (s *resultsSide) label(i int) string {
	c := &s.r.combos[s.order[i]]
	slots := s.r.comboSlots(c)
	params := ""
	var agent, model string
	if len(slots) > 0 {
		if s.rd == nil {
			s.rd = s.r.newJobReader() // one for every row: its buffers are 64 KiB an input
		}
		if rec, err := s.rd.stats(int(slots[0].src), slots[0].off); err == nil {
			p, _ := rec.params()
			params = paramsLabel(p)
			agent, model = rec.Agent, rec.Model
		}
	}
	switch s.by {
	case byAgent, byModel:
		other := model
		if s.by == byModel {
			other = agent
		}
		if params == "-" {
			params = ""
		}
		if l := strings.TrimSpace(other + " " + params); l != "" {
			return l
		}
		return "-"
	}
	if v := (matrix.Variant{Agent: agent, Model: model}).String(); v != "" {
		if params == "-" || params == "" {
			return v
		}
		return v + " · " + params
	}
	if params == "" {
		return "-"
	}
	return params
}
