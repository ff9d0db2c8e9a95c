package hooks

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A closure sent on a channel runs in whatever goroutine receives it.
func enqueue(ctx context.Context, work chan<- func()) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = dial(ctx)
		work <- func() { _ = flush(context.WithoutCancel(ctx)) }
		if err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// A handler registered on a mux runs per request; a value stored in an
// atomic.Value runs when someone calls it.
func register(ctx context.Context, mux *http.ServeMux, cur *atomic.Value) error {
	var err error
	for i := 0; i < 3; i++ {
		_, err = dial(ctx)
		mux.HandleFunc("/flush", func(w http.ResponseWriter, r *http.Request) { _ = flush(r.Context()) })
		cur.Store(func() error { return flush(ctx) })
		if err == nil {
			return nil
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// Near miss: a once-function made and called in the attempt runs there.
func onceCalled(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry`
		if _, err = dial(ctx); err == nil {
			load := sync.OnceValue(func() error { return flush(ctx) })
			if err = load(); err == nil {
				return nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

// A release function kept in a variable and returned to the caller.
func acquire(ctx context.Context) (func() error, error) {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = dial(ctx); err == nil {
			release := func() error { return flush(ctx) }
			return release, nil
		}
		time.Sleep(jittered(time.Second))
	}
	return nil, err
}

// Near misses: the closure is run in the attempt after all.
func runsNow(ctx context.Context, work chan func()) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry`
		if _, err = dial(ctx); err == nil {
			release := func() error { return flush(ctx) }
			if err = release(); err == nil {
				return nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}

func onceNow(ctx context.Context) error {
	var err error
	var once sync.Once
	for i := 0; i < 3; i++ { // want `nested retry`
		if _, err = dial(ctx); err == nil {
			once.Do(func() { err = flush(ctx) })
			if err == nil {
				return nil
			}
		}
		time.Sleep(jittered(time.Second))
	}
	return err
}
