package libs

import (
	"context"
	"net"

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
