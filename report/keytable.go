package report

import "hash/maphash"

// keyTable finds a combination by its key: an open-addressed table of
// indexes into Results.combos, whose keys it compares, kept at most half
// full. It costs 4 to 8 bytes a combination where a map[string]int32 costs
// about 35, which matters at 10^6 combinations.
type keyTable struct {
	seed  maphash.Seed
	slots []int32 // combination index + 1; 0 is empty
	n     int
}

func newKeyTable() keyTable { return keyTable{seed: maphash.MakeSeed(), slots: make([]int32, 64)} }

// find returns the index of the combination whose key is key.
func (t *keyTable) find(combos []combo, key string) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(t.seed, key) & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if combos[v-1].key == key {
			return v - 1, true
		}
	}
}

// add records that combos[ci] has its key (not in the table yet).
func (t *keyTable) add(combos []combo, ci int32) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, 2*len(old))
		for _, v := range old {
			if v != 0 {
				t.put(combos, v)
			}
		}
	}
	t.put(combos, ci+1)
	t.n++
}

func (t *keyTable) put(combos []combo, v int32) {
	mask := uint64(len(t.slots) - 1)
	i := maphash.String(t.seed, combos[v-1].key) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = v
}
