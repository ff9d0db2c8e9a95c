// Package fieldpreds decides whether to send again with a test held in
// a field, given the whole outcome of the attempt.
package fieldpreds

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// A Reply of the store's own protocol (no *http.Response).
type Reply interface{ Status() int }

type Conn interface {
	Send(ctx context.Context, cmd string) (Reply, error)
}

// RetryOn tells from a reply and its error whether to send again.
type RetryOn func(Reply, error) bool

type retrying struct {
	Conn
	retryOn RetryOn
	tries   int
}

func WithRetries(c Conn, tries int, on RetryOn) Conn {
	return &retrying{Conn: c, tries: tries, retryOn: on}
}

// BusyAgain sends again while the store answers that it is busy.
func BusyAgain(c Conn, tries int) Conn {
	return WithRetries(c, tries, func(r Reply, err error) bool {
		return err == nil && r.Status() == 503
	})
}

// The test decides, given the reply and the error as they are, and the
// loop sends again at once.
func (w *retrying) Send(ctx context.Context, cmd string) (Reply, error) {
	var r Reply
	var err error
	for i := 0; i < w.tries; i++ { // want `tries again at once`
		r, err = w.Conn.Send(ctx, cmd)
		if w.retryOn(r, err) {
			continue
		}
		if err == nil {
			return r, nil
		}
		return nil, err
	}
	return r, err
}

type spaced struct {
	Conn
	retryOn RetryOn
	tries   int
}

// Near miss: the same test, and a pause drawn at random before going
// round. (Its method is no Conn's Send: an implementation that waits
// would make every call of Conn.Send one that may wait.)
func (w *spaced) send(ctx context.Context, cmd string) (Reply, error) {
	var r Reply
	var err error
	for i := 0; i < w.tries; i++ {
		r, err = w.Conn.Send(ctx, cmd)
		if w.retryOn(r, err) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(rand.N(200 * time.Millisecond)):
			}
			continue
		}
		if err == nil {
			return r, nil
		}
		return nil, err
	}
	return r, err
}

type hooked struct {
	Conn
	between func(attempt int)
	tries   int
}

// Near miss: a hook held in a field that answers nothing runs between
// attempts for what it does, which may be the wait.
func (w *hooked) send(ctx context.Context, cmd string) (Reply, error) {
	for i := 0; i < w.tries; i++ {
		r, err := w.Conn.Send(ctx, cmd)
		if err == nil {
			return r, nil
		}
		w.between(i)
	}
	return nil, errors.New("giving up")
}

type source interface {
	Next(buf []byte) (int, error)
}

// Near miss: what is handed to the test with the error is a part of
// what was read: a read loop that keeps its data, no retry.
func drain(src source, keep func([]byte, error) bool) {
	buf := make([]byte, 512)
	for {
		n, err := src.Next(buf)
		if keep(buf[:n], err) {
			continue
		}
		return
	}
}

// Options are a caller's: its policy is given the error and the attempt
// number, and decides whether to begin again; nil makes one attempt.
type Options struct {
	RetryBegin func(err error, attempt int) bool
}

// Near miss: the caller's policy, given the attempt number, decides when
// to go on as well as whether, and may pause before it answers: the
// loop waits what the policy waits.
func begin(ctx context.Context, c Conn, o Options) (Reply, error) {
	for i := 0; ; i++ {
		r, err := c.Send(ctx, "BEGIN")
		if err == nil || o.RetryBegin == nil || !o.RetryBegin(err, i) {
			return r, err
		}
	}
}
