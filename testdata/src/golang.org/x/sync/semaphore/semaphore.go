// Package semaphore is a stub of golang.org/x/sync/semaphore for the
// analyzers' tests.
package semaphore

import "context"

// Weighted is a weighted semaphore.
type Weighted struct{ size, cur int64 }

// NewWeighted returns a semaphore of n.
func NewWeighted(n int64) *Weighted { return &Weighted{size: n} }

// Acquire waits for n.
func (s *Weighted) Acquire(ctx context.Context, n int64) error {
	s.cur += n
	return ctx.Err()
}

// TryAcquire takes n without waiting, reporting whether it could.
func (s *Weighted) TryAcquire(n int64) bool {
	if s.cur+n > s.size {
		return false
	}
	s.cur += n
	return true
}

// Release gives n back.
func (s *Weighted) Release(n int64) { s.cur -= n }
