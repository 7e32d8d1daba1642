// Package stats holds agenteval's statistics: the tests and intervals that
// report and compare runs.
//
// StratifiedLess tests many 2×2 tables together for a drop in the second
// group's success rate (the compare gate's overall test). Mulberry32,
// BootstrapCI, BootstrapReductionCI, Median, Describe, CohensD,
// PermutationTest and CompareGroups reproduce the statistics of ghx's
// agent-profiler bit for bit, so an efficiency comparison here gives the
// numbers ghx gives for the same samples and seed.
package stats
