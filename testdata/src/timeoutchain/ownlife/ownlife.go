// Package ownlife: a context made from Background that gets a lifetime of
// its own (a deadline, or a cancel function that other code calls) is
// detached on purpose; a plain Background where the caller's context
// belongs is dropped.
package ownlife

import (
	"context"
	"net/http"
	"time"
)

func query(ctx context.Context, q string) error { return ctx.Err() }

// ---- dropped: reported ---------------------------------------------------

// A handler that queries under Background: a gone client leaves the query
// running.
func handler(w http.ResponseWriter, r *http.Request) {
	if err := query(context.Background(), "select 1"); err != nil { // want `context.Background\(\) drops the deadline and cancellation of r.Context\(\)`
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// A cancel function only called here ends the context when the call is
// over anyway: the caller's cancellation is still dropped.
func localCancel(ctx context.Context) error {
	c, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	defer cancel()
	return query(c, "select 1")
}

// The same, cancelled by a deferred closure: still in place.
func deferredClosure(ctx context.Context) error {
	c, cancel := context.WithCancel(context.TODO()) // want `context.TODO\(\) drops the deadline and cancellation of ctx`
	defer func() { cancel() }()
	return query(c, "select 1")
}

// Compared, then called in place: still in place.
func comparedCancel(ctx context.Context) error {
	var cancel context.CancelFunc
	c := ctx
	if ctx.Done() != nil {
		c, cancel = context.WithCancel(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	}
	err := query(c, "select 1")
	if cancel != nil {
		cancel()
	}
	return err
}

// Values only: no lifetime of its own.
type key struct{}

func withValue(ctx context.Context) error {
	return query(context.WithValue(context.Background(), key{}, 1), "select 1") // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// Background assigned, then replaced by a derivation of ctx on one path
// only: the other path runs under Background.
func sometimesBounded(ctx context.Context, d time.Duration) error {
	c := context.Background() // want `context.Background\(\) drops the deadline and cancellation of ctx`
	if d > 0 {
		var cancel context.CancelFunc
		c, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	return query(c, "select 1")
}

// ---- near misses: a lifetime of their own --------------------------------

// A shared cache fill bounded by its own timeout: one caller's
// cancellation must not fail it for the others.
func ownTimeout(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return query(c, "fill")
}

// The same through a variable, and with a deadline.
func ownDeadline(ctx context.Context, at time.Time) error {
	bg := context.Background()
	c, cancel := context.WithDeadline(bg, at)
	defer cancel()
	return query(c, "fill")
}

// Two parents merged by hand: the new context is cancelled from a
// goroutine when either parent is done.
func merge(a, b context.Context) (context.Context, context.CancelCauseFunc) {
	c, cancel := context.WithCancelCause(context.Background())
	go func() {
		select {
		case <-a.Done():
			cancel(context.Cause(a))
		case <-b.Done():
			cancel(context.Cause(b))
		}
	}()
	return c, cancel
}

// A dial shared by several waiters: its cancel function is stored for the
// last of them.
type waiter struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func sharedDial(ctx context.Context, queue chan<- *waiter) error {
	dctx, cancel := context.WithCancel(context.Background())
	w := &waiter{ctx: dctx, cancel: cancel}
	queue <- w
	return query(dctx, "dial")
}

// A worker's lifetime, stopped by Stop.
type worker struct {
	ctx  context.Context
	stop context.CancelFunc
}

func (wk *worker) Start(ctx context.Context) error {
	wk.ctx, wk.stop = context.WithCancel(context.Background())
	return query(wk.ctx, "start")
}

// Cancellation propagated by the runtime: AfterFunc calls cancel when ctx
// is done.
func afterFunc(ctx context.Context) error {
	c, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	return query(c, "select 1")
}

// ---- bounded by the callee ----------------------------------------------

// closeConn bounds the context it is given before anything uses it.
func closeConn(ctx context.Context, broken bool) bool {
	if !broken {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return query(ctx, "close") == nil
}

// closeAfter bounds it into a variable of its own, its only use.
func closeAfter(ctx context.Context) error {
	c, cancel := context.WithDeadline(ctx, time.Now().Add(time.Second))
	defer cancel()
	return query(c, "close")
}

// Cleanup must run after the caller's context is done: it is given a fresh
// one that the callee bounds. Not reported.
func receive(ctx context.Context) error {
	err := query(ctx, "fetch")
	closeConn(context.Background(), err != nil)
	return closeAfter(context.Background())
}

// closeLoose uses the context before it bounds it.
func closeLoose(ctx context.Context) error {
	if err := query(ctx, "ping"); err != nil {
		return err
	}
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return query(c, "close")
}

// closeBoth bounds it into a variable but uses it again after.
func closeBoth(ctx context.Context) error {
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := query(c, "close"); err != nil {
		return err
	}
	return query(ctx, "flush")
}

// The callee uses the context unbounded on some path: reported.
func receiveLoose(ctx context.Context) error {
	if err := closeLoose(context.Background()); err != nil { // want `context.Background\(\) drops the deadline and cancellation of ctx`
		return err
	}
	return closeBoth(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
