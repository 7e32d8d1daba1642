package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/internal/stats"
)

// Multiple-comparison corrections for Compare.
const (
	// correctionHolm adjusts p-values with Holm–Bonferroni across combinations.
	correctionHolm = "holm"
	// correctionNone uses each combination's p-value as it is.
	correctionNone = "none"
)

// CompareOptions tune Compare.
type CompareOptions struct {
	// Alpha is the significance level of the one-sided regression test (0.05 when 0).
	Alpha float64
	// MinPassRate fails the comparison when the candidate's overall pass
	// rate is below it; 0 disables the check.
	MinPassRate float64
	// Correction is the multiple-comparison correction: "holm"
	// (Holm–Bonferroni across combinations, the default when "") or "none"
	// (each combination's p-value as it is).
	Correction string
	// AllowMissing accepts a candidate that lacks combinations of the
	// baseline or jobs of its own run (a shard missing or cut short): they are
	// still listed, but do not fail the comparison. Without it they do, as a
	// gate that does not see part of the run cannot vouch for it.
	AllowMissing bool
}

// Comparison is the outcome of comparing a candidate run with a baseline.
type Comparison struct {
	Alpha       float64 `json:"alpha"`
	MinPassRate float64 `json:"min_pass_rate"`
	Correction  string  `json:"correction"`
	// Baseline and Candidate total the matched combinations only.
	Baseline  Counts `json:"baseline"`
	Candidate Counts `json:"candidate"`
	// CandidateAll totals every candidate job; MinPassRate applies to it.
	CandidateAll Counts `json:"candidate_all"`
	// Rows are the combinations present in both, in the candidate's order.
	Rows []ComparisonRow `json:"rows"`
	// OnlyBaseline and OnlyCandidate are combination keys present on one side.
	OnlyBaseline  []string `json:"only_baseline"`
	OnlyCandidate []string `json:"only_candidate"`
	// CandidateMissing are the jobs of the candidate's run that have no
	// record (its plans' job count says how many there are), and
	// MissingShards the shards ("i/n") of which no results were read.
	CandidateMissing     []IndexRange `json:"candidate_missing"`
	CandidateMissingJobs int64        `json:"candidate_missing_jobs"`
	MissingShards        []string     `json:"missing_shards"`
	// AllowMissing is CompareOptions.AllowMissing; Incomplete is true when
	// the candidate lacks baseline combinations or jobs of its run and
	// AllowMissing is false, which fails the comparison.
	AllowMissing bool `json:"allow_missing"`
	Incomplete   bool `json:"incomplete"`
	// NothingMatched is true when the two runs have no combination in
	// common: nothing was compared, whatever the options, and the
	// comparison fails (a gate that compared nothing must not pass).
	NothingMatched bool `json:"nothing_matched"`
	// Overall is the one-sided test of a drop in pass rate over all the
	// matched combinations at once, stratified by combination: a collapse
	// spread thin over many combinations shows here when no single
	// combination's test can show it.
	Overall struct {
		// Method is "exact" (the exact conditional test) or "cmh"
		// (Cochran–Mantel–Haenszel, used when the exact test would take too long).
		Method string `json:"method"`
		// Observed is the candidate's passes over the informative combinations;
		// Expected is their mean if nothing had changed: each combination's
		// passes, baseline's and candidate's together, shared out at random
		// among its runs.
		Observed int     `json:"observed"`
		Expected float64 `json:"expected"`
		// Combinations counts the informative combinations: run on both sides
		// and neither all passed nor all failed.
		Combinations int     `json:"combinations"`
		PValue       float64 `json:"p_value"`
		// Regression is true when PValue < Alpha (stats.Below) and fewer
		// passes were observed than expected.
		Regression bool `json:"regression"`
		// MinDetectableDrop is the power of this test at these sample
		// sizes: the smallest drop of the overall pass rate it would flag
		// (stats.MinDetectableStratifiedDrop); null when no drop would be.
		MinDetectableDrop *float64 `json:"min_detectable_drop"`
	} `json:"overall"`
	// Regressions counts rows with a significant drop in pass rate.
	Regressions int `json:"regressions"`
	// BelowMinPassRate is true when CandidateAll.PassRate < MinPassRate.
	BelowMinPassRate bool `json:"below_min_pass_rate"`
	// Failed is true on a significant regression, overall or in a
	// combination, a pass rate below the minimum, an Incomplete
	// candidate, or NothingMatched.
	Failed bool `json:"failed"`
	// By, BaselineName and CandidateName say what was compared within one
	// results set (Results.CompareBy): two agents or two models.
	By            string `json:"by,omitempty"`
	BaselineName  string `json:"baseline_name,omitempty"`
	CandidateName string `json:"candidate_name,omitempty"`
	// Efficiency compares the effort per job (time, tokens, tool calls,
	// turns) over the matched combinations: the candidate's median reduction
	// with its bootstrap interval, as ghx's report computes it. Empty when
	// the comparison was made from summaries alone (Compare).
	Efficiency []EfficiencyRow `json:"efficiency,omitempty"`
}

// ComparisonRow compares one combination across the two runs.
type ComparisonRow struct {
	Key       string `json:"key"`
	Scenario  string `json:"scenario"`
	Label     string `json:"label"`
	Baseline  Counts `json:"baseline"`
	Candidate Counts `json:"candidate"`
	// Delta is the candidate's pass rate minus the baseline's.
	Delta float64 `json:"delta"`
	// PValue is Fisher's exact one-sided p that the candidate passes less
	// often; AdjustedP is after the multiple-comparison correction.
	PValue    float64 `json:"p_value"`
	AdjustedP float64 `json:"adjusted_p"`
	// Regression is true when AdjustedP < Alpha (stats.Below) and the
	// pass rate dropped.
	Regression bool `json:"regression"`
	// MinDetectableDrop is the power of the row's test at these sample
	// sizes: the smallest drop from the baseline's pass rate it would flag
	// (stats.MinDetectableDrop) at Alpha, or at Alpha/m under Holm's
	// correction over m rows (a p-value under Alpha/m is flagged whatever
	// the other rows show); null when no drop, not even to 0 passes, would be.
	MinDetectableDrop *float64 `json:"min_detectable_drop"`
}

// Compare matches combinations by scenario and combination id (the job id
// prefix, which depends on the file and combination only) and tests each for a drop in pass rate with Fisher's exact test,
// one-sided, on passed versus not passed (an incomplete run did not pass).
// The p-values are corrected for the number of combinations compared
// (Holm–Bonferroni unless Correction is "none"), so that a gate over many
// combinations does not fail by chance.
//
// The combinations are also tested together (Overall): the candidate's
// passes summed over the combinations, given each combination's totals, by
// the exact conditional test of a common odds ratio of 1 (stats.StratifiedLess),
// one-sided at Alpha. Stratifying keeps combinations with different base
// rates apart, as pooling them would not. The comparison fails on a
// significant regression overall or in any combination; each test holds
// Alpha on its own, so with nothing changed the gate fails by chance with
// probability at most 2·Alpha. Every p-value is decided against Alpha by
// stats.Below (p < α up to a relative 1e-9 of floating-point error), so a
// p-value equal to Alpha is not significant.
//
// The comparison refuses to be blind: with no combination in common it
// fails (NothingMatched), whatever the options; a baseline combination the candidate lacks, or a
// job of the candidate's run without a record (Summary.Missing: a shard
// missing or cut short), fails it unless opts.AllowMissing. It says, per
// row and overall, the smallest drop the tests could have flagged.
func Compare(baseline, candidate *Summary, opts CompareOptions) (*Comparison, error) {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	if opts.Correction == "" {
		opts.Correction = correctionHolm
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) { // NaN too: every p < NaN is false
		return nil, fmt.Errorf("compare: alpha %v is not in (0, 1)", opts.Alpha)
	}
	if !(opts.MinPassRate >= 0 && opts.MinPassRate <= 1) {
		return nil, fmt.Errorf("compare: minimum pass rate %v is not in [0, 1]", opts.MinPassRate)
	}
	if opts.Correction != correctionHolm && opts.Correction != correctionNone {
		return nil, fmt.Errorf("compare: unknown correction %q (want %s or %s)", opts.Correction, correctionHolm, correctionNone)
	}
	cmp := &Comparison{Alpha: opts.Alpha, MinPassRate: opts.MinPassRate, Correction: opts.Correction,
		Rows: []ComparisonRow{}, OnlyBaseline: []string{}, OnlyCandidate: []string{}, CandidateAll: candidate.Totals,
		CandidateMissing: []IndexRange{}, MissingShards: missingShards(candidate.Shards), AllowMissing: opts.AllowMissing}
	if candidate.MissingJobs > 0 {
		cmp.CandidateMissing, cmp.CandidateMissingJobs = slices.Clone(candidate.Missing), candidate.MissingJobs
	}
	base := map[string]*CombinationSummary{}
	for i := range baseline.Scenarios {
		for j := range baseline.Scenarios[i].Combinations {
			c := &baseline.Scenarios[i].Combinations[j]
			base[c.Key] = c
		}
	}
	seen := map[string]bool{}
	var bt, ct [3]int
	var strata []stats.Table2x2
	for _, sc := range candidate.Scenarios {
		for _, c := range sc.Combinations {
			b, ok := base[c.Key]
			if !ok {
				cmp.OnlyCandidate = append(cmp.OnlyCandidate, c.Key)
				continue
			}
			seen[c.Key] = true
			row := ComparisonRow{Key: c.Key, Scenario: sc.ID, Label: c.Label, Baseline: b.Counts, Candidate: c.Counts,
				Delta:  c.PassRate - b.PassRate,
				PValue: stats.RoundP(stats.FisherLess(b.Passed, b.Runs-b.Passed, c.Passed, c.Runs-c.Passed))}
			cmp.Rows = append(cmp.Rows, row)
			strata = append(strata, stats.Table2x2{Succ1: b.Passed, Fail1: b.Runs - b.Passed, Succ2: c.Passed, Fail2: c.Runs - c.Passed})
			bt[0], bt[1], bt[2] = bt[0]+b.Runs, bt[1]+b.Completed, bt[2]+b.Passed
			ct[0], ct[1], ct[2] = ct[0]+c.Runs, ct[1]+c.Completed, ct[2]+c.Passed
		}
	}
	for _, sc := range baseline.Scenarios {
		for _, c := range sc.Combinations {
			if !seen[c.Key] {
				cmp.OnlyBaseline = append(cmp.OnlyBaseline, c.Key)
			}
		}
	}
	slices.Sort(cmp.OnlyBaseline)
	slices.Sort(cmp.OnlyCandidate)
	cmp.Baseline = newCounts(bt[0], bt[1], bt[2])
	cmp.Candidate = newCounts(ct[0], ct[1], ct[2])
	ps := make([]float64, len(cmp.Rows))
	for i, r := range cmp.Rows {
		ps[i] = r.PValue
	}
	if opts.Correction == correctionHolm {
		ps = stats.Holm(ps)
	}
	rowAlpha := opts.Alpha
	if opts.Correction == correctionHolm {
		rowAlpha = opts.Alpha / float64(len(cmp.Rows))
	}
	for i := range cmp.Rows {
		r := &cmp.Rows[i]
		r.AdjustedP = stats.RoundP(ps[i])
		r.Regression = r.Delta < 0 && stats.Below(ps[i], opts.Alpha)
		if r.Regression {
			cmp.Regressions++
		}
		if d, ok := stats.MinDetectableDrop(r.Baseline.Passed, r.Baseline.Runs, r.Candidate.Runs, rowAlpha); ok {
			r.MinDetectableDrop = &d
		}
	}
	overall := stats.StratifiedLess(strata)
	o := &cmp.Overall
	o.Method, o.Observed, o.Expected, o.Combinations, o.PValue = overall.Method, overall.Observed, overall.Expected, overall.Strata, stats.RoundP(overall.PValue)
	o.Regression = stats.Below(overall.PValue, opts.Alpha) && float64(overall.Observed) < overall.Expected
	if d, ok := stats.MinDetectableStratifiedDrop(strata, opts.Alpha); ok {
		o.MinDetectableDrop = &d
	}
	cmp.BelowMinPassRate = opts.MinPassRate > 0 && candidate.Totals.PassRate < opts.MinPassRate
	cmp.Incomplete = !opts.AllowMissing && (len(cmp.OnlyBaseline) > 0 || cmp.CandidateMissingJobs > 0 || len(cmp.MissingShards) > 0)
	cmp.NothingMatched = len(cmp.Rows) == 0
	cmp.Failed = cmp.Regressions > 0 || cmp.Overall.Regression || cmp.BelowMinPassRate || cmp.Incomplete || cmp.NothingMatched
	return cmp, nil
}

// missingShards returns the shards of a sharded run ("i/n") of which no
// results were read, given the shards that were: with 1/3 and 2/3 read,
// 3/3. Shards of different counts are each completed on their own count.
func missingShards(seen []string) []string {
	out := []string{}
	counts := map[int]bool{}
	have := map[string]bool{}
	for _, s := range seen {
		have[s] = true
		if _, n, ok := strings.Cut(s, "/"); ok {
			if c, err := strconv.Atoi(n); err == nil && c > 0 && c <= 1<<20 {
				counts[c] = true
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(counts)) {
		for i := 1; i <= n; i++ {
			if s := strconv.Itoa(i) + "/" + strconv.Itoa(n); !have[s] {
				out = append(out, s)
			}
		}
	}
	return out
}
