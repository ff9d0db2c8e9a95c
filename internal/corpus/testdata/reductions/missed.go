// Reductions of real problems the corpus's modules have that the suite
// did not report (see the report of internal/corpus): each should be found.
// The model's TestMissedReductions checks that each function below holds
// a retry (or, for M7, a resume loop).
package reductions

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// M1: retry decided by a bool set in branches; with backoff nil (the
// zero value, the default) it retries at once: not reported (the loop is
// recognized; the nil default of the delay function is not).
type transport struct {
	rt      http.RoundTripper
	max     int
	backoff func(int) time.Duration
}

func (t *transport) perform(req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for i := 0; i <= t.max; i++ {
		retry := false
		res, err = t.rt.RoundTrip(req)
		if err != nil {
			retry = true
		} else if res.StatusCode == http.StatusServiceUnavailable {
			retry = true
		}
		if !retry {
			break
		}
		if t.backoff != nil {
			time.Sleep(t.backoff(i))
		}
	}
	return res, err
}

// M2: retry written as recursion through a closure, fixed delay from config.
type conf struct {
	Max     int
	Backoff time.Duration
}
type coord struct{ conf conf }

func (c *coord) ask(key string) (string, error) { return "", nil }
func (c *coord) find(key string, left int) (string, error) {
	retry := func(err error) (string, error) {
		if left > 0 {
			time.Sleep(c.conf.Backoff)
			return c.find(key, left-1)
		}
		return "", err
	}
	r, err := c.ask(key)
	if err != nil {
		return retry(err)
	}
	return r, nil
}

// M3: a retry helper whose fixed delay is a config field: no jitter whatever its value.
func (c *coord) retryOnError(fn func() error) error {
	for left := c.conf.Max + 1; ; {
		err := fn()
		left--
		if err == nil || left <= 0 {
			return err
		}
		time.Sleep(c.conf.Backoff)
	}
}

// M4: retry decided by a returned bool.
func (c *coord) exec(run func() (bool, error)) error {
	var err error
	for left := c.conf.Max; left >= 0; left-- {
		var retry bool
		retry, err = run()
		if !retry {
			return err
		}
		time.Sleep(c.conf.Backoff)
	}
	return err
}

// M5: the delay comes from a package function with no random draw.
func backoff(n int, min, max time.Duration) time.Duration {
	d := time.Duration(n*n) * min
	if d > max {
		d = max
	}
	return d
}

type writer struct{ attempts int }

func (w *writer) maxAttempts() int          { return max(w.attempts, 10) }
func (w *writer) backoffMin() time.Duration { return 100 * time.Millisecond }
func (w *writer) produce() error            { return nil }
func (w *writer) writeBatch() error {
	var err error
	for a, n := 0, w.maxAttempts(); a < n; a++ {
		if a > 0 {
			time.Sleep(backoff(a, w.backoffMin(), time.Second))
		}
		if err = w.produce(); err == nil {
			return nil
		}
	}
	return err
}

// M6: the attempt runs in a goroutine; its error arrives on a channel.
func retryAsync(ctx context.Context, fn func() error, times int, interval time.Duration) error {
	errc := make(chan error, 1)
	for i := 0; i < times; i++ {
		go func() { errc <- fn() }()
		select {
		case err := <-errc:
			if err == nil {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(interval):
		}
	}
	return errors.New("gave up")
}

// M7: a watch loop whose failure branch re-watches after a fixed delay.
type watcher interface{ Next() ([]string, error) }

func watch(w watcher, apply func([]string)) {
	for {
		v, err := w.Next()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			time.Sleep(time.Second)
			continue
		}
		apply(v)
	}
}

type backend struct {
	hc  *http.Client
	max int
}

func (b *backend) shouldRetry(err error, resp *http.Response, n int) (bool, string) {
	if n >= b.max {
		return false, "max retries"
	}
	if err == nil && resp.StatusCode < 500 {
		return false, "ok"
	}
	return true, ""
}

func (b *backend) sleepTime(n int) time.Duration { return time.Duration(n+1) * 500 * time.Millisecond }

// M8: retry decided by a returned bool after a response handler given as
// a parameter; the sleep ignores req.Context().
func (b *backend) do(req *http.Request, handle func(*http.Response, error) (any, error)) (any, error) {
	var result any
	var err error
	for n := 0; ; {
		var resp *http.Response
		resp, err = b.hc.Do(req)
		result, err = handle(resp, err)
		retry, _ := b.shouldRetry(err, resp, n)
		if !retry {
			break
		}
		d := b.sleepTime(n)
		n++
		time.Sleep(d)
	}
	return result, err
}

// M9: the default delay is a closure stored in a field when the client is
// built (linear, no random part), and no option replaces it; the retry
// loop calls the field.
type apiClient struct {
	hc       *http.Client
	maxRetry int
	delay    func(n int) time.Duration
}

func newAPIClient(hc *http.Client) *apiClient {
	c := &apiClient{hc: hc, maxRetry: 3}
	if c.delay == nil {
		c.delay = func(n int) time.Duration { return time.Duration(n) * time.Second }
	}
	return c
}

func (c *apiClient) send(req *http.Request) (*http.Response, error) {
	for n := 0; ; {
		resp, err := c.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusBadGateway && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil
		}
		resp.Body.Close()
		if n >= c.maxRetry {
			return nil, errors.New("too many retries")
		}
		n++
		t := time.NewTimer(c.delay(n))
		select {
		case <-req.Context().Done():
			t.Stop()
			return nil, req.Context().Err()
		case <-t.C:
		}
	}
}

// M10: a client turns retries on by building a retrying client (here a
// stand-in for a retrying-HTTP library's constructor, whose default
// backoff doubles with no random part) and sets only the attempt count
// and the delay bounds: the default, unjittered backoff stays.
type retrying struct {
	RetryMax         int
	WaitMin, WaitMax time.Duration
	Backoff          func(min, max time.Duration, n int) time.Duration
}

func doublingBackoff(lo, hi time.Duration, n int) time.Duration {
	return min(hi, lo<<min(n, 30))
}

func newRetrying() *retrying {
	return &retrying{RetryMax: 4, WaitMin: time.Second, WaitMax: 30 * time.Second, Backoff: doublingBackoff}
}

func (r *retrying) Do(req *http.Request) (*http.Response, error) {
	for n := 0; ; n++ {
		resp, err := http.DefaultClient.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
		}
		if n >= r.RetryMax {
			return nil, errors.New("giving up")
		}
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(r.Backoff(r.WaitMin, r.WaitMax, n)):
		}
	}
}

type sdk struct{ rc *retrying }
type sdkConfig struct {
	RetryMax int
	WaitMin  *float64
}

func newSDK(cfg sdkConfig) *sdk {
	s := &sdk{}
	if cfg.RetryMax > 0 {
		rc := newRetrying()
		rc.RetryMax = cfg.RetryMax
		if cfg.WaitMin != nil {
			rc.WaitMin = time.Duration(*cfg.WaitMin * float64(time.Second))
		}
		s.rc = rc
	}
	return s
}

// M11: a worker loop calls a fetch helper each pass until done; the helper
// waits (jittered) when the queue is empty but returns at once on an
// error, so while the store is down every worker spins on it.
var errEmpty = errors.New("no task")

type worker struct {
	done  chan struct{}
	every time.Duration
	fetch func() (string, error)
	run   func(string)
}

func (w *worker) execOnce() {
	task, err := w.fetch()
	switch {
	case errors.Is(err, errEmpty):
		time.Sleep(w.every/2 + time.Duration(rand.Int64N(int64(w.every))))
		return
	case err != nil:
		return
	}
	w.run(task)
}

func (w *worker) start() {
	go func() {
		for {
			select {
			case <-w.done:
				return
			default:
				w.execOnce()
			}
		}
	}()
}

// M12: a loop repeated while a fetched result lacks what it needs (no
// error at all: an empty member list during an election), each pass
// invalidating the cache and waiting a fixed 100ms through a sleep
// function stored in a field (time.Sleep, swapped in tests): every client
// of the cluster re-fetches in lockstep while the election lasts.
type table struct{ Writers []string }
type router struct {
	sleep func(time.Duration)
	fetch func(context.Context) (*table, error)
	drop  func()
}

func newRouter(fetch func(context.Context) (*table, error)) *router {
	return &router{sleep: time.Sleep, fetch: fetch, drop: func() {}}
}

func (r *router) writers(ctx context.Context) ([]string, error) {
	t, err := r.fetch(ctx)
	if err != nil {
		return nil, err
	}
	for left := 100; len(t.Writers) == 0; {
		left--
		if left == 0 {
			break
		}
		r.drop()
		r.sleep(100 * time.Millisecond)
		if t, err = r.fetch(ctx); err != nil {
			return nil, err
		}
	}
	if len(t.Writers) == 0 {
		return nil, errors.New("no writers")
	}
	return t.Writers, nil
}

// M13: the attempt runs inside the timer's select case; after a failure
// the timer is reset to a delay that grows by the golden ratio to a cap,
// with no random part: every client of a restarted server retries in the
// same waves. (The ctx is honoured and Retry-After replaces the delay.)
func roundTrip(ctx context.Context, c *http.Client, req *http.Request, maxAttempts int) (*http.Response, error) {
	delay := 100 * time.Millisecond
	timer := time.NewTimer(0)
	defer timer.Stop()
	for attempt := 1; ; attempt++ {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-timer.C:
			resp, err := c.Do(req)
			if err == nil && resp.StatusCode != http.StatusServiceUnavailable {
				return resp, nil
			}
			if err == nil {
				resp.Body.Close()
			}
			if attempt >= maxAttempts {
				return nil, errors.New("giving up")
			}
			timer.Reset(delay)
			delay = min(time.Duration(float64(delay)*1.618), 15*time.Second)
		}
	}
}

// M14: on a rate-limit reply the client sleeps a delay function taken
// from its profile, which falls back, when unset, to a package function
// doubling whole seconds with no random part and no cap; the sleep is
// time.Sleep although the request carries a context. (The retry is
// opt-in: the attempt count is a profile field, zero by default.)
type durationFunc func(i int) time.Duration

func exponentialSeconds(i int) time.Duration {
	return time.Duration(1<<min(i, 30)) * time.Second
}

type profile struct {
	LimitRetries  int
	LimitDuration durationFunc
}

var errLimitExceeded = errors.New("RequestLimitExceeded")

func sendWithLimitRetry(c *http.Client, req *http.Request, p profile, check func(*http.Response) error) (*http.Response, error) {
	d := p.LimitDuration
	if d == nil {
		d = exponentialSeconds
	}
	var resp *http.Response
	var err error
	for i := 0; i <= max(p.LimitRetries, 0); i++ {
		if resp, err = c.Do(req); err != nil {
			return nil, err
		}
		if err = check(resp); errors.Is(err, errLimitExceeded) && i < p.LimitRetries {
			resp.Body.Close()
			time.Sleep(d(i))
			continue
		}
		return resp, err
	}
	return resp, err
}
