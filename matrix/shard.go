package matrix

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard selects one of Count disjoint parts of a run; Index is 1-based. The
// zero Shard is the whole run.
//
// Jobs are dealt round-robin: the job at position k (0-based) of the run,
// after filters, belongs to shard k mod Count + 1. Dealing by position
// keeps shards within one job of each other in size, whatever the axes, and
// needs no hashing; the same matrix, filters and Count always deal the same
// way, so CI jobs or Kubernetes Indexed Jobs can each run "i/n" and their
// results merge into exactly the whole run.
type Shard struct {
	// Index is the part, from 1 to Count.
	Index int
	// Count is the number of parts.
	Count int
}

// String returns "i/n", or "1/1" for the whole run.
func (s Shard) String() string {
	s = s.norm()
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// IsWhole reports whether the shard is the whole run.
func (s Shard) IsWhole() bool { return s.norm().Count == 1 }

func (s Shard) norm() Shard {
	if s.Count == 0 && s.Index == 0 {
		return Shard{Index: 1, Count: 1}
	}
	return s
}

// Validate reports a shard that is not i/n with 1 <= i <= n (the zero
// Shard, the whole run, is valid).
func (s Shard) Validate() error {
	s = s.norm()
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("shard %d/%d: want i/n with 1 <= i <= n", s.Index, s.Count)
	}
	return nil
}

// Owns reports whether the shard holds the job at position index (0-based)
// of the run.
func (s Shard) Owns(index int64) bool {
	s = s.norm()
	return s.Count <= 1 || index >= 0 && index%int64(s.Count) == int64(s.Index-1)
}

// Size returns how many of total positions fall into the shard.
func (s Shard) Size(total int64) int64 {
	s = s.norm()
	first := int64(s.Index - 1)
	if total <= first {
		return 0
	}
	return (total-first-1)/int64(s.Count) + 1
}

// ParseShard parses "i/n" (1 <= i <= n), as given to --shard.
func ParseShard(text string) (Shard, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want i/n, such as 2/5 for the second of five parts", text)
	}
	i, err := atoi(is)
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: %q is not a whole number written with digits only (no sign, no leading zero)", text, is)
	}
	n, err := atoi(ns)
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: %q is not a whole number written with digits only (no sign, no leading zero)", text, ns)
	}
	if n < 1 {
		return Shard{}, fmt.Errorf("shard %q: the number of shards must be at least 1", text)
	}
	if i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: the shard number must be between 1 and %d (shards count from 1)", text, n)
	}
	return Shard{Index: i, Count: n}, nil
}

// atoi reads a whole number written with digits only (no sign, no spaces,
// no leading zeros), so that one shard has one spelling.
func atoi(s string) (int, error) {
	if s == "" || len(s) > 1 && s[0] == '0' || strings.TrimLeft(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}
