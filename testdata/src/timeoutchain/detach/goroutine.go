package detach

import (
	"context"
	"net/http"
	"sync"
)

type publisher interface {
	Publish(ctx context.Context, topic string, b []byte) error
}

// The context kept in a variable is used only by a goroutine meant to
// outlive the request: detached on purpose.
func order(pub publisher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bg := context.Background()
		go func() { _ = pub.Publish(bg, "orders", []byte("order")) }()
		w.WriteHeader(http.StatusAccepted)
	}
}

// The near miss: the same variable also serves the request's own call.
func orderSync(pub publisher) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bg := context.Background() // want `context.Background\(\) drops the deadline and cancellation of r.Context\(\)`
		go func() { _ = pub.Publish(bg, "audit", []byte("order")) }()
		if err := pub.Publish(bg, "orders", []byte("order")); err != nil {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}
}

// A closure kept in a variable and only started as a goroutine is work
// meant to outlive the caller, as `go func() {...}()` is: releasing the
// lease once ctx is done needs a context of its own.
func hold(ctx context.Context, pub publisher) {
	release := func(topic string) {
		<-ctx.Done()
		_ = pub.Publish(context.Background(), topic, []byte("released"))
	}
	go release("leases")
}

// Started as a goroutine on one path and called in place on another:
// the closure is still written to outlive the caller. Its Background is
// the lifetime the goroutine needs; ctx put there would end that
// goroutine with the request.
func holdOrWait(ctx context.Context, pub publisher, async bool) {
	release := func(topic string) {
		_ = pub.Publish(context.Background(), topic, []byte("released"))
	}
	if async {
		go release("leases")
		return
	}
	release("audit")
}

// The near miss: this closure is only called in place, where the caller
// waits for it; the goroutine starts another one.
func holdAndWait(ctx context.Context, pub publisher) {
	release := func(topic string) {
		_ = pub.Publish(context.Background(), topic, []byte("released")) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	}
	watch := func() { <-ctx.Done() }
	go watch()
	release("audit")
}

// releaseAsync uses its context only in the goroutine it starts, and
// does not wait for it: it detaches that work itself.
func releaseAsync(ctx context.Context, pub publisher, keys []string) *sync.WaitGroup {
	wg := new(sync.WaitGroup)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for _, k := range keys {
			_ = pub.Publish(ctx, "unlock", []byte(k))
		}
	}()
	return wg
}

func cancelLocks(ctx context.Context, pub publisher, keys []string) {
	releaseAsync(context.Background(), pub, keys)
}

// The near miss: fanOut waits for the goroutines it starts, so the call
// runs the work under the context it is given.
func fanOut(ctx context.Context, pub publisher, keys []string) error {
	var wg sync.WaitGroup
	for _, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = pub.Publish(ctx, "unlock", []byte(k))
		}()
	}
	wg.Wait()
	return nil
}

func unlockAll(ctx context.Context, pub publisher, keys []string) error {
	return fanOut(context.Background(), pub, keys) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
