package events

import (
	"sync"
	"sync/atomic"
	"time"
)

type source interface {
	Read(p []byte) (int, error)
	SetReadDeadline(t time.Time) error
}

// switcher reads from a source another goroutine may replace: the
// replacement raises swapped and interrupts the read in progress.
type switcher struct {
	mu      sync.Mutex
	cur     source
	swapped atomic.Bool
	resets  atomic.Int32
}

func (s *switcher) replace(src source) {
	s.mu.Lock()
	old := s.cur
	s.cur = src
	s.swapped.Store(true)
	s.mu.Unlock()
	old.SetReadDeadline(time.Now())
}

func (s *switcher) source() source {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Read goes round once for each replacement, to read from the new
// source; any other failure returns. Not reported.
func (s *switcher) Read(p []byte) (int, error) {
	for {
		n, err := s.source().Read(p)
		if err == nil || !s.swapped.Swap(false) {
			return n, err
		}
	}
}

// ReadReset goes round once for each reset another goroutine asked for,
// consumed with a compare-and-swap. Not reported.
func (s *switcher) ReadReset(p []byte) (int, error) {
	for {
		n, err := s.source().Read(p)
		if err != nil && s.resets.CompareAndSwap(1, 0) {
			continue
		}
		return n, err
	}
}

// rereads is raised by another goroutine for each reread it asks for.
var rereads int32

// ReadOrReread goes round once for each reread asked for, through the
// package's counter. Not reported.
func (s *switcher) ReadOrReread(p []byte) (int, error) {
	for {
		n, err := s.source().Read(p)
		if err == nil || !atomic.CompareAndSwapInt32(&rereads, 1, 0) {
			return n, err
		}
	}
}

// The near miss: the loop raises the flag itself, so the test is true
// on every failure, and the read is retried at once, for ever.
func (s *switcher) ReadAgain(p []byte) (int, error) {
	for { // want `retry loop tries again at once`
		n, err := s.source().Read(p)
		if err == nil {
			return n, nil
		}
		s.swapped.Store(true)
		if !s.swapped.Swap(false) {
			return n, err
		}
	}
}

// The near miss: Swap(true) raises the flag, it consumes nothing.
func (s *switcher) ReadRaising(p []byte) (int, error) {
	for { // want `retry loop has no bound` `retry loop tries again at once`
		n, err := s.source().Read(p)
		if err == nil || s.swapped.Swap(true) {
			return n, err
		}
	}
}
