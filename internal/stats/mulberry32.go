package stats

// Mulberry32 is the seedable 32-bit generator ghx's agent-profiler draws its
// bootstrap resamples and permutations from. Seeded alike, it gives the
// same numbers as ghx's mulberry32, so resampling here picks the same
// indices in the same order. It is small and fast, not for cryptography.
type Mulberry32 struct {
	state uint32
}

// NewMulberry32 returns a generator seeded with the low 32 bits of seed, as
// JavaScript's `seed | 0` keeps them: -1 and 1<<32−1 are the same seed, and
// 1<<32 is seed 0.
func NewMulberry32(seed int64) *Mulberry32 {
	return &Mulberry32{state: uint32(seed)}
}

// Float64 returns the next number in [0, 1), a multiple of 2⁻³².
//
// ghx works on JavaScript numbers with Math.imul and `| 0`, which wrap at
// 32 bits; uint32 arithmetic wraps alike, and the bits are the same whether
// read signed or unsigned until the last step, where ghx takes them
// unsigned (`>>> 0`).
func (m *Mulberry32) Float64() float64 {
	m.state += 0x6D2B79F5
	s := m.state
	t := (s ^ s>>15) * (1 | s)
	t = (t + (t^t>>7)*(61|t)) ^ t
	return float64(t^t>>14) / 4294967296
}

// index returns floor(Float64()·n), a uniform index into n items, computed
// as ghx computes it (Math.floor(rng() * n)). The product is below n for
// every n: Float64 is at most 1−2⁻³², far more than a rounding step below 1.
func (m *Mulberry32) index(n int) int {
	return int(m.Float64() * float64(n))
}
