// Package draw hands out the indices of a list in random order, each
// once.
package draw

import "math/rand"

// Bag holds the indices not drawn yet.
type Bag struct{ left []int }

// New returns a bag of the indices 0..n-1.
func New(n int) *Bag {
	b := &Bag{}
	for i := 0; i < n; i++ {
		b.left = append(b.left, i)
	}
	return b
}

// Next returns an index not drawn before, or false when none is left.
func (b *Bag) Next() (int, bool) {
	if len(b.left) == 0 {
		return 0, false
	}
	k := rand.Intn(len(b.left))
	v := b.left[k]
	b.left = append(b.left[:k], b.left[k+1:]...)
	return v, true
}

// Ring hands out 0..n-1 round and round.
type Ring struct{ n, i int }

// Next returns the next index; there always is one.
func (r *Ring) Next() (int, bool) {
	r.i = (r.i + 1) % r.n
	return r.i, true
}
