package report

// bitset marks job indexes 0..n−1; it ignores indexes outside that range.
type bitset struct {
	words []uint64
	n     int64
}

func newBitset(n int64) bitset {
	return bitset{words: make([]uint64, (n+63)/64), n: n}
}

func (b bitset) set(i int64) {
	if i >= 0 && i < b.n {
		b.words[i/64] |= 1 << (i % 64)
	}
}

func (b bitset) has(i int64) bool {
	return i >= 0 && i < b.n && b.words[i/64]&(1<<(i%64)) != 0
}

// IndexRange is an inclusive range of job indexes.
type IndexRange struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// missing returns the unset indexes as ranges and their count.
func (b bitset) missing() ([]IndexRange, int64) {
	var out []IndexRange
	var count int64
	for i := int64(0); i < b.n; {
		w := b.words[i/64]
		if i%64 == 0 && w == ^uint64(0) && i+64 <= b.n {
			i += 64
			continue
		}
		if b.has(i) {
			i++
			continue
		}
		j := i
		for j+1 < b.n && !b.has(j+1) {
			j++
		}
		out = append(out, IndexRange{From: i, To: j})
		count += j - i + 1
		i = j + 1
	}
	return out, count
}
