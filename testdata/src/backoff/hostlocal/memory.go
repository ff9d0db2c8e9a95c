package hostlocal

import (
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

var errTaken = errors.New("taken")

// leases is an in-process table of leases, kept under a mutex.
type leases struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (l *leases) tryTake(key string, d time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.until[key]; ok && time.Now().Before(t) {
		return errTaken
	}
	l.until[key] = time.Now().Add(d)
	return nil
}

// Take waits for another goroutine of the process to give the lease
// up: each attempt reads a map under a mutex, and no dependency is
// stormed by the fixed pause. Not reported.
func (l *leases) Take(key string, d time.Duration) error {
	for i := 0; i < 5; i++ {
		if err := l.tryTake(key, d); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errTaken
}

// TakeSpinning tries again at once and for ever: it spins on the lock,
// but asks no dependency anything. Not reported.
func (l *leases) TakeSpinning(key string, d time.Duration) {
	for {
		if err := l.tryTake(key, d); err == nil {
			return
		}
	}
}

// tokens is a counter other goroutines give back to.
type tokens struct{ n atomic.Int64 }

func (t *tokens) take() error {
	n := t.n.Load()
	if n <= 0 || !t.n.CompareAndSwap(n, n-1) {
		return errTaken
	}
	return nil
}

// Acquire polls the counter: in memory too. Not reported.
func (t *tokens) Acquire() error {
	for i := 0; i < 10; i++ {
		if err := t.take(); err == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errTaken
}

// remoteLeases keeps its table under a mutex too, but asks a lock
// service for each lease.
type remoteLeases struct {
	mu   sync.Mutex
	held map[string]bool
	addr string
}

func (l *remoteLeases) tryTake(key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, err := net.Dial("tcp", l.addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("LOCK " + key)); err != nil {
		return err
	}
	l.held[key] = true
	return nil
}

// The near miss: the attempt reaches the lock service, which every
// client retries at the same fixed pace. Reported.
func (l *remoteLeases) Take(key string) error {
	for i := 0; i < 5; i++ {
		if err := l.tryTake(key); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return errTaken
}

// handoff receives what a worker goroutine fetched: the channel may
// carry a dependency's answer, so the attempt is not known to stay in
// memory.
type handoff struct {
	mu      sync.Mutex
	results chan error
}

func (h *handoff) next() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return <-h.results
}

// The near miss: reported as any retry of an unknown call is.
func (h *handoff) Await() error {
	for i := 0; i < 5; i++ {
		if err := h.next(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return errTaken
}

// TakeOrStop waits for the lease with a stop channel beside the pause:
// receiving from stop ends the wait, it fetches nothing. Not reported.
func (l *leases) TakeOrStop(key string, d time.Duration, stop <-chan struct{}) error {
	for {
		if err := l.tryTake(key, d); err == nil {
			return nil
		}
		select {
		case <-time.After(100 * time.Millisecond):
		case <-stop:
			return errTaken
		}
	}
}

// The near miss: the select also takes what a worker goroutine hands
// over, which may be a dependency's answer. Reported.
func (l *leases) TakeOrHandoff(key string, d time.Duration, results <-chan error) error {
	for {
		if err := l.tryTake(key, d); err == nil {
			return nil
		}
		select {
		case <-time.After(100 * time.Millisecond): // want `retry delay has no jitter`
		case err := <-results:
			return err
		}
	}
}
