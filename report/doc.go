// Package report reads the results JSONL that the runner writes (one or more
// shards), merges and deduplicates the job records, computes statistics per
// scenario, combination and matrix parameter, and renders them as JSON,
// Markdown, JUnit XML or one self-contained HTML page. It also compares two
// result sets and flags statistically significant regressions.
//
// # Reading and merging
//
// [Read] streams every input once. Records are decoded one line at a time and
// never kept; per job it keeps only a compact slot (where the record lies in
// its input, its duration and outcome), so memory grows with the number of
// jobs by a few dozen bytes each, plus a bitset over the plan's job indexes.
// Details a renderer needs later (evaluation messages, transcripts) are read
// back from the inputs by offset ([Results.Jobs]), so the inputs must stay
// readable while the [Results] is in use.
//
// Records are deduplicated by job id ("scenario/combination/run-N"). Of two
// records with the same id, a completed record wins over an incomplete one;
// otherwise the later one wins, where later means a later input in the order
// given, or further down the same input. This makes a resumed run (which
// appends a new record for a job that failed to complete) and overlapping
// shards both merge to the best evidence available.
//
// # Statistics
//
// Completion (the run reached the judgment) and success (the verdict passed)
// are separate numbers everywhere: a pass rate is passed/runs, a completion
// rate is completed/runs, each with a Wilson 95% score interval. pass@k and
// pass^k use the unbiased estimators 1−C(n−c,k)/C(n,k) and C(c,k)/C(n,k) over
// a combination's n runs with c passes. A combination is flaky when its
// completed runs disagree on the verdict.
package report
