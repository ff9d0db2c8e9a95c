// Library retries bound to no context: cenkalti/backoff v4's Retry
// without WithContext, retry-go's Do without Context. The caller's
// cancellation never reaches their waits or their next attempts.
package unbound

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
)

type store struct{ base string }

func (s *store) get(ctx context.Context, key string) error { return errors.New(key) }

// The BackOff made in place stops only at MaxElapsedTime.
func (s *store) Load(ctx context.Context, key string) error {
	return backoff.Retry(func() error { return s.get(ctx, key) }, backoff.NewExponentialBackOff()) // want `backoff.Retry is bound to no context: it runs under context.Background, so when ctx is done it still waits out its backoff and tries again, until its own limit ends it; bind it to ctx with backoff.WithContext\(backoff.NewExponentialBackOff\(\), ctx\)`
}

// Through a local and a retry count: still no context.
func (s *store) Save(ctx context.Context, key string) error {
	b := backoff.WithMaxRetries(&backoff.ExponentialBackOff{InitialInterval: time.Second}, 5)
	return backoff.RetryNotify(func() error { return s.get(ctx, key) }, b, nil) // want `backoff.RetryNotify is bound to no context`
}

// Converted to the interface type: the same value.
func (s *store) Refresh(ctx context.Context, key string) error {
	exp := backoff.NewExponentialBackOff()
	exp.MaxElapsedTime = time.Minute
	b := backoff.BackOff(exp)
	return backoff.Retry(func() error { return s.get(ctx, key) }, b) // want `backoff.Retry is bound to no context`
}

// retry-go: without retry.Context the retry runs under Background.
func (s *store) Sync(ctx context.Context, key string) error {
	return retry.Do(func() error { return s.get(ctx, key) }, retry.Attempts(5), retry.Delay(time.Second), retry.DelayType(retry.BackOffDelay)) // want `retry.Do is bound to no context: .* bind it to ctx with retry.Context\(ctx\)`
}

// A call written over several lines, its last option followed by a comma.
func (s *store) Pull(ctx context.Context, key string) error {
	return retry.Do(func() error { return s.get(ctx, key) }, // want `retry.Do is bound to no context`
		retry.Attempts(4),
		retry.Delay(time.Second),
	)
}

// An HTTP handler's context is the request's.
func (s *store) Serve(w http.ResponseWriter, r *http.Request) {
	n, err := retry.DoWithData(func() (int, error) { return 1, s.get(r.Context(), "k") }) // want `retry.DoWithData is bound to no context: .* bind it to r.Context\(\) with retry.Context\(r.Context\(\)\)`
	_, _ = n, err
}

// Near misses.

// Bound: WithContext, also under WithMaxRetries.
func (s *store) LoadBound(ctx context.Context, key string) error {
	if err := backoff.Retry(func() error { return s.get(ctx, key) }, backoff.WithContext(backoff.NewExponentialBackOff(), ctx)); err != nil {
		return err
	}
	b := backoff.WithMaxRetries(backoff.WithContext(backoff.NewExponentialBackOff(), ctx), 3)
	return backoff.Retry(func() error { return s.get(ctx, key) }, b)
}

// A BackOff from the caller may carry a context: unknown.
func (s *store) LoadWith(ctx context.Context, key string, b backoff.BackOff) error {
	return backoff.Retry(func() error { return s.get(ctx, key) }, b)
}

// retry-go bound, and options from the caller.
func (s *store) SyncBound(ctx context.Context, key string, opts ...retry.Option) error {
	if err := retry.Do(func() error { return s.get(ctx, key) }, retry.Attempts(5), retry.Context(ctx)); err != nil {
		return err
	}
	return retry.Do(func() error { return s.get(ctx, key) }, opts...)
}

// The operation stops the retry itself once the caller gave up.
func (s *store) LoadChecked(ctx context.Context, key string) error {
	return backoff.Retry(func() error {
		if err := ctx.Err(); err != nil {
			return backoff.Permanent(err)
		}
		return s.get(ctx, key)
	}, backoff.NewExponentialBackOff())
}

// A predicate that stops on the context's error ends the retry itself.
func (s *store) SyncUntilCancelled(ctx context.Context, key string) error {
	return retry.Do(func() error { return s.get(ctx, key) },
		retry.Attempts(5),
		retry.RetryIf(func(err error) bool { return !errors.Is(err, context.Canceled) }),
	)
}

// No context in scope: nothing to bind.
func (s *store) Warm(key string) error {
	return backoff.Retry(func() error { return s.get(context.Background(), key) }, backoff.NewExponentialBackOff())
}
