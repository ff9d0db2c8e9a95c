// Package libs calls every catalogued retry library; the facts give each
// call's attempts as the model computes them from the configuration.
package libs

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/resilint/resilint/runtime/callpath"
	rt "github.com/resilint/resilint/runtime/retry"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

func op() error { return nil }

func cenkaltiMax() error { // want cenkaltiMax:`retries\(4\)`
	return backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func cenkaltiElapsed() error { // want cenkaltiElapsed:`retries\(\?\)`
	return backoff.Retry(op, backoff.NewExponentialBackOff())
}

func cenkaltiWrapped(ctx context.Context) error { // want cenkaltiWrapped:`retries\(3\)`
	b := backoff.WithContext(backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 2), ctx)
	return backoff.RetryNotify(op, b, nil)
}

func cenkaltiData() (int, error) { // want cenkaltiData:`retries\(2\)`
	return backoff.RetryWithData(func() (int, error) { return 1, nil }, backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 1))
}

func cenkaltiV5(ctx context.Context) (string, error) { // want cenkaltiV5:`retries\(5\)`
	return backoff5.Retry(ctx, func() (string, error) { return "", nil }, backoff5.WithBackOff(backoff5.NewExponentialBackOff()), backoff5.WithMaxTries(5))
}

func cenkaltiV5Elapsed(ctx context.Context) (string, error) { // want cenkaltiV5Elapsed:`retries\(\?\)`
	return backoff5.Retry(ctx, func() (string, error) { return "", nil }, backoff5.WithMaxElapsedTime(time.Minute))
}

func retryGoDefault() error { // want retryGoDefault:`retries\(10\)`
	return retrygo.Do(op)
}

func retryGoAttempts() error { // want retryGoAttempts:`retries\(3\)`
	return retrygo.Do(op, retrygo.Delay(time.Second), retrygo.Attempts(3))
}

func retryGoForever() error { // want retryGoForever:`retries\(\?\)`
	return retrygo.Do(op, retrygo.Attempts(0))
}

func retryGoData() (int, error) { // want retryGoData:`retries\(2\)`
	opts := []retrygo.Option{retrygo.Attempts(2)}
	_ = opts
	return retrygo.DoWithData(func() (int, error) { return 0, nil }, retrygo.Attempts(2))
}

func seth(ctx context.Context) error { // want seth:`retries\(4\)`
	b := sethretry.NewExponential(time.Second)
	b = sethretry.WithMaxRetries(3, b)
	return sethretry.Do(ctx, b, func(ctx context.Context) error { return op() })
}

func sethJitter(ctx context.Context) error { // want sethJitter:`retries\(3\)`
	return sethretry.Do(ctx, sethretry.WithJitter(time.Millisecond, sethretry.WithMaxRetries(2, sethretry.NewConstant(time.Second))), func(ctx context.Context) error { return op() })
}

func sethConstant(ctx context.Context) error { // want sethConstant:`retries\(\?\)`
	return sethretry.Constant(ctx, time.Second, func(ctx context.Context) error { return op() })
}

func rhttpDefault(req *retryablehttp.Request) (*http.Response, error) { // want rhttpDefault:`retries\(5\)`
	c := retryablehttp.NewClient()
	return c.Do(req)
}

func rhttpConfigured(url string) (*http.Response, error) { // want rhttpConfigured:`retries\(3\)`
	c := retryablehttp.NewClient()
	c.RetryWaitMax = time.Second
	c.RetryMax = 2
	return c.Get(url)
}

func rhttpOff(url string) (*http.Response, error) {
	c := &retryablehttp.Client{RetryMax: 0}
	return c.Get(url)
}

func rhttpZero(url string) (*http.Response, error) {
	var c retryablehttp.Client
	c.HTTPClient = http.DefaultClient
	return c.Head(url)
}

func rhttpLiteral(url string) (*http.Response, error) { // want rhttpLiteral:`retries\(7\)`
	c := &retryablehttp.Client{RetryMax: 6}
	return c.Post(url, "application/json", nil)
}

func rhttpPackage(url string) (*http.Response, error) { // want rhttpPackage:`retries\(5\)`
	return retryablehttp.Get(url)
}

type pricing struct {
	rc *retryablehttp.Client
	hc *http.Client
}

func newPricing() *pricing {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 1
	return &pricing{rc: rc, hc: rc.StandardClient()}
}

func (p *pricing) quote(url string) (*http.Response, error) { // want quote:`retries\(2\)`
	return p.rc.Get(url)
}

func (p *pricing) quoteStd(url string) (*http.Response, error) { // want quoteStd:`retries\(2\)`
	return p.hc.Get(url)
}

func stdClient(url string) (*http.Response, error) { // want stdClient:`retries\(5\)`
	hc := retryablehttp.NewClient().StandardClient()
	return hc.Get(url)
}

func plainHTTP(url string) (*http.Response, error) {
	return http.DefaultClient.Get(url)
}

func k8sConflict() error { // want k8sConflict:`retries\(5\)`
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, op)
}

func k8sOnError() error { // want k8sOnError:`retries\(3\)`
	return k8sretry.OnError(wait.Backoff{Steps: 3, Duration: time.Second}, func(error) bool { return true }, op)
}

func k8sBackoffVar() error { // want k8sBackoffVar:`retries\(4\)`
	return k8sretry.OnError(k8sretry.DefaultBackoff, func(error) bool { return true }, op)
}

func failsafeDefaults() (string, error) { // want failsafeDefaults:`retries\(3\)`
	return failsafe.With[string](retrypolicy.NewWithDefaults[string]()).Get(func() (string, error) { return "", nil })
}

func failsafeBuilt() error { // want failsafeBuilt:`retries\(5\)`
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(4).WithDelay(time.Second).Build()
	exec := failsafe.With[any](rp)
	return exec.Run(op)
}

type noRetry struct{}

func (noRetry) ToExecutor(any) any { return nil }

func failsafeNoRetry() error {
	return failsafe.With[any](noRetry{}).Run(op)
}

func resilint(ctx context.Context) error { // want resilint:`retries\(5\)`
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 5}, func(ctx context.Context) error { return op() })
}

func resilintDefault(ctx context.Context) error { // want resilintDefault:`retries\(3\)`
	return rt.Do(ctx, nil, func(ctx context.Context) error { return op() })
}

func resilintValue(ctx context.Context) (int, error) { // want resilintValue:`retries\(2\)`
	p := rt.Policy{BaseDelay: time.Millisecond}
	p.MaxAttempts = 2
	return rt.DoValue(ctx, &p, func(ctx context.Context) (int, error) { return 0, nil })
}

func callpathRetry(ctx context.Context) error { // want callpathRetry:`retries\(4\)`
	p, err := callpath.New(callpath.Config{Retry: &rt.Policy{MaxAttempts: 4}, Timeout: time.Second})
	if err != nil {
		return err
	}
	return p.Do(ctx, func(ctx context.Context) error { return op() })
}

func callpathNoRetry(ctx context.Context) (int, error) {
	p, _ := callpath.New(callpath.Config{Timeout: time.Second})
	return callpath.Execute(ctx, p, func(ctx context.Context) (int, error) { return 0, op() })
}
