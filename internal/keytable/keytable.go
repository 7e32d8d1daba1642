// Package keytable finds an item among many by its string key: an
// open-addressed table of indexes into the caller's slice, which holds the
// keys, kept at most half full. It costs 4 to 8 bytes an item where a
// map[string]int32 costs about 35 besides the key, which matters at 10^6
// keys (report's combinations, plan's history).
package keytable

import "hash/maphash"

// Table maps keys to indexes of the caller's items; the zero Table is
// empty and ready. The caller keeps the keys: every method takes key,
// which returns the key of an index added.
type Table struct {
	seed  maphash.Seed
	slots []int32 // index + 1; 0 is empty
	n     int
}

// Len is the number of indexes added.
func (t *Table) Len() int { return t.n }

// Find returns the index whose key is k.
func (t *Table) Find(k string, key func(i int32) string) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(t.seed, k) & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if key(v-1) == k {
			return v - 1, true
		}
	}
}

// Add records index i, whose key is not in the table yet.
func (t *Table) Add(i int32, key func(i int32) string) {
	if t.slots == nil {
		t.seed, t.slots = maphash.MakeSeed(), make([]int32, 64)
	}
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, 2*len(old))
		for _, v := range old {
			if v != 0 {
				t.put(v, key)
			}
		}
	}
	t.put(i+1, key)
	t.n++
}

func (t *Table) put(v int32, key func(i int32) string) {
	mask := uint64(len(t.slots) - 1)
	i := maphash.String(t.seed, key(v-1)) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = v
}
