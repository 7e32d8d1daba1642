package matrix

import (
	"bytes"
	"hash/maphash"
)

// span is where a value's canonical form lies in its axis's canonText.
type span struct{ start, end int }

func (s span) of(text []byte) []byte { return text[s.start:s.end:s.end] }

// canonSet finds an axis's repeated values by their canonical forms, which
// lie in one text: a value costs one hash and one probe into a table of
// indexes, which copies no key and holds nothing for the collector to scan
// (a map[string]int hashed each value twice and kept a copy of each).
type canonSet struct {
	seed maphash.Seed
	// slots hold the top half of a value's hash (compared before its
	// bytes) and 1 + its index; 0 is a free slot.
	slots []uint64
}

// newCanonSet returns a set for up to n values; the table stays at most
// half full, so probes stay short and always end.
func newCanonSet(n int) *canonSet {
	size := 8
	for size < 2*n+1 {
		size <<= 1
	}
	return &canonSet{seed: maphash.MakeSeed(), slots: make([]uint64, size)}
}

// add records value j, whose canonical form is spans[j] of text, unless an
// earlier value has the same form: then it returns that value's index and
// true, and the set keeps the earlier one.
func (s *canonSet) add(text []byte, spans []span, j int) (int, bool) {
	key := spans[j].of(text)
	h := maphash.Bytes(s.seed, key)
	tag := h &^ (1<<32 - 1)
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := s.slots[i]
		if slot == 0 {
			s.slots[i] = tag | uint64(j+1)
			return 0, false
		}
		if slot&^(1<<32-1) == tag {
			if k := int(slot&(1<<32-1)) - 1; bytes.Equal(spans[k].of(text), key) {
				return k, true
			}
		}
	}
}
