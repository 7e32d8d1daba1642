package report

import "slices"

// IndexRange is an inclusive range of job indexes.
type IndexRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// missingRanges returns the indexes in 0..total−1 absent from have (which
// it sorts), as ranges, and how many there are. Memory is proportional to
// the jobs recorded, not to total.
func missingRanges(have []int64, total int64) ([]IndexRange, int64) {
	slices.Sort(have)
	var out []IndexRange
	var count int64
	next := int64(0) // smallest index not yet accounted for
	for _, i := range have {
		if i >= total {
			break
		}
		if i > next {
			out = append(out, IndexRange{From: next, To: i - 1})
			count += i - next
		}
		next = max(next, i+1)
	}
	if next < total {
		out = append(out, IndexRange{From: next, To: total - 1})
		count += total - next
	}
	return out, count
}
