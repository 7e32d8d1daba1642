// Package report reads the results JSONL that the runner writes (one or more
// shards), merges and deduplicates the job records, computes statistics per
// scenario, combination and matrix parameter, and renders them as JSON,
// Markdown, JUnit XML or one self-contained HTML page. It also compares two
// result sets and flags statistically significant regressions.
//
// # Reading and merging
//
// [Read] streams every input once. Records are read one line at a time and
// never kept: a job record's statistics fields are picked out of its line
// (internal/jsonl) without decoding its transcript, messages and details,
// and a line it does not read plainly is decoded by encoding/json, whose
// error makes it a malformed line (a line whose skipped values alone are
// not JSON, which no writer makes, is read by its fields). Per job it keeps only a compact slot (where the record lies in
// its input, its duration, efficiency and outcome), per combination its key
// and counts, and per scenario the additive tallies, so memory grows by a
// fixed amount per job and per combination, never with a record's text.
// Details a renderer needs later (evaluation messages, transcripts, a listed
// combination's own figures) are read back from the inputs by offset
// ([Results.Jobs]), so the inputs must stay readable while the [Results] is
// in use.
//
// Records are deduplicated by job id ("source/combination/run-N", where
// source is a scenario's or a matrix file's id: the id the file writes, or
// its file name without suffix, with the folders under their deepest common
// directory only when two files of the run share a name; it never depends on
// which other paths a run was given or where it ran from, so [Compare]
// matches two runs' jobs by it). Of two records with the same id in one
// results file, the later one wins: run --retry and run --resume append, so
// the latest record of a job is its verdict, as run counts it
// (results.Writer.Tally). Of two records with the same id in different inputs
// (overlapping shards), a completed record wins over an incomplete one, and
// otherwise the one in the later input given. A resumed run (run --resume)
// skips every job already recorded, incomplete ones included, and records
// only the jobs that never ran; run --retry failed|incomplete reruns those
// and appends their new records.
//
// The record types ([results.Plan], [results.Job], [results.Evaluation], [results.Turn], [Usage]) mirror the
// runner's JSON field by field; this package imports nothing of the project
// so that imports keep flowing one way (the runner may render reports, never
// the reverse).
//
// Cost: a job's cost (results.Cost: agent, simulated user and judge, each
// priced by its own model, the agent's the cost the agent itself reported
// when it did, as coding-agent CLIs do; null when its model has no
// price) is totalled
// per scenario, combination and run by role in billionths of a dollar
// ([Stats.Cost], [Summary.Cost]: an amount is unknown when any job's is,
// and the models without a price are listed); a suite's variants have a
// median cost per job, and a comparison's efficiency rows a cost_usd row
// when every matched job on both sides has a known cost. Dollars print
// with cents from $1 up, else with three significant digits.
//
// Memory: a slot of 40 bytes per job, which holds the record's input and
// offset, its duration (kept exactly, so percentiles are exact rather than
// sketched) and outcome, and 32 more for its tokens, tool calls, turns and
// cost (a float32) when it recorded any; per combination its key
// and counts (48 bytes and the key's text); per scenario the additive
// tallies (counts, tokens, termination reasons, evaluation failures) and
// the counts of each matrix parameter's first Options.MaxCombinations
// values (the runs of the others counted together). Of two duplicate
// records, the loser's contribution is re-read by offset and subtracted, so
// nothing else per job is kept. Missing indexes are found by sorting the
// recorded indexes (8 bytes per job, freed after reading), never by
// allocating over the plan's total_jobs. Measured on the one-axis echo
// workload (one combination a job): about 175 bytes per job retained, and
// `report --format json` over 10^6 jobs peaks near 430 MB of RSS.
//
// Reports over many combinations are bounded: a scenario lists its first
// Options.MaxCombinations combinations in job order
// ([ScenarioSummary.MoreCombinations] counts the rest, and every renderer
// says so), while its totals, rates, flakiness, pass@k and percentiles cover
// all of them; a comparison lists its CompareOptions.MaxRows most
// significant rows ([Comparison.MoreRows]) and tests all of them; JUnit,
// which CI servers count, keeps every job, streamed. Nothing is quadratic in
// the combinations or a parameter's values.
//
// # Statistics
//
// Completion (the run reached the judgment) and success (the verdict passed)
// are separate numbers everywhere: a pass rate is passed/runs, a completion
// rate is completed/runs, each with a Wilson 95% score interval. pass@k and
// pass^k use the unbiased estimators 1−C(n−c,k)/C(n,k) and C(c,k)/C(n,k) over
// a combination's n runs with c passes; a scenario's value for k averages its
// combinations that have at least k runs. A combination is flaky when its
// completed runs disagree on the verdict (an incomplete run is an
// infrastructure outcome, not a verdict, and does not make it flaky).
// Duration percentiles interpolate linearly between closest ranks over all
// recorded runs. With no runs a Wilson interval is [0, 1] and the rate is 0;
// renderers print "n/a".
//
// [Compare] tests each combination present in both runs with a one-sided
// Fisher exact test on passed versus not passed, adjusted for the number of
// combinations with Holm–Bonferroni, and all of them together with a
// one-sided exact conditional test stratified by combination (the
// Cochran–Mantel–Haenszel approximation when the counts are too large for
// it), which sees a drop spread over many combinations that no single one
// can show. Either test failing fails the comparison. Every p-value is
// decided against α by stats.Below (p < α, up to a relative 1e-9 of
// floating-point error, so p = α exactly is not significant). Two runs with no
// combination in common are an error ([ErrNothingMatched]); baseline
// combinations the candidate lacks and candidate jobs or shards that never
// ran fail the comparison unless [CompareOptions].AllowMissing. The
// comparison gives, per combination and overall, the smallest drop in pass
// rate its tests could flag at these run counts (its power).
package report
