package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agenteval/agenteval/results"
)

// costRecord is a job record's cost as the first pass decodes it: each
// amount with whether it is known, without an allocation per amount.
type costRecord struct {
	USD      nullUSD  `json:"usd"`
	Agent    nullUSD  `json:"agent_usd"`
	User     nullUSD  `json:"user_usd"`
	Judge    nullUSD  `json:"judge_usd"`
	Unpriced []string `json:"unpriced"`
	AsOf     []string `json:"as_of"`
	present  bool
}

// UnmarshalJSON marks the cost present (a record without one leaves it
// absent: the run priced nothing).
func (c *costRecord) UnmarshalJSON(b []byte) error {
	type plain costRecord
	var p plain
	if string(b) == "null" {
		return nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = costRecord(p)
	c.present = true
	return nil
}

// nullUSD is an amount of US dollars that may be null (unknown).
type nullUSD struct {
	v  float64
	ok bool
}

// UnmarshalJSON reads a number, or null as unknown.
func (n *nullUSD) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = nullUSD{}
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return err
	}
	*n = nullUSD{v: v, ok: true}
	return nil
}

// bits is the record's total as a slot keeps it (slotEff.costBits):
// math.Float32bits of the amount plus 1 (never 0: an amount is never
// negative), 0 when unknown or not priced, so that a job without a cost
// leaves its efficiency entry zero.
func (c *costRecord) bits() uint32 {
	if !c.present || !c.USD.ok || !(c.USD.v >= 0) {
		return 0
	}
	return math.Float32bits(float32(c.USD.v)) + 1
}

// cost is a job's total cost in US dollars, NaN when unknown or not priced.
func (e slotEff) cost() float64 {
	if e.costBits == 0 {
		return math.NaN()
	}
	return float64(math.Float32frombits(e.costBits - 1))
}

// costTally totals the costs of a tally's jobs; every field can be
// subtracted again. Amounts are summed in billionths of a dollar, so that
// totals carry no floating-point noise.
type costTally struct {
	priced int      // jobs with a cost
	nano   [4]int64 // known amounts: total, agent, user, judge
	// unknown counts the jobs whose amount is unknown, in nano's order.
	unknown  [4]int
	unpriced map[string]int // "role: model" → jobs
	asOf     map[string]int // price date → jobs
}

func (t *costTally) add(c *costRecord, sign int) {
	if !c.present {
		return
	}
	t.priced += sign
	for i, a := range [4]nullUSD{c.USD, c.Agent, c.User, c.Judge} {
		if a.ok {
			t.nano[i] += int64(sign) * int64(math.Round(a.v*1e9))
		} else {
			t.unknown[i] += sign
		}
	}
	addCounts(&t.unpriced, c.Unpriced, sign)
	addCounts(&t.asOf, c.AsOf, sign)
}

func (t *costTally) merge(o *costTally) {
	t.priced += o.priced
	for i := range t.nano {
		t.nano[i] += o.nano[i]
		t.unknown[i] += o.unknown[i]
	}
	for k, n := range o.unpriced {
		addCounts(&t.unpriced, []string{k}, n)
	}
	for k, n := range o.asOf {
		addCounts(&t.asOf, []string{k}, n)
	}
}

func addCounts(m *map[string]int, keys []string, n int) {
	for _, k := range keys {
		if *m == nil {
			*m = map[string]int{}
		}
		(*m)[k] += n
		if (*m)[k] == 0 {
			delete(*m, k)
		}
	}
}

// summary is the tally as the report shows it: each amount the sum of the
// jobs' own, unknown (nil) when any job's is; nil when no job was priced.
func (t *costTally) summary() *results.Cost {
	if t.priced <= 0 {
		return nil
	}
	out := &results.Cost{}
	for i, p := range [4]**float64{&out.USD, &out.Agent, &out.User, &out.Judge} {
		if t.unknown[i] == 0 {
			v := float64(t.nano[i]) / 1e9
			*p = &v
		}
	}
	out.Unpriced = slices.Sorted(maps.Keys(t.unpriced))
	out.AsOf = slices.Sorted(maps.Keys(t.asOf))
	return out
}

// usdText prints US dollars for people: cents from a dollar up, else
// three significant digits ("$0.00706"), trailing zeros dropped.
func usdText(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case math.Abs(v) >= 1:
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	}
	prec := min(9, max(2, 2-int(math.Floor(math.Log10(math.Abs(v))))))
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "0" || s == "-0" {
		s = strconv.FormatFloat(v, 'g', 3, 64)
	}
	return "$" + s
}

// amountText is an amount or "unknown".
func amountText(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return usdText(*v)
}

// costText says what a cost was, by role: "$0.00706 (agent $0.00042 ·
// user $0.000038 · judge $0.0066); prices as of 2026-03-21"; a part
// without a price is "unknown", and what has no price is named.
func costText(c *results.Cost) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (agent %s · user %s · judge %s)", amountText(c.USD), amountText(c.Agent), amountText(c.User), amountText(c.Judge))
	if len(c.Unpriced) > 0 {
		fmt.Fprintf(&b, "; no price for %s (give one with --prices)", strings.Join(c.Unpriced, ", "))
	}
	if len(c.AsOf) > 0 {
		fmt.Fprintf(&b, "; prices as of %s", strings.Join(c.AsOf, ", "))
	}
	return b.String()
}

// effMedianText prints an efficiency row's median: dollars for cost.
func effMedianText(metric string, v float64) string {
	if metric == "cost_usd" {
		return usdText(v)
	}
	return medianText(v)
}

// variantsPriced reports whether any variant has a median cost, so that
// tables show the column only for runs that were priced.
func variantsPriced(vs []VariantSummary) bool {
	return slices.ContainsFunc(vs, func(v VariantSummary) bool { return v.Median.CostUSD != nil })
}

// variantCostText is a variant's median cost, "unknown" when a job's
// cost is, "—" when no job completed.
func variantCostText(v VariantSummary) string {
	switch {
	case v.Completed == 0:
		return "—"
	case v.Median.CostUSD == nil:
		return "unknown"
	}
	return usdText(*v.Median.CostUSD)
}
