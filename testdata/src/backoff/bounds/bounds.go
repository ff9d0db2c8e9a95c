// Package bounds: stops and bounds a retry loop may have, and retries
// decided by a returned bool.
package bounds

import (
	"context"
	"errors"
	mrand "math/rand"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// dependency stands for what an attempt reaches: another service.
var dependency interface {
	Call(ctx context.Context) error
}

func call(ctx context.Context) error { return dependency.Call(ctx) }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// isHalt checks the context it is given (its CtxCheckFact).
func isHalt(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, context.Canceled)
}

// isFatal looks only at the error: no bound.
func isFatal(err error) bool { return errors.Is(err, errors.ErrUnsupported) }

// The context is checked inside a helper: bounded by it.
func haltHelper(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if isHalt(ctx, err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// A helper that only classifies the error bounds nothing.
func fatalHelper(ctx context.Context) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if isFatal(err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

type worker struct{ stop chan struct{} }

// The wait selects on a stop channel: another goroutine ends the loop.
func (w *worker) stopChannel(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-w.stop:
			return err
		case <-time.After(jittered(time.Second)): //resilint:ignore timeoutchain the fixture is about the bound
		}
	}
}

type client struct{ hc *http.Client }

func (c *client) shouldRetry(resp *http.Response, err error) (bool, error) {
	if err != nil {
		return true, err
	}
	return resp.StatusCode >= 500, nil
}

// A retry decided by a returned bool is a retry.
func (c *client) boolDecided(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		resp, err := c.hc.Do(req)
		retry, cerr := c.shouldRetry(resp, err)
		if !retry {
			return resp, cerr
		}
	}
	return nil, errors.New("gave up")
}

func ready(ctx context.Context) (bool, error) { return false, nil }

// A bool that decides nothing about an earlier operation: polling a
// condition, not a retry.
func poll(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		ok, err := ready(ctx)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return errors.New("not ready")
}

// A deadline's timer polled without blocking bounds the loop by time.
func commitLoop(commit func() error, unknown func(error) bool) error {
	deadline := time.NewTimer(2 * time.Minute)
	defer deadline.Stop()
	for {
		err := commit()
		if err == nil || !unknown(err) {
			return err
		}
		select {
		case <-deadline.C:
			return errors.New("timed out")
		default:
		}
		time.Sleep(jittered(time.Second))
	}
}

type sleeper func(context.Context, time.Duration) error

// The wait goes through a sleeper the caller hands in: it may wait, so the
// loop is not judged to retry at once.
func invoke(ctx context.Context, call func() error, sp sleeper) error {
	for i := 0; i < 3; i++ {
		err := call()
		if err == nil {
			return nil
		}
		if err := sp(ctx, time.Second); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

type pool struct{ closed atomic.Bool }

func (p *pool) dial() error { return nil }

// Ended by another goroutine through a field: bounded.
func (p *pool) reconnect() {
	for {
		if p.closed.Load() {
			return
		}
		if err := p.dial(); err != nil {
			time.Sleep(jittered(time.Second))
			continue
		}
		return
	}
}

// A local flag is no stop set from elsewhere: no bound.
func (p *pool) reconnectLocal() {
	done := false
	for { // want `retry loop has no bound`
		if done {
			return
		}
		if err := p.dial(); err != nil {
			time.Sleep(jittered(time.Second))
			continue
		}
		return
	}
}

type listener struct {
	mu       sync.Mutex
	isClosed bool
	stop     uint32
}

func (l *listener) connect() error { return nil }

// closed reads the flag Close sets, under the lock: a question about
// shared state.
func (l *listener) closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.isClosed
}

// eager decides nothing from shared state.
func (l *listener) eager() bool { return false }

// Ended when Close sets the flag the getter reads: bounded.
func (l *listener) reconnect() {
	for {
		err := l.connect()
		if err == nil {
			return
		}
		if l.closed() {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}

// A bool method that reads no shared state is no stop: no bound.
func (l *listener) reconnectEager() {
	for { // want `retry loop has no bound`
		err := l.connect()
		if err == nil {
			return
		}
		if l.eager() {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}

// The loop's own condition reads the stop flag Close sets: bounded.
func (l *listener) refresh() {
	for attempt := 0; atomic.LoadUint32(&l.stop) == 0; attempt++ {
		if err := l.connect(); err == nil {
			return
		}
		time.Sleep(jittered(time.Duration(attempt) * time.Second))
	}
}

// The loop's condition reads a local flag nothing else sets: no bound.
func (l *listener) refreshLocal() {
	stopped := false
	for attempt := 0; !stopped; attempt++ { // want `retry loop has no bound`
		if err := l.connect(); err == nil {
			return
		}
		time.Sleep(jittered(time.Duration(attempt) * time.Second))
	}
}

func through(op func() error) error { return op() }

// The operation runs through a closure that assigns the loop's error: still
// a retry of the same request.
func viaClosure(send func() error) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		err = through(func() error {
			err = send()
			return err
		})
		if err == nil {
			return nil
		}
	}
	return err
}

// Policy decides, from the number of failures so far, how long to wait
// and whether to go on.
type Policy interface {
	Next(failures int) (time.Duration, bool)
}

// The policy is given the count and says when to stop: the bound is the
// policy's, not absent.
func withPolicy(ctx context.Context, p Policy) error {
	var n int
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		n++
		wait, ok := p.Next(n)
		if !ok {
			return err
		}
		time.Sleep(wait) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// The near miss: a policy that sees only the error cannot count, and the
// count is never compared: no bound.
func withClassifier(ctx context.Context, retryable func(error) bool) error {
	var n int
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		n++
		if !retryable(err) {
			return err
		}
		time.Sleep(jittered(time.Duration(n) * time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// cqlQuery counts its own attempts; a queryPolicy is asked with the query.
type cqlQuery struct{ attempts int }

func (q *cqlQuery) addAttempt() { q.attempts++ }

type queryPolicy interface {
	Attempt(q *cqlQuery) bool
}

// The policy the model cannot see into is given the query, which carries
// the attempts the loop adds: its bound is the policy's, unknown but not
// absent.
func withQueryPolicy(ctx context.Context, p queryPolicy) error {
	q := &cqlQuery{}
	for {
		err := call(ctx)
		q.addAttempt()
		if err == nil || !p.Attempt(q) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// The near miss: a policy given only the error classifies it and counts
// nothing, even through an interface.
type errPolicy interface {
	Retryable(err error) bool
}

func withErrPolicy(ctx context.Context, p errPolicy) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil || !p.Retryable(err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// budget counts down the retries a client may still make.
type budget struct{ left int }

func (b *budget) take() bool {
	if b.left <= 0 {
		return false
	}
	b.left--
	return true
}

// A retry budget of the package bounds the loop: its count is the
// budget's.
func withBudget(ctx context.Context, b *budget) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if !b.take() {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// recorder keeps the last error; its answer counts nothing.
type recorder struct {
	last  error
	calls int
}

func (r *recorder) retryable(err error) bool {
	r.last = err
	r.calls++
	return err != nil
}

// The near miss: a method that steps a field it never compares is no
// budget.
func withRecorder(ctx context.Context, r *recorder) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if !r.retryable(err) {
			return err
		}
		time.Sleep(jittered(time.Second)) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// untilCancelled ends when the attempt fails with the cancellation of
// the context it was given: bounded by ctx.
func untilCancelled(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		time.Sleep(jittered(time.Second))
	}
}

// untilCancelledSwitch does so in a switch.
func untilCancelledSwitch(ctx context.Context) error {
	for {
		err := call(ctx)
		switch {
		case err == nil:
			return nil
		case err == context.Canceled:
			return err
		}
		time.Sleep(jittered(time.Second))
	}
}

// deadlineRetried goes round on a deadline passed (a per-attempt timeout),
// and nothing ends it.
func deadlineRetried(ctx context.Context) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.DeadlineExceeded) {
			continue
		}
		time.Sleep(jittered(time.Second))
	}
}

// cancelLogged only logs a cancellation and goes on: no bound.
func cancelLogged(ctx context.Context, logf func(string)) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.Canceled) {
			logf("cancelled")
		}
		time.Sleep(jittered(time.Second))
	}
}

// seeded reads the clock only to seed a generator: no time bound.
func seeded(ctx context.Context, addrs []string) error {
	for { // want `retry loop has no bound`
		r := mrand.New(mrand.NewSource(time.Now().UnixNano()))
		if err := call(ctx); err == nil {
			return nil
		}
		_ = addrs[r.Intn(len(addrs))]
		time.Sleep(jittered(time.Second))
	}
}

// elapsed compares a clock reading kept in a variable: bounded by time.
func elapsed(ctx context.Context, start time.Time) error {
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		spent := time.Since(start)
		if spent > time.Minute {
			return errors.New("gave up")
		}
		time.Sleep(jittered(time.Second))
	}
}

// until loops while the clock is before a deadline: bounded by time.
func until(ctx context.Context, end time.Time) error {
	for time.Now().Before(end) {
		if err := call(ctx); err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return errors.New("gave up")
}
