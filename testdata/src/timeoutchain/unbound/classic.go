package unbound

import (
	"context"

	backoffv1 "gopkg.in/cenkalti/backoff.v1"
)

// The first major of cenkalti/backoff, still imported under gopkg.in:
// the same Retry(op, b) bound to a context only by WithContext.
func (s *store) Subscribe(ctx context.Context, key string) error {
	return backoffv1.RetryNotify(func() error { return s.get(ctx, key) }, backoffv1.NewExponentialBackOff(), nil) // want `backoff.RetryNotify is bound to no context: .* bind it to ctx with backoffv1.WithContext\(backoffv1.NewExponentialBackOff\(\), ctx\)`
}

// Near miss: bound by its WithContext, under WithMaxTries.
func (s *store) SubscribeBound(ctx context.Context, key string) error {
	b := backoffv1.WithMaxTries(backoffv1.WithContext(backoffv1.NewExponentialBackOff(), ctx), 5)
	return backoffv1.RetryNotify(func() error { return s.get(ctx, key) }, b, nil)
}

// Near miss: a BackOff held in a field its users may set, bound to
// whatever context they choose; the value the package's constructor puts
// there is not all it may hold.
type streamer struct {
	store
	Strategy backoffv1.BackOff
}

func newStreamer() *streamer {
	return &streamer{Strategy: backoffv1.NewExponentialBackOff()}
}

func (s *streamer) Follow(ctx context.Context, key string) error {
	return backoffv1.RetryNotify(func() error { return s.get(ctx, key) }, s.Strategy, nil)
}
