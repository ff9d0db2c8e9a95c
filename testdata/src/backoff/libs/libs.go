// Package libs: delay and bound configuration of library retries.
package libs

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"
	rt "github.com/resilint/resilint/runtime/retry"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

func op() error { return nil }

func constant() error {
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3)) // want `backoff.Retry waits without jitter \(backoff.NewConstantBackOff\)`
}

func constantForever() error {
	return backoff.Retry(op, backoff.NewConstantBackOff(time.Second)) // want `backoff.Retry waits without jitter` `backoff.Retry has no bound \(a ConstantBackOff without WithMaxRetries\)`
}

func factorZero() error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `backoff.Retry waits without jitter \(RandomizationFactor = 0\)`
	return backoff.Retry(op, backoff.WithMaxRetries(b, 4))
}

func factorOption() error {
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0)) // want `waits without jitter \(WithRandomizationFactor\(0\)\)`
	return backoff.Retry(op, backoff.WithMaxRetries(b, 4))
}

func literal() error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxInterval: time.Minute} // want `waits without jitter \(an ExponentialBackOff without RandomizationFactor\)` `has no bound \(an ExponentialBackOff with MaxElapsedTime 0 and no WithMaxRetries\)`
	return backoff.Retry(op, b)
}

func elapsedZero() error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0 // want `backoff.Retry has no bound \(MaxElapsedTime = 0 without WithMaxRetries\)`
	return backoff.Retry(op, b)
}

func zero() error {
	return backoff.Retry(op, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 3)) // want `backoff.Retry does not wait between attempts \(ZeroBackOff\)`
}

func v5Forever(ctx context.Context) (int, error) {
	return backoff5.Retry(ctx, func() (int, error) { return 0, nil }, backoff5.WithMaxElapsedTime(0)) // want `backoff.Retry has no bound \(WithMaxElapsedTime\(0\) without WithMaxTries\)`
}

func retryGoFixed() error {
	return retrygo.Do(op, retrygo.Attempts(3), retrygo.DelayType(retrygo.FixedDelay)) // want `retry.Do waits without jitter \(DelayType\(FixedDelay\) without RandomDelay\)`
}

func retryGoForever() error {
	return retrygo.Do(op, retrygo.Attempts(0)) // want `retry.Do has no bound \(Attempts\(0\)\)`
}

func seth(ctx context.Context) error {
	b := sethretry.WithMaxRetries(3, sethretry.NewExponential(time.Second)) // want `retry.Do waits without jitter \(sethretry.NewExponential without a jitter wrapper\)`
	return sethretry.Do(ctx, b, func(ctx context.Context) error { return op() })
}

func sethConstant(ctx context.Context) error {
	return sethretry.Constant(ctx, time.Second, func(ctx context.Context) error { return op() }) // want `retry.Constant waits without jitter`
}

func rhttp(url string) (*http.Response, error) {
	c := retryablehttp.NewClient() // want `retryablehttp.Client.Get waits without jitter \(a client left on DefaultBackoff\)`
	c.RetryMax = 2
	return c.Get(url)
}

func rhttpLiteral(url string) (*http.Response, error) {
	c := &retryablehttp.Client{RetryMax: 3} // want `waits without jitter \(a client without Backoff \(DefaultBackoff\)\)`
	return c.Get(url)
}

func rhttpExplicit(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.DefaultBackoff // want `waits without jitter \(Backoff: DefaultBackoff\)`
	return c.Get(url)
}

func resilint(ctx context.Context) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 3, Jitter: rt.JitterNone}, func(ctx context.Context) error { return op() }) // want `retry.Do waits without jitter \(Jitter: JitterNone\)`
}

// ---- near misses ---------------------------------------------------------

func exponentialDefault() error {
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func exponentialContext(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	return backoff.Retry(op, backoff.WithMaxRetries(b, 5))
}

func retryGoDefault() error {
	return retrygo.Do(op, retrygo.Attempts(5))
}

func retryGoCombined() error {
	return retrygo.Do(op, retrygo.Attempts(5), retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay)))
}

func sethJittered(ctx context.Context) error {
	b := sethretry.WithJitterPercent(20, sethretry.WithMaxRetries(3, sethretry.NewExponential(time.Second)))
	return sethretry.Do(ctx, b, func(ctx context.Context) error { return op() })
}

func rhttpJitter(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c.Get(url)
}

func rhttpOff(url string) (*http.Response, error) {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c.Get(url)
}

func resilintDefault(ctx context.Context) error {
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 3}, func(ctx context.Context) error { return op() })
}

func k8sNoJitter() error {
	return k8sretry.OnError(wait.Backoff{Steps: 4, Duration: time.Second, Factor: 2}, func(error) bool { return true }, op) // want `retry.OnError waits without jitter \(a wait.Backoff without Jitter\)`
}

// Near miss: the defaults carry jitter.
func k8sDefault() error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, op)
}

// v5's ZeroBackOff does not wait either; WithMaxTries bounds it.
func v5Zero(ctx context.Context) (int, error) {
	return backoff5.Retry(ctx, func() (int, error) { return 0, nil }, backoff5.WithBackOff(&backoff5.ZeroBackOff{}), backoff5.WithMaxTries(3)) // want `backoff.Retry does not wait between attempts \(ZeroBackOff\)`
}
