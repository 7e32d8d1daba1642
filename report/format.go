package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// pct formats a proportion as a percentage with one decimal.
func pct(p float64) string { return strconv.FormatFloat(p*100, 'f', 1, 64) + "%" }

// rateText formats a pass or completion rate with its interval, or "n/a"
// when there were no runs.
func rateText(part, runs int, rate float64, iv Interval) string {
	if runs == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%s (%d/%d) [%s, %s]", pct(rate), part, runs, pct(iv.Lower), pct(iv.Upper))
}

// ms formats milliseconds for people: ms below a second, seconds above.
// roundMS rounds a duration in milliseconds to the microsecond, which is
// all a wall clock measures of an agent's job: sums and interpolated
// percentiles otherwise print floating-point noise (65.35900000000001).
func roundMS(v float64) float64 { return math.Round(v*1000) / 1000 }

func ms(v float64) string {
	if v < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(v/1000, 'f', 2, 64) + " s"
}

// rangesText renders index ranges as "3, 7-9".
func rangesText(rs []IndexRange, limit int) string {
	var b strings.Builder
	for i, r := range rs {
		if i == limit {
			fmt.Fprintf(&b, ", … (%d more ranges)", len(rs)-limit)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if r.From == r.To {
			fmt.Fprintf(&b, "%d", r.From)
		} else {
			fmt.Fprintf(&b, "%d-%d", r.From, r.To)
		}
	}
	return b.String()
}

// kText formats a chosen pass@k / pass^k pair, or "n/a".
func kText(kv *KValue) (string, string) {
	if kv == nil {
		return "n/a", "n/a"
	}
	return pct(kv.PassAtK), pct(kv.PassHatK)
}

// evalWhere says where an evaluation sits in its scenario file, as a field
// path: "run[0].evaluations", "run[1].conversation.final_evaluations", or
// for a turn evaluation also which transcript message it judged (counted
// from 1).
func evalWhere(e results.Evaluation) string {
	switch e.Scope {
	case "turn":
		return fmt.Sprintf("run[%d].conversation.turn_evaluations, message %d", e.Step, e.Turn+1)
	case "final":
		return fmt.Sprintf("run[%d].conversation.final_evaluations", e.Step)
	case "step", "":
		return fmt.Sprintf("run[%d].evaluations", e.Step)
	}
	return fmt.Sprintf("run[%d] (%s)", e.Step, e.Scope)
}

// sortedPaths returns the parameter paths of params in order.
func sortedPaths(params map[string]any) []string {
	paths := make([]string, 0, len(params))
	for p := range params {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}
