package libs

import (
	"context"
	"errors"
	"net"
	"sync/atomic"

	backoff "github.com/cenkalti/backoff/v4"
)

// An operation that ends the retry once the context is done, with a
// permanent error: the retry is bounded by that context, as one wrapped in
// WithContext is. Not reported as unbounded.
func redialPermanent(ctx context.Context, addr string) (net.Conn, error) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	var c net.Conn
	err := backoff.Retry(func() error {
		if ctx.Err() != nil {
			return backoff.Permanent(ctx.Err())
		}
		var d net.Dialer
		var err error
		c, err = d.DialContext(ctx, "tcp", addr)
		return err
	}, b)
	return c, err
}

// The same, its permanent error returned on a branch taken only once the
// context is done.
func redialDone(ctx context.Context, addr string) (net.Conn, error) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	var c net.Conn
	err := backoff.Retry(func() error {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			select {
			case <-ctx.Done():
				return backoff.Permanent(err)
			default:
				return err
			}
		}
		c = conn
		return nil
	}, b)
	return c, err
}

// The near miss: the operation returns the context's error as any other,
// which the retry goes round on until its elapsed time, which is never.
func redialPlain(ctx context.Context, addr string) (net.Conn, error) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0 // want `backoff.Retry has no bound \(MaxElapsedTime = 0 without WithMaxRetries\)`
	var c net.Conn
	err := backoff.Retry(func() error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var d net.Dialer
		var err error
		c, err = d.DialContext(ctx, "tcp", addr)
		if err != nil && c == nil {
			return backoff.Permanent(err) // permanent, but not because the context is done
		}
		return err
	}, b)
	return c, err
}

// A reconnect loop that ends once its owner is closed: the operation
// returns a permanent error when Close has run, state the attempt does
// not make. Not reported as unbounded.
type redialer struct {
	closed atomic.Bool
	addr   string
}

func (r *redialer) redialUntilClosed() (net.Conn, error) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	var c net.Conn
	err := backoff.Retry(func() error {
		var d net.Dialer
		conn, err := d.Dial("tcp", r.addr)
		if err == nil {
			c = conn
			return nil
		}
		if r.closed.Load() {
			return backoff.Permanent(err)
		}
		return err
	}, b)
	return c, err
}

var errRefused = errors.New("refused")

// The near miss: the permanent error is chosen by the attempt's own
// error, which an outage does not change: unbounded while it lasts.
func (r *redialer) redialUnlessRefused() (net.Conn, error) {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0 // want `backoff.Retry has no bound \(MaxElapsedTime = 0 without WithMaxRetries\)`
	var c net.Conn
	err := backoff.Retry(func() error {
		var d net.Dialer
		conn, err := d.Dial("tcp", r.addr)
		if err == nil {
			c = conn
			return nil
		}
		if errors.Is(err, errRefused) {
			return backoff.Permanent(err)
		}
		return err
	}, b)
	return c, err
}
