// Package a: deadlines and the timeouts below them.
package a

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"

	rt "github.com/resilint/resilint/runtime/retry"

	"timeoutchain/svc"
)

func call(ctx context.Context) error { return ctx.Err() }

const requestBudget = 2 * time.Second

// An inner timeout longer than the deadline it runs under.
func innerLonger(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(ctx, 5*time.Second) // want `context.WithTimeout sets a 5s timeout on a context that has at most 2s left \(set at a.go:\d+\)`
	defer cancel2()
	return call(ctx2)
}

// Across packages: svc.Fetch sets 5s on the 2s context it is given.
func acrossPackages(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	return svc.Fetch(ctx) // want `svc.Fetch \(context.WithTimeout at svc.go:\d+\) sets a 5s timeout on a context that has at most 2s left`
}

// A deadline dropped.
func handler(w http.ResponseWriter, r *http.Request) {
	if err := call(context.Background()); err != nil { // want `context.Background\(\) drops the deadline and cancellation of r.Context\(\)`
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

func dropped(ctx context.Context) error {
	return svc.Short(context.TODO()) // want `context.TODO\(\) drops the deadline and cancellation of ctx`
}

// A retry that sleeps through cancellation.
func sleeps(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return err
}

func afterOnly(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		<-time.After(time.Second) // want `the retry loop waits without watching ctx`
	}
	return err
}

// Attempts that cannot fit: 3 × 1s + 2 × 500ms > 2s.
func cannotFit(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ { // want `3 attempts × 1s per attempt \+ 1s of waits = 4s do not fit in the 2s deadline set at a.go:\d+`
		actx, acancel := context.WithTimeout(ctx, time.Second)
		err = call(actx)
		acancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return err
}

// No timeout at all.
func noTimeout(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = http.Get(url) // want `http.Get in a retry loop has no timeout`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// ---- near misses ---------------------------------------------------------

func innerShorter(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	ctx2, cancel2 := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel2()
	return errors.Join(call(ctx2), svc.Short(ctx))
}

func detached(ctx context.Context) error {
	return call(context.WithoutCancel(ctx))
}

func background(ctx context.Context) {
	go func() {
		_ = call(context.Background()) // work started to outlive the request
	}()
}

func main() {
	_ = call(context.Background())
}

func init() {
	_ = call(context.TODO())
}

func noContextInScope() error {
	return call(context.Background())
}

func sleepsWithSelect(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func fits(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ {
		actx, acancel := context.WithTimeout(ctx, time.Second)
		err = call(actx)
		acancel()
		if err == nil {
			return nil
		}
	}
	return err
}

func clientWithTimeout(url string) error {
	c := &http.Client{Timeout: 2 * time.Second}
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.Get(url); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// A default for a missing context is not a dropped one.
func defaultCtx(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	return call(ctx)
}

// A client timeout longer than the request's deadline never fires.
func clientLonger(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	c := &http.Client{Timeout: 10 * time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req) // want `the http.Client's Timeout sets a 10s timeout on a context that has at most 2s left`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// WithDeadline(now + d) counts as a timeout of d.
func deadlineLonger(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	ctx2, cancel2 := context.WithDeadline(ctx, time.Now().Add(3*time.Second)) // want `context.WithDeadline sets a 3s timeout on a context that has at most 2s left`
	defer cancel2()
	return call(ctx2)
}

// runtime/retry's per-attempt timeout × attempts against the deadline.
func runtimePerAttempt(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, requestBudget)
	defer cancel()
	return rt.Do(ctx, &rt.Policy{MaxAttempts: 4, PerAttemptTimeout: time.Second}, call) // want `4 attempts × 1s per attempt = 4s do not fit in the 2s deadline`
}

// The default client, a request without a context.
func defaultClient(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequest(http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		resp, err = http.DefaultClient.Do(req) // want `http.Client.Do in a retry loop has no timeout`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}

// The request carries the caller's context: its deadline is not known
// here, so nothing is said.
func callersContext(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		resp, err = http.DefaultClient.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// A timer made first and received in a select with the context.
func timerSelect(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		tm := time.NewTimer(time.Duration(rand.Int63n(int64(time.Second))))
		select {
		case <-tm.C:
		case <-ctx.Done():
			tm.Stop()
			return ctx.Err()
		}
	}
	return err
}
