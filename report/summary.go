package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agenteval/agenteval/internal/stats"
	"github.com/agenteval/agenteval/matrix"
	"github.com/agenteval/agenteval/results"
)

// Summary is the computed report: every number the renderers show. Field
// names in JSON are stable.
type Summary struct {
	// RunIDs are the distinct run ids of the plans, in input order.
	RunIDs []string `json:"run_ids"`
	// Started is the earliest plan start.
	Started time.Time `json:"started"`
	// Agent, Sources and Seed come from the plans (which agree on them).
	Agent   string   `json:"agent"`
	Sources []string `json:"sources"`
	Seed    int64    `json:"seed"`
	// Shards are the distinct shards seen ("i/n"), sorted.
	Shards []string `json:"shards"`
	// Inputs name the files read.
	Inputs []string `json:"inputs"`
	// TotalJobs is the plans' job count (0 when no plan was read).
	TotalJobs int64 `json:"total_jobs"`
	// Recorded is the number of distinct jobs with a record.
	Recorded int64 `json:"recorded"`
	// Duplicates counts records dropped in favour of another with the same id.
	Duplicates int64 `json:"duplicates"`
	// Malformed counts lines skipped as unreadable.
	Malformed int64 `json:"malformed"`
	// Reviewed counts the jobs whose verdict is a person's review
	// (labels.jsonl; see Options.IgnoreLabels), not the run's.
	Reviewed int64 `json:"reviewed,omitempty"`
	// Missing are the job indexes no input recorded; MissingJobs counts them.
	Missing     []IndexRange `json:"missing"`
	MissingJobs int64        `json:"missing_jobs"`
	// K is the k singled out for pass@k and pass^k.
	K int `json:"k"`
	// Totals aggregates every job.
	Totals Counts `json:"totals"`
	// Cost totals every job's cost as Stats.Cost does; absent when no job
	// was priced.
	Cost *results.Cost `json:"cost,omitempty"`
	// FlakyCombinations counts flaky combinations over all scenarios.
	FlakyCombinations int `json:"flaky_combinations"`
	// Scenarios are sorted by id.
	Scenarios []ScenarioSummary `json:"scenarios"`
	// Warnings describe skipped lines and other oddities (capped; see Options.MaxWarnings).
	Warnings []string `json:"warnings"`
	// Budgets are the budget records of runs given a budget, in input order.
	Budgets []BudgetSummary `json:"budgets,omitempty"`
	// Variants are a suite's agents × models, in the suite's order, each
	// with its rank by pass rate (nil outside a suite).
	Variants []VariantSummary `json:"variants,omitempty"`
}

// Counts are run outcomes with their rates and Wilson 95% intervals. A pass
// rate is passed/runs: a run that did not complete did not pass.
type Counts struct {
	Runs               int      `json:"runs"`
	Completed          int      `json:"completed"`
	Passed             int      `json:"passed"`
	Failed             int      `json:"failed"`     // completed but did not pass
	Incomplete         int      `json:"incomplete"` // did not reach the judgment
	PassRate           float64  `json:"pass_rate"`
	PassInterval       Interval `json:"pass_interval"`
	CompletionRate     float64  `json:"completion_rate"`
	CompletionInterval Interval `json:"completion_interval"`
}

func newCounts(runs, completed, passed int) Counts {
	return Counts{
		Runs: runs, Completed: completed, Passed: passed,
		Failed: completed - passed, Incomplete: runs - completed,
		PassRate: stats.Rate(passed, runs), PassInterval: stats.Wilson(passed, runs),
		CompletionRate: stats.Rate(completed, runs), CompletionInterval: stats.Wilson(completed, runs),
	}
}

// KValue is pass@k and pass^k for one k.
type KValue struct {
	K        int     `json:"k"`
	PassAtK  float64 `json:"pass_at_k"`
	PassHatK float64 `json:"pass_hat_k"`
}

// EvaluationFailures says how often one evaluation (by type and description)
// failed: counted in jobs, not in results.
type EvaluationFailures struct {
	Type        string  `json:"type"`
	Description string  `json:"description"`
	Jobs        int     `json:"jobs"`    // jobs that ran it
	Failed      int     `json:"failed"`  // jobs where it failed at least once
	Errored     int     `json:"errored"` // jobs where it could not judge
	FailRate    float64 `json:"fail_rate"`
}

// Stats are the figures shared by scenarios and combinations.
type Stats struct {
	Counts
	// Attempts is the total number of attempts (runs plus retries used).
	Attempts int `json:"attempts"`
	// PassK lists pass@k and pass^k for k = 1..min(runs, Options.MaxKList).
	// For a scenario, each k averages its combinations that have ≥ k runs.
	PassK []KValue `json:"pass_k"`
	// Chosen is pass@k and pass^k for Summary.K; nil when no combination has K runs.
	Chosen *KValue `json:"chosen_k"`
	// Durations are wall-time percentiles in milliseconds over all
	// recorded runs.
	Durations struct {
		P50   float64 `json:"p50_ms"`
		P90   float64 `json:"p90_ms"`
		P99   float64 `json:"p99_ms"`
		Max   float64 `json:"max_ms"`
		Total float64 `json:"total_ms"`
	} `json:"durations"`
	// Tokens are token totals.
	Tokens struct {
		Prompt     int64 `json:"prompt"`
		Completion int64 `json:"completion"`
		Total      int64 `json:"total"`
	} `json:"tokens"`
	// Cost totals the jobs' costs by role (results.Cost: each amount the
	// sum of the jobs', unknown when any job's is; Unpriced lists the
	// roles and models without a price); absent when no job was priced.
	Cost *results.Cost `json:"cost,omitempty"`
	// TerminationReasons count conversation endings by reason, most
	// frequent first (in JSON an object of reason to count, in that order).
	TerminationReasons results.Counts `json:"termination_reasons"`
	// FailingEvaluations are the (at most 10) evaluations that failed or
	// errored in the most jobs, most failures first.
	FailingEvaluations []EvaluationFailures `json:"failing_evaluations"`
}

// CombinationSummary is one combination of a scenario's matrix (or the
// whole scenario, id "-", outside a matrix).
type CombinationSummary struct {
	// Key is the job id prefix "scenario/combination" that identifies it across runs.
	Key         string `json:"key"`
	Combination string `json:"combination"`
	// Agent and Model are the suite's agent and model that ran it ("" outside a suite).
	Agent  string         `json:"agent,omitempty"`
	Model  string         `json:"model,omitempty"`
	Matrix string         `json:"matrix,omitempty"`
	Label  string         `json:"label"`
	Params map[string]any `json:"params,omitempty"`
	// Flaky is true when its completed runs disagree on the verdict.
	Flaky bool `json:"flaky"`
	Stats
}

// ScenarioSummary aggregates a scenario over its combinations.
type ScenarioSummary struct {
	ID                string               `json:"id"`
	Name              string               `json:"name,omitempty"`
	FlakyCombinations int                  `json:"flaky_combinations"`
	Stats                                  // over all its runs
	Combinations      []CombinationSummary `json:"combinations"` // in job order
	// MoreCombinations counts the combinations after the first
	// Options.MaxCombinations, which Combinations leaves out; every other
	// figure of the scenario covers them.
	MoreCombinations int `json:"more_combinations,omitempty"`
	// Parameters give the pass rate per value of each matrix parameter,
	// marginalised over the other parameters.
	Parameters []ParameterSummary `json:"parameters"`
}

// CombinationCount is the number of the scenario's combinations, listed
// or not.
func (sc *ScenarioSummary) CombinationCount() int { return len(sc.Combinations) + sc.MoreCombinations }

// ParameterSummary is one matrix parameter's outcome per value.
type ParameterSummary struct {
	Path   string         `json:"path"`
	Values []ValueSummary `json:"values"`
	// Other counts the runs of the values after the first
	// Options.MaxCombinations seen, which Values leaves out (nil when none).
	Other *Counts `json:"other_values,omitempty"`
}

// ValueSummary is the outcome of every run whose parameter had Value.
type ValueSummary struct {
	Value string `json:"value"`
	Counts
}

// maxFailingEvaluations bounds the failing-evaluation lists.
const maxFailingEvaluations = 10

// Summary computes the statistics. It is cheap to call again.
func (r *Results) Summary() *Summary {
	s := &Summary{K: r.opts.K, Duplicates: r.duplicates, Malformed: r.malformed, Recorded: r.recorded, Reviewed: int64(len(r.reviewed)),
		TotalJobs: r.totalJobs(), RunIDs: []string{}, Shards: []string{}, Inputs: []string{},
		Scenarios: []ScenarioSummary{}, Sources: []string{}, Missing: []IndexRange{}, Warnings: []string{}}
	for _, in := range r.inputs {
		s.Inputs = append(s.Inputs, in.Name)
	}
	for i, p := range r.plans {
		if i == 0 {
			s.Agent, s.Seed, s.Started = p.plan.Agent, p.plan.Seed, p.plan.Started
			s.Sources = append(s.Sources, p.plan.Sources...)
		}
		if !p.plan.Started.IsZero() && (s.Started.IsZero() || p.plan.Started.Before(s.Started)) {
			s.Started = p.plan.Started
		}
		if !slices.Contains(s.RunIDs, p.plan.RunID) {
			s.RunIDs = append(s.RunIDs, p.plan.RunID)
		}
	}
	s.Shards = r.shards()
	if len(r.missing) > 0 {
		s.Missing, s.MissingJobs = r.missing, r.missingJobs
	}
	var all tally
	rd := r.newJobReader()
	var readBack []string
	for _, g := range r.groups {
		all.cost.merge(&g.t.cost)
		sc := r.scenarioSummary(g, rd, &readBack)
		all.runs += sc.Runs
		all.completed += sc.Completed
		all.passed += sc.Passed
		s.FlakyCombinations += sc.FlakyCombinations
		s.Scenarios = append(s.Scenarios, sc)
	}
	s.Totals = newCounts(all.runs, all.completed, all.passed)
	s.Cost = all.cost.summary()
	s.Variants = r.variantSummaries()
	s.Budgets = r.budgets
	s.Warnings = append(s.Warnings, r.warnings...)
	s.Warnings = append(s.Warnings, readBack...)
	if r.droppedWarnings > 0 {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%d more warning(s) not shown", r.droppedWarnings))
	}
	return s
}

// shards are the distinct shards of the plans read ("i/n"), sorted.
func (r *Results) shards() []string {
	out := []string{}
	for _, p := range r.plans {
		if p.plan.Shard != "" {
			out = append(out, p.plan.Shard)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scenarioSummary computes a scenario's figures over all its combinations
// and lists the first Options.MaxCombinations of them, whose own figures
// are read back from their records with rd; a record that cannot be read
// back becomes a warning in warnings.
func (r *Results) scenarioSummary(g *scenarioGroup, rd *jobReader, warnings *[]string) ScenarioSummary {
	sc := ScenarioSummary{ID: g.id, Name: g.name, Combinations: []CombinationSummary{}, Parameters: []ParameterSummary{}}
	// Per k: sum of pass@k, pass^k and how many combinations contributed.
	type kSum struct {
		at, hat float64
		n       int
	}
	ks := make([]kSum, r.opts.MaxKList+1)
	var chosen kSum
	runs := 0
	for _, ci := range g.combos {
		runs += int(r.combos[ci].runs)
	}
	durs := make([]float64, 0, runs)
	scratch := map[evalKey]uint8{}
	for i, ci := range g.combos {
		c := &r.combos[ci]
		for _, s := range r.comboSlots(c) {
			durs = append(durs, s.dur)
		}
		if c.flaky() {
			sc.FlakyCombinations++
		}
		n, p := int(c.runs), int(c.passed)
		for k := 1; k <= min(n, r.opts.MaxKList); k++ {
			at, _ := stats.PassAtK(n, p, k)
			hat, _ := stats.PassHatK(n, p, k)
			ks[k].at += at
			ks[k].hat += hat
			ks[k].n++
		}
		if at, ok := stats.PassAtK(n, p, r.opts.K); ok {
			hat, _ := stats.PassHatK(n, p, r.opts.K)
			chosen.at += at
			chosen.hat += hat
			chosen.n++
		}
		if i >= r.opts.MaxCombinations {
			sc.MoreCombinations++
			continue
		}
		cs, err := r.combinationSummary(c, rd, scratch)
		if err != nil {
			*warnings = append(*warnings, fmt.Sprintf("combination %s: %v", c.key, err))
		}
		sc.Combinations = append(sc.Combinations, cs)
	}
	sc.Stats = statsOf(&g.t, durs)
	sc.PassK = []KValue{}
	for k := 1; k < len(ks); k++ {
		if ks[k].n > 0 {
			n := float64(ks[k].n)
			sc.PassK = append(sc.PassK, KValue{K: k, PassAtK: ks[k].at / n, PassHatK: ks[k].hat / n})
		}
	}
	if chosen.n > 0 {
		n := float64(chosen.n)
		sc.Chosen = &KValue{K: r.opts.K, PassAtK: chosen.at / n, PassHatK: chosen.hat / n}
	}
	paths := make([]string, 0, len(g.params))
	for p := range g.params {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		pt := g.params[p]
		ps := ParameterSummary{Path: p}
		for v, cnt := range pt.values {
			if cnt[0] > 0 {
				ps.Values = append(ps.Values, ValueSummary{Value: v, Counts: newCounts(cnt[0], cnt[1], cnt[2])})
			}
		}
		if len(ps.Values) == 0 {
			continue
		}
		slices.SortFunc(ps.Values, func(a, b ValueSummary) int { return compareValues(a.Value, b.Value) })
		if pt.other[0] > 0 {
			o := newCounts(pt.other[0], pt.other[1], pt.other[2])
			ps.Other = &o
		}
		sc.Parameters = append(sc.Parameters, ps)
	}
	return sc
}

// comboHead is what names a combination and counts its runs, without the
// figures that need all its records: its counts, total duration, and the
// identity (parameters, matrix, agent, model, label) of first, its first
// record (nil: it has none).
func (r *Results) comboHead(c *combo, first *results.Job) CombinationSummary {
	cs := CombinationSummary{Key: c.key}
	cs.Counts = newCounts(int(c.runs), int(c.completed), int(c.passed))
	for _, s := range r.comboSlots(c) {
		cs.Durations.Total += s.dur
	}
	if first == nil {
		nameCombination(&cs, nil)
		return cs
	}
	nameCombination(&cs, &comboIdentity{combination: first.Combination, matrix: first.Matrix, agent: first.Agent, model: first.Model, params: first.Params})
	return cs
}

// comboIdentity is what names a combination, from its first record.
type comboIdentity struct {
	combination, matrix, agent, model string
	params                            map[string]any
}

// identityOf is the identity in a record (nil: none could be read).
func identityOf(rec *lineRecord) *comboIdentity {
	if rec == nil {
		return nil
	}
	params, _ := rec.params() // decoded once already when the record was first read
	return &comboIdentity{combination: rec.Combination, matrix: rec.Matrix, agent: rec.Agent, model: rec.Model, params: params}
}

// nameCombination sets the identity fields of cs from its first record's
// (nil: none could be read).
func nameCombination(cs *CombinationSummary, first *comboIdentity) {
	cs.Combination, cs.Label = "-", "-"
	if first != nil {
		params := first.params
		cs.Combination, cs.Matrix, cs.Params, cs.Agent, cs.Model = first.combination, first.matrix, params, first.agent, first.model
		if cs.Combination == "" {
			cs.Combination = "-"
		}
		cs.Label = paramsLabel(params)
	}
	if v := (matrix.Variant{Agent: cs.Agent, Model: cs.Model}).String(); v != "" {
		if cs.Label == "-" || cs.Label == "" {
			cs.Label = v
		} else {
			cs.Label = v + " · " + cs.Label
		}
	}
}

// combinationSummary computes one combination's figures from its records,
// read back with rd (scratch is the evaluation tally's scratch map).
func (r *Results) combinationSummary(c *combo, rd *jobReader, scratch map[evalKey]uint8) (CombinationSummary, error) {
	slots := r.comboSlots(c)
	durs := make([]float64, 0, len(slots))
	var t tally
	var first *lineRecord
	var rerr error
	for _, s := range slots {
		durs = append(durs, s.dur)
		if rerr != nil {
			continue
		}
		rec, err := rd.stats(int(s.src), s.off)
		if err != nil {
			rerr = err
			continue
		}
		if first == nil {
			first = rec
		}
		t.add(rec, 1, scratch)
	}
	// The counts are the combination's own, whatever could be read back.
	t.runs, t.completed, t.passed = int(c.runs), int(c.completed), int(c.passed)
	cs := CombinationSummary{Key: c.key}
	nameCombination(&cs, identityOf(first))
	cs.Stats = statsOf(&t, durs)
	cs.Flaky = c.flaky()
	n, p := int(c.runs), int(c.passed)
	cs.PassK = []KValue{}
	for k := 1; k <= min(n, r.opts.MaxKList); k++ {
		at, _ := stats.PassAtK(n, p, k)
		hat, _ := stats.PassHatK(n, p, k)
		cs.PassK = append(cs.PassK, KValue{K: k, PassAtK: at, PassHatK: hat})
	}
	if at, ok := stats.PassAtK(n, p, r.opts.K); ok {
		hat, _ := stats.PassHatK(n, p, r.opts.K)
		cs.Chosen = &KValue{K: r.opts.K, PassAtK: at, PassHatK: hat}
	}
	return cs, rerr
}

// statsOf computes the figures of a tally; it sorts durs.
func statsOf(t *tally, durs []float64) Stats {
	st := Stats{Counts: newCounts(t.runs, t.completed, t.passed), Attempts: t.attempts,
		TerminationReasons: results.Counts{}, FailingEvaluations: []EvaluationFailures{}, PassK: []KValue{}}
	st.Tokens.Prompt, st.Tokens.Completion, st.Tokens.Total = t.prompt, t.completion, t.total
	st.Cost = t.cost.summary()
	slices.Sort(durs)
	for _, d := range durs {
		st.Durations.Total += d
	}
	st.Durations.Total = roundMS(st.Durations.Total)
	if len(durs) > 0 {
		st.Durations.P50 = roundMS(stats.Percentile(durs, 50))
		st.Durations.P90 = roundMS(stats.Percentile(durs, 90))
		st.Durations.P99 = roundMS(stats.Percentile(durs, 99))
		st.Durations.Max = roundMS(durs[len(durs)-1])
	}
	for reason, n := range t.terms {
		if n > 0 {
			st.TerminationReasons = append(st.TerminationReasons, results.Count{Name: reason, N: n})
		}
	}
	slices.SortFunc(st.TerminationReasons, func(a, b results.Count) int {
		return cmp.Or(cmp.Compare(b.N, a.N), strings.Compare(a.Name, b.Name))
	})
	for k, c := range t.evals {
		if c.failed > 0 || c.errored > 0 {
			st.FailingEvaluations = append(st.FailingEvaluations, EvaluationFailures{
				Type: k.Type, Description: k.Description, Jobs: c.jobs, Failed: c.failed, Errored: c.errored,
				FailRate: stats.Rate(c.failed, c.jobs)})
		}
	}
	slices.SortFunc(st.FailingEvaluations, func(a, b EvaluationFailures) int {
		return cmp.Or(cmp.Compare(b.Failed, a.Failed), cmp.Compare(b.Errored, a.Errored),
			strings.Compare(a.Type, b.Type), strings.Compare(a.Description, b.Description))
	})
	if len(st.FailingEvaluations) > maxFailingEvaluations {
		st.FailingEvaluations = st.FailingEvaluations[:maxFailingEvaluations]
	}
	return st
}

// valueString renders a parameter value: strings as they are, anything
// else as compact JSON.
func valueString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// paramsLabel renders parameters as "path=value, ..." sorted by path, or "-"
// when there are none.
func paramsLabel(params map[string]any) string {
	if len(params) == 0 {
		return "-"
	}
	var b strings.Builder
	for i, p := range sortedPaths(params) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p)
		b.WriteByte('=')
		b.WriteString(valueString(params[p]))
	}
	return b.String()
}

// compareValues orders parameter values numerically when both are numbers,
// otherwise as strings.
func compareValues(a, b string) int {
	var x, y float64
	if json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil {
		return cmp.Compare(x, y)
	}
	return strings.Compare(a, b)
}
