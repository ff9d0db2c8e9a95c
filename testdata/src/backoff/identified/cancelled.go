package identified

import (
	"context"
	"sync"
)

type backend interface {
	Watch(ctx context.Context, key string) error
}

// router runs each watch on the primary backend; switching the primary
// cancels the watches running on the old one, so that they restart on
// the new one.
type router struct {
	mu      sync.Mutex
	primary backend
	cancels map[int]context.CancelFunc
	next    int
}

func (r *router) register(cancel context.CancelFunc) (backend, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.cancels[r.next] = cancel
	return r.primary, r.next
}

func (r *router) unregister(id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.cancels, id)
}

// watch goes round at once only when its own attempt was cancelled (by a
// switch of the primary) while the caller's context lives: a restart on
// the new primary, not a failure of the dependency. Every other error is
// returned. Not reported.
func (r *router) watch(ctx context.Context, key string) error {
	for {
		attemptCtx, cancel := context.WithCancel(ctx)
		b, id := r.register(cancel)
		err := b.Watch(attemptCtx, key)
		cancel()
		r.unregister(id)
		if err == nil {
			return nil
		}
		if attemptCtx.Err() == context.Canceled && ctx.Err() == nil {
			continue
		}
		return err
	}
}

// The near miss goes round at once on any failure.
func (r *router) watchAny(ctx context.Context, key string) error {
	for i := 0; i < 5; i++ { // want `retry loop tries again at once after a failure`
		b, id := r.register(func() {})
		err := b.Watch(ctx, key)
		r.unregister(id)
		if err == nil {
			return nil
		}
	}
	return nil
}
