// Package a nests retries within one package, through helpers, closures
// and libraries, next to near misses that must stay silent.
package a

import (
	"context"
	"errors"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/hashicorp/go-retryablehttp"
	rt "github.com/resilint/resilint/runtime/retry"
	sethretry "github.com/sethvargo/go-retry"
	k8sretry "k8s.io/client-go/util/retry"
)

func call(ctx context.Context) error { return nil }

func fetchPrice(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

func fetchStock(ctx context.Context) error {
	return retrygo.Do(func() error { return call(ctx) }, retrygo.Attempts(3))
}

// Nested in the same function: loop inside a loop.
func sameFunction(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching a retry loop \(2 attempts\) at a.go:\d+: up to 6 downstream calls per request`
		for j := 0; j < 2; j++ {
			if err = call(ctx); err == nil {
				break
			}
		}
		if err == nil {
			return nil
		}
	}
	return err
}

// A library retry around a helper that retries by hand.
func libraryAroundLoop(ctx context.Context) error {
	return retrygo.Do(func() error { // want `nested retry: retry.Do makes 10 attempts, each reaching fetchPrice, which retries: retry loop \(3 attempts\) at a.go:\d+: up to 30 downstream calls per request`
		return fetchPrice(ctx)
	})
}

// A hand-written retry around five retrying dependencies: 3 × (5 × 3).
func fanOut(ctx context.Context) error {
	var err error
	for attempt := range 3 { // want `nested retry: retry loop makes 3 attempts, each reaching 5 retrying calls \(3 attempts each\): up to 45 downstream calls per request`
		_ = attempt
		err = errors.Join(fetchPrice(ctx), fetchStock(ctx), fetchPrice(ctx), fetchStock(ctx), fetchPrice(ctx))
		if err == nil {
			return nil
		}
	}
	return err
}

// Unknown outer bound.
func unbounded(ctx context.Context) error {
	for { // want `nested retry: retry loop makes an unknown number of attempts, each reaching fetchPrice, which retries: retry loop \(3 attempts\) at a.go:\d+: downstream calls per request are unbounded \(no constant attempt bound here\)`
		if err := fetchPrice(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The operation handed to the library as a method value.
type svc struct{ rc *retryablehttp.Client }

func (s *svc) get(ctx context.Context) error {
	resp, err := s.rc.Get("http://pricing/quote")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func newSvc() *svc { return &svc{rc: retryablehttp.NewClient()} }

func methodValue(ctx context.Context, s *svc) error {
	return sethretry.Do(ctx, sethretry.WithMaxRetries(2, sethretry.NewExponential(time.Second)), func(ctx context.Context) error { // want `nested retry: retry.Do makes 3 attempts, each reaching \(\*svc\).get, which retries: retryablehttp.Client.Get \(5 attempts\) at a.go:\d+: up to 15 downstream calls per request; retry at one layer only \(set RetryMax to 0 on the retryablehttp.Client\)`
		return sethretry.RetryableError(s.get(ctx))
	})
}

func k8sAroundRuntime(ctx context.Context) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error { // want `nested retry: retry.RetryOnConflict makes 5 attempts, each reaching a retry.Do \(4 attempts\) at a.go:\d+: up to 20 downstream calls per request`
		return rt.Do(ctx, &rt.Policy{MaxAttempts: 4}, call)
	})
}

// goto retry around a retrying client.
func gotoRetry(ctx context.Context, url string) (*http.Response, error) {
	tries := 0
retry: // want `nested retry: goto retry loop makes 2 attempts, each reaching a retryablehttp.Get \(5 attempts\) at a.go:\d+: up to 10 downstream calls per request`
	resp, err := retryablehttp.Get(url)
	if err != nil && tries < 1 {
		tries++
		goto retry
	}
	return resp, err
}

// ---- near misses ---------------------------------------------------------

// Retrying at one layer only.
func oneLayer(ctx context.Context) error { return fetchPrice(ctx) }

// Ranging over items whose calls retry is not a retry.
func perItem(ctx context.Context, items []string) error {
	for range items {
		if err := fetchPrice(ctx); err != nil {
			return err
		}
	}
	return nil
}

// A work loop whose success goes round again.
func worker(ctx context.Context) {
	for ctx.Err() == nil {
		if err := fetchPrice(ctx); err != nil {
			time.Sleep(time.Second)
			continue
		}
		time.Sleep(time.Minute)
	}
}

// A retry around a client whose retrying is switched off.
func retryAroundPlainClient(url string) error {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	for i := 0; i < 3; i++ {
		resp, err := c.Get(url)
		if err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("failed")
}

// A retry whose operation only builds a retrying closure, never runs it.
func buildsClosure() (func(ctx context.Context) error, error) {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(context.Background()); err == nil {
			return func(ctx context.Context) error { return fetchPrice(ctx) }, nil
		}
	}
	return nil, err
}

// Three layers in one function: the outer retry reports 27, the middle 9.
func threeLayers(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching a retry loop \(3 attempts\) at a.go:\d+, up to 9 calls: up to 27 downstream calls per request`
		for j := 0; j < 3; j++ { // want `nested retry: retry loop makes 3 attempts, each reaching a retry loop \(3 attempts\) at a.go:\d+: up to 9 downstream calls per request`
			for k := 0; k < 3; k++ {
				if err = call(ctx); err == nil {
					break
				}
			}
			if err == nil {
				break
			}
		}
		if err == nil {
			return nil
		}
	}
	return err
}

// A failsafe-go executor whose policies include a retry, around a helper
// that retries.
func failsafeAround(ctx context.Context) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(2).Build()
	return failsafe.With[any](rp).Run(func() error { // want `nested retry: failsafe Executor.Run makes 2 attempts, each reaching fetchStock, which retries: retry.Do \(3 attempts\) at a.go:\d+: up to 6 downstream calls per request`
		return fetchStock(ctx)
	})
}

// The retried operation is a closure held in a variable.
func closureVar(ctx context.Context) error {
	op := func() error { return fetchPrice(ctx) }
	var err error
	for i := 0; i < 2; i++ { // want `nested retry: retry loop makes 2 attempts, each reaching fetchPrice, which retries: retry loop \(3 attempts\) at a.go:\d+: up to 6 downstream calls per request`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A retry helper of this package, with a constant bound.
func retry3(op func(context.Context) error, ctx context.Context) error {
	var err error
	for range 3 {
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func viaLocalHelper(ctx context.Context) error {
	return retry3(fetchPrice, ctx) // want `nested retry: retry3 makes 3 attempts, each reaching fetchPrice, which retries: retry loop \(3 attempts\) at a.go:\d+: up to 9 downstream calls per request`
}
