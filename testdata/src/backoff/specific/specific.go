// Package specific retries failures of its own request's state: a
// conflict with a write still being finished, a read with nothing new yet.
// Each goes round only on one error value it names, and no outage makes
// every client meet such a failure at the same moment, so an unjittered
// delay is not reported (a delay that grows without a cap still is). The
// near misses go round on errors an outage gives everyone: any error, a
// connection cut short (io.ErrUnexpectedEOF), a request no server answered
// (nats.ErrNoResponders), an error type (a family, which may hold any
// status).
package specific

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/nats-io/nats.go"
)

var errPending = errors.New("previous transaction still being finished")

type session struct{ n int }

func (s *session) commit(ctx context.Context) error {
	s.n++
	if s.n%3 == 0 {
		return errPending
	}
	return io.ErrUnexpectedEOF
}

// Commit waits out a previous transaction still being finished, with a
// capped doubling delay: not reported.
func (s *session) Commit(ctx context.Context) error {
	backoff := 20 * time.Millisecond
	for {
		err := s.commit(ctx)
		if !errors.Is(err, errPending) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		if backoff *= 2; backoff > time.Second {
			backoff = time.Second
		}
	}
}

// CommitEq is Commit with a comparison and a fixed pause: not reported.
func (s *session) CommitEq(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if err != errPending {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errPending
}

// CommitUncapped doubles its delay without a cap: the delay is reported,
// for its growth only.
func (s *session) CommitUncapped(ctx context.Context) error {
	backoff := 20 * time.Millisecond
	for {
		err := s.commit(ctx)
		if !errors.Is(err, errPending) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff): // want `retry delay grows exponentially with no cap:`
		}
		backoff *= 2
	}
}

// CommitAny goes round on any failure: reported.
func (s *session) CommitAny(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return errPending
}

// CommitCut goes round on a connection cut short, which a server going
// down gives every client: reported.
func (s *session) CommitCut(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return io.ErrUnexpectedEOF
}

// CommitEither goes round on the conflict or on a connection cut short:
// reported, for the second.
func (s *session) CommitEither(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		if err != errPending && err != io.ErrUnexpectedEOF {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return errPending
}

// CommitNet goes round on any network error, a type: reported.
func (s *session) CommitNet(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		err := s.commit(ctx)
		var ne net.Error
		if !errors.As(err, &ne) {
			return err
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return errPending
}

// Publish asks again while no server answers, as during a leader
// election every publisher meets: reported.
func Publish(nc *nats.Conn, data []byte) ([]byte, error) {
	reply, err := nc.Request("orders", data)
	for r := 0; errors.Is(err, nats.ErrNoResponders) && r < 3; r++ {
		time.Sleep(250 * time.Millisecond) // want `retry delay has no jitter`
		reply, err = nc.Request("orders", data)
	}
	return reply, err
}

type store struct{ owner []byte }

func (st *store) update(ctx context.Context, f func([]byte) ([]byte, error)) error {
	b, err := f(st.owner)
	if err != nil {
		return err
	}
	st.owner = b
	return nil
}

// Lock polls once a second while another owner holds the lock: it goes
// round only on the error it made itself and handed to the update, a
// sentinel of its own; any other failure panics out. Not reported.
func (st *store) Lock(ctx context.Context) {
	busy := errors.New("held by another owner")
	for {
		err := st.update(ctx, func(b []byte) ([]byte, error) {
			if len(b) != 0 {
				return nil, busy
			}
			return []byte{1}, nil
		})
		if err == nil {
			return
		}
		if err != busy {
			panic(err)
		}
		time.Sleep(time.Second)
	}
}

// LockIs picks it out with errors.Is.
func (st *store) LockIs(ctx context.Context) error {
	busy := fmt.Errorf("held by another owner")
	for {
		err := st.update(ctx, func(b []byte) ([]byte, error) {
			if len(b) != 0 {
				return nil, busy
			}
			return []byte{1}, nil
		})
		if !errors.Is(err, busy) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// LockAny compares with a local error that may be another failure
// (assigned from the call): no sentinel, reported.
func (st *store) LockAny(ctx context.Context) {
	var last error
	for { // want `retry loop has no bound`
		err := st.update(ctx, func(b []byte) ([]byte, error) { return b, nil })
		if err == nil {
			return
		}
		if err != last {
			last = err
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

var errLimit = errors.New("connection limit exceeded")

// limited picks out the per-account refusal only.
func limited(err error) bool { return errors.Is(err, errLimit) }

// family picks out an error type, which may hold any failure.
func family(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// Login retries only what limited picks out, with a fixed delay: a
// failure of this account's own state. Not reported.
func (s *session) Login(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = s.commit(ctx); err == nil || !limited(err) {
			return err
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

// LoginAny retries what family picks out: reported.
func (s *session) LoginAny(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = s.commit(ctx); err == nil || !family(err) {
			return err
		}
		time.Sleep(500 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}
