package sim

import "math/bits"

// rng is a small deterministic generator (SplitMix64) kept inline in each
// simulated client, so that 500,000 clients need no allocation for their
// random sources. It implements runtime/retry's Source.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Int64N returns a uniform value in [0, n), n > 0 (Lemire's method, unbiased).
func (r *rng) Int64N(n int64) int64 {
	if n <= 0 {
		return 0
	}
	un := uint64(n)
	hi, lo := bits.Mul64(r.next(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.next(), un)
		}
	}
	return int64(hi)
}

// Float64 returns a uniform value in [0, 1).
func (r *rng) Float64() float64 { return float64(r.next()>>11) / (1 << 53) }

// seedFor derives the seed of stream i from the run's seed.
func seedFor(seed uint64, stream uint64) rng {
	r := rng(seed ^ (stream+1)*0xd1b54a32d192ed03)
	r.next()
	return r
}
