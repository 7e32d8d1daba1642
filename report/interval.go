package report

import "github.com/agenteval/agenteval/internal/stats"

// Interval is a closed interval of proportions: the Wilson 95% interval of
// a pass rate in a Summary.
type Interval = stats.Interval
