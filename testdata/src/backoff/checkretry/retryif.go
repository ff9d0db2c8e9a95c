package checkretry

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
)

func get(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func never(error) bool { return false }

// retry-go with a RetryIf predicate that never returns true makes one
// attempt: its delay type is never waited.
func neverRetryIf(ctx context.Context, url string) error {
	return retry.Do(func() error { return get(ctx, url) },
		retry.RetryIf(never),
		retry.DelayType(retry.BackOffDelay),
	)
}

func neverRetryIfLiteral(ctx context.Context, url string) error {
	return retry.Do(func() error { return get(ctx, url) },
		retry.DelayType(retry.FixedDelay),
		retry.RetryIf(func(err error) bool { return false }),
		retry.Attempts(5),
	)
}

// The options of a slice literal spread into the call are read as if
// written there: Attempts(1) is one attempt.
func oneAttemptSpread(ctx context.Context, url string) error {
	opts := []retry.Option{retry.Attempts(1), retry.DelayType(retry.FixedDelay), retry.Delay(time.Second)}
	return retry.Do(func() error { return get(ctx, url) }, opts...)
}

// Near misses: a predicate that may return true, and a spread slice of
// options that retries.
func maybeRetryIf(ctx context.Context, url string) error {
	return retry.Do(func() error { return get(ctx, url) },
		retry.RetryIf(func(err error) bool { return !errors.Is(err, context.Canceled) }),
		retry.DelayType(retry.BackOffDelay), // want `retry.Do waits without jitter`
	)
}

func threeAttemptsSpread(ctx context.Context, url string) error {
	opts := []retry.Option{retry.Attempts(3), retry.DelayType(retry.FixedDelay)} // want `retry.Do waits without jitter`
	return retry.Do(func() error { return get(ctx, url) }, opts...)
}

// Near miss: a later RetryIf replaces the never-true one (the last option
// wins): the retry goes on.
func replacedRetryIf(ctx context.Context, url string) error {
	return retry.Do(func() error { return get(ctx, url) },
		retry.RetryIf(never),
		retry.DelayType(retry.FixedDelay), // want `retry.Do waits without jitter`
		retry.RetryIf(func(err error) bool { return true }),
	)
}
