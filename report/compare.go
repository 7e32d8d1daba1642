package report

import (
	"cmp"
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
	// MaxRows bounds the rows listed (DefaultMaxCombinations when 0): with
	// more matched combinations, Rows holds the MaxRows with the smallest
	// adjusted p-values (then raw p-values), in the candidate's order, and
	// MoreRows counts the rest; OnlyBaseline and OnlyCandidate are cut
	// likewise. Every test and total covers all of them.
	MaxRows int
}

// Comparison is the outcome of comparing a candidate run with a baseline.
type Comparison struct {
	// reviewed counts the verdicts a person's review gave, in the
	// baseline and in the candidate (labels.jsonl; CompareResults).
	reviewed [2]int64

	Alpha       float64 `json:"alpha"`
	MinPassRate float64 `json:"min_pass_rate"`
	Correction  string  `json:"correction"`
	// Baseline and Candidate total the matched combinations only.
	Baseline  Counts `json:"baseline"`
	Candidate Counts `json:"candidate"`
	// CandidateAll totals every candidate job; MinPassRate applies to it.
	CandidateAll Counts `json:"candidate_all"`
	// Rows are the combinations present in both, in the candidate's order
	// (at most CompareOptions.MaxRows: the most significant).
	Rows []ComparisonRow `json:"rows"`
	// MoreRows counts the matched combinations Rows leaves out.
	MoreRows int `json:"more_rows,omitempty"`
	// OnlyBaseline and OnlyCandidate are combination keys present on one
	// side, sorted (the first CompareOptions.MaxRows of each).
	OnlyBaseline  []string `json:"only_baseline"`
	OnlyCandidate []string `json:"only_candidate"`
	// MoreOnlyBaseline and MoreOnlyCandidate count the keys left out of them.
	MoreOnlyBaseline  int `json:"more_only_baseline,omitempty"`
	MoreOnlyCandidate int `json:"more_only_candidate,omitempty"`
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
	c, _, err := compareSides(newSummarySide(baseline), newSummarySide(candidate), opts)
	return c, err
}

// sideCombo is what a comparison needs of one combination of one side.
type sideCombo struct {
	key, scenario           string
	runs, completed, passed int
}

// compareSide is one side of a comparison: its combinations in order (a
// Summary's, or every combination of a Results, which no Summary lists
// in full), found by key, labelled on demand (only listed rows are), and
// its run's totals and missing jobs and shards.
type compareSide interface {
	len() int
	at(i int) sideCombo
	find(key string) (int, bool)
	label(i int) string
	totals() Counts
	missing() (ranges []IndexRange, jobs int64, shards []string)
}

// matchedPair is a combination present on both sides, by position, and
// its 2×2 table's index in the comparison's stats.Strata.
type matchedPair struct {
	cand, base, table int32
}

// compareSides compares the two sides (see Compare). It also returns the
// matched combinations, in the candidate's order. It holds a few words
// per matched combination, never a row: only the listed rows are built,
// and the tests work per distinct 2×2 table (at 10^6 combinations there
// are a handful), not per combination.
func compareSides(base, cand compareSide, opts CompareOptions) (*Comparison, []matchedPair, error) {
	if opts.Alpha == 0 {
		opts.Alpha = 0.05
	}
	if opts.Correction == "" {
		opts.Correction = correctionHolm
	}
	if opts.MaxRows <= 0 {
		opts.MaxRows = DefaultMaxCombinations
	}
	if !(opts.Alpha > 0 && opts.Alpha < 1) { // NaN too: every p < NaN is false
		return nil, nil, fmt.Errorf("compare: alpha %v is not in (0, 1)", opts.Alpha)
	}
	if !(opts.MinPassRate >= 0 && opts.MinPassRate <= 1) {
		return nil, nil, fmt.Errorf("compare: minimum pass rate %v is not in [0, 1]", opts.MinPassRate)
	}
	if opts.Correction != correctionHolm && opts.Correction != correctionNone {
		return nil, nil, fmt.Errorf("compare: unknown correction %q (want %s or %s)", opts.Correction, correctionHolm, correctionNone)
	}
	missing, missingJobs, shards := cand.missing()
	cmp := &Comparison{Alpha: opts.Alpha, MinPassRate: opts.MinPassRate, Correction: opts.Correction,
		Rows: []ComparisonRow{}, OnlyBaseline: []string{}, OnlyCandidate: []string{}, CandidateAll: cand.totals(),
		CandidateMissing: []IndexRange{}, MissingShards: missingShards(shards), AllowMissing: opts.AllowMissing}
	if missingJobs > 0 {
		cmp.CandidateMissing, cmp.CandidateMissingJobs = slices.Clone(missing), missingJobs
	}
	seen := make([]bool, base.len())
	var bt, ct [3]int
	// Sized once: at 10^6 combinations, growing it would leave a quarter
	// more behind.
	matched := make([]matchedPair, 0, min(cand.len(), base.len()))
	var strata stats.Strata
	for i := range cand.len() {
		c := cand.at(i)
		bi, ok := base.find(c.key)
		if !ok {
			cmp.OnlyCandidate = append(cmp.OnlyCandidate, c.key)
			continue
		}
		seen[bi] = true
		b := base.at(bi)
		t := strata.Add(stats.Table2x2{Succ1: b.passed, Fail1: b.runs - b.passed, Succ2: c.passed, Fail2: c.runs - c.passed})
		matched = append(matched, matchedPair{cand: int32(i), base: int32(bi), table: int32(t)})
		bt[0], bt[1], bt[2] = bt[0]+b.runs, bt[1]+b.completed, bt[2]+b.passed
		ct[0], ct[1], ct[2] = ct[0]+c.runs, ct[1]+c.completed, ct[2]+c.passed
	}
	for i, ok := range seen {
		if !ok {
			cmp.OnlyBaseline = append(cmp.OnlyBaseline, base.at(i).key)
		}
	}
	slices.Sort(cmp.OnlyBaseline)
	slices.Sort(cmp.OnlyCandidate)
	onlyBaseline := len(cmp.OnlyBaseline)
	if n := len(cmp.OnlyBaseline); n > opts.MaxRows {
		cmp.OnlyBaseline, cmp.MoreOnlyBaseline = slices.Clip(cmp.OnlyBaseline[:opts.MaxRows]), n-opts.MaxRows
	}
	if n := len(cmp.OnlyCandidate); n > opts.MaxRows {
		cmp.OnlyCandidate, cmp.MoreOnlyCandidate = slices.Clip(cmp.OnlyCandidate[:opts.MaxRows]), n-opts.MaxRows
	}
	cmp.Baseline = newCounts(bt[0], bt[1], bt[2])
	cmp.Candidate = newCounts(ct[0], ct[1], ct[2])
	// Every test is a function of the table: p-values, their correction
	// (equal p-values share Holm's adjustment) and the decision are
	// computed once a distinct table.
	ps := make([]float64, len(strata.Tables))
	regressed := make([]bool, len(strata.Tables))
	for i, t := range strata.Tables {
		ps[i] = stats.FisherLess(t.Succ1, t.Fail1, t.Succ2, t.Fail2)
	}
	adjusted := ps
	if opts.Correction == correctionHolm {
		adjusted = stats.HolmCounted(ps, strata.Counts)
	}
	for i, t := range strata.Tables {
		regressed[i] = stats.Rate(t.Succ2, t.Succ2+t.Fail2) < stats.Rate(t.Succ1, t.Succ1+t.Fail1) && stats.Below(adjusted[i], opts.Alpha)
		if regressed[i] {
			cmp.Regressions += strata.Counts[i]
		}
	}
	rowAlpha := opts.Alpha
	if opts.Correction == correctionHolm {
		rowAlpha = opts.Alpha / float64(len(matched))
	}
	for _, m := range listedRows(matched, ps, adjusted, strata.Counts, opts.MaxRows) {
		pair := matched[m]
		b, c := base.at(int(pair.base)), cand.at(int(pair.cand))
		bc, cc := newCounts(b.runs, b.completed, b.passed), newCounts(c.runs, c.completed, c.passed)
		row := ComparisonRow{Key: c.key, Scenario: c.scenario, Label: cand.label(int(pair.cand)),
			Baseline: bc, Candidate: cc, Delta: cc.PassRate - bc.PassRate,
			PValue: stats.RoundP(ps[pair.table]), AdjustedP: stats.RoundP(adjusted[pair.table]), Regression: regressed[pair.table]}
		if d, ok := stats.MinDetectableDrop(bc.Passed, bc.Runs, cc.Runs, rowAlpha); ok {
			row.MinDetectableDrop = &d
		}
		cmp.Rows = append(cmp.Rows, row)
	}
	cmp.MoreRows = len(matched) - len(cmp.Rows)
	overall := strata.Less()
	o := &cmp.Overall
	o.Method, o.Observed, o.Expected, o.Combinations, o.PValue = overall.Method, overall.Observed, overall.Expected, overall.Strata, stats.RoundP(overall.PValue)
	o.Regression = stats.Below(overall.PValue, opts.Alpha) && float64(overall.Observed) < overall.Expected
	if d, ok := strata.MinDetectableDrop(opts.Alpha); ok {
		o.MinDetectableDrop = &d
	}
	cmp.BelowMinPassRate = opts.MinPassRate > 0 && cmp.CandidateAll.PassRate < opts.MinPassRate
	cmp.Incomplete = !opts.AllowMissing && (onlyBaseline > 0 || cmp.CandidateMissingJobs > 0 || len(cmp.MissingShards) > 0)
	cmp.NothingMatched = len(matched) == 0
	cmp.Failed = cmp.Regressions > 0 || cmp.Overall.Regression || cmp.BelowMinPassRate || cmp.Incomplete || cmp.NothingMatched
	return cmp, matched, nil
}

// listedRows returns the positions in matched of the rows a comparison
// lists, in order: all of them, or the max most significant (smallest
// adjusted p-value, then raw p-value, then the earlier row; adjusted
// p-values tie at 1 by the thousand). ps and adjusted are by table, counts
// how many rows have each table. It works per distinct table, then takes
// the rows in one pass, without sorting the rows.
func listedRows(matched []matchedPair, ps, adjusted []float64, counts []int, limit int) []int {
	if len(matched) <= limit {
		out := make([]int, len(matched))
		for m := range out {
			out[m] = m
		}
		return out
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	key := func(a, b int) int { return cmp.Or(cmpFloat(adjusted[a], adjusted[b]), cmpFloat(ps[a], ps[b])) }
	slices.SortFunc(order, key)
	// Tables are taken whole (all) while they fit; the tables tied with
	// the first that does not fit share what is left, earlier rows first.
	all, partial := make([]bool, len(ps)), make([]bool, len(ps))
	left := limit
	for j := 0; j < len(order) && left > 0; {
		k, tied := j, 0
		for ; k < len(order) && key(order[j], order[k]) == 0; k++ {
			tied += counts[order[k]]
		}
		fits := tied <= left
		for _, t := range order[j:k] {
			all[t], partial[t] = fits, !fits
		}
		if !fits {
			break
		}
		left -= tied
		j = k
	}
	out := make([]int, 0, limit)
	for m, pair := range matched {
		switch {
		case all[pair.table]:
			out = append(out, m)
		case partial[pair.table] && left > 0:
			out = append(out, m)
			left--
		}
	}
	return out
}

// cmpFloat orders p-values (none is NaN).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// summarySide is the combinations a Summary lists, as one side of a comparison.
type summarySide struct {
	s      *Summary
	combos []*CombinationSummary
	scen   []string
	byKey  map[string]int
}

func newSummarySide(s *Summary) *summarySide {
	side := &summarySide{s: s, byKey: map[string]int{}}
	for i := range s.Scenarios {
		sc := &s.Scenarios[i]
		for j := range sc.Combinations {
			c := &sc.Combinations[j]
			side.byKey[c.Key] = len(side.combos) // the last of a repeated key, as a map of them kept
			side.combos = append(side.combos, c)
			side.scen = append(side.scen, sc.ID)
		}
	}
	return side
}

func (s *summarySide) len() int { return len(s.combos) }
func (s *summarySide) at(i int) sideCombo {
	c := s.combos[i]
	return sideCombo{key: c.Key, scenario: s.scen[i], runs: c.Runs, completed: c.Completed, passed: c.Passed}
}
func (s *summarySide) find(key string) (int, bool) { i, ok := s.byKey[key]; return i, ok }
func (s *summarySide) label(i int) string          { return s.combos[i].Label }
func (s *summarySide) totals() Counts              { return s.s.Totals }
func (s *summarySide) missing() ([]IndexRange, int64, []string) {
	return s.s.Missing, s.s.MissingJobs, s.s.Shards
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
