package resume

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// A lease is held from a successful grant until the channel the grant
// handed out is closed (the lease expired or was taken over).
type leaseStore struct{ refused bool }

func (l *leaseStore) grant(ctx context.Context, key string) (<-chan struct{}, error) {
	if l.refused {
		return nil, errors.New("store unavailable")
	}
	return ctx.Done(), nil
}

// A session is held until its Done channel is closed.
type session struct{ done chan struct{} }

func (s *session) Done() <-chan struct{} { return s.done }

func (l *leaseStore) open(ctx context.Context) (*session, error) {
	if l.refused {
		return nil, errors.New("store unavailable")
	}
	return &session{done: make(chan struct{})}, nil
}

const regrantPause = 10 * time.Second

// Every contender waits the same fixed pause after a failed grant before
// asking again; a granted lease is held until its channel says it was
// lost, then asked for anew. The loop re-acquires after a success, as a
// watch does, and retries after a failure: the wait is a retry delay.
func holdLease(ctx context.Context, l *leaseStore, stop <-chan struct{}) {
	for {
		var again <-chan time.Time
		lost, err := l.grant(ctx, "leader")
		if err != nil {
			log.Print(err)
			again = time.After(regrantPause) // want `retry delay has no jitter`
		}
		select {
		case <-again:
			continue
		case <-lost:
			log.Print("lease lost")
			continue
		case <-stop:
			return
		}
	}
}

// The same with a session whose Done method says it ended, received
// outside a select.
func keepSession(ctx context.Context, l *leaseStore) {
	for ctx.Err() == nil {
		s, err := l.open(ctx)
		if err != nil {
			time.Sleep(2 * time.Second) // want `retry delay has no jitter`
			continue
		}
		<-s.Done()
	}
}

// Near miss: the pause after a failed grant is drawn at random.
func holdLeaseJittered(ctx context.Context, l *leaseStore, stop <-chan struct{}) {
	for {
		var again <-chan time.Time
		lost, err := l.grant(ctx, "leader")
		if err != nil {
			again = time.After(rand.N(regrantPause))
		}
		select {
		case <-again:
			continue
		case <-lost:
			continue
		case <-stop:
			return
		}
	}
}

// Near miss: a granted lease is given up after a fixed interval, on every
// path: the loop asks on a schedule, a poll whose interval is no retry
// delay.
func renewEvery(ctx context.Context, l *leaseStore, stop <-chan struct{}) {
	for {
		_, err := l.grant(ctx, "leader")
		if err != nil {
			log.Print(err)
		}
		select {
		case <-time.After(regrantPause):
			continue
		case <-stop:
			return
		}
	}
}

// acquire gives the store a moment to settle, then asks: it waits
// before it succeeds.
func (l *leaseStore) acquire(ctx context.Context) (<-chan struct{}, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(rand.N(time.Second)):
	}
	return l.grant(ctx, "leader")
}

// connect opens a session with the store.
func (l *leaseStore) connect(ctx context.Context) (*leaseStore, error) {
	if l.refused {
		return nil, errors.New("store unavailable")
	}
	return l, nil
}

// What acquire waited before it succeeded is no poll's interval: the
// held lease paces the success path, and the pause after a failure is a
// retry delay.
func holdAcquired(ctx context.Context, l *leaseStore, stop <-chan struct{}) {
	for {
		s, err := l.connect(ctx)
		if err != nil {
			return
		}
		var again <-chan time.Time
		lost, err := s.acquire(ctx)
		if err != nil {
			again = time.After(regrantPause) // want `retry delay has no jitter`
		}
		select {
		case <-again:
			continue
		case <-lost:
			continue
		case <-stop:
			return
		}
	}
}

// Near miss: the timer is set on every path, so a granted lease is
// asked for again when it fires as well: a poll on a fixed interval.
func holdOrPoll(ctx context.Context, l *leaseStore, stop <-chan struct{}) {
	for {
		again := time.After(regrantPause)
		lost, err := l.grant(ctx, "leader")
		if err != nil {
			log.Print(err)
		}
		select {
		case <-again:
			continue
		case <-lost:
			continue
		case <-stop:
			return
		}
	}
}
