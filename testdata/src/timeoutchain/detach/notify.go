package detach

import (
	"context"
	"log/slog"
)

// observer is told about frames; whatever implements it cannot tell its
// caller that it was cancelled: it returns nothing.
type observer interface {
	Observe(ctx context.Context, frame []byte)
}

// store can fail with the context's error.
type store interface {
	Put(ctx context.Context, key string) error
}

type reader struct {
	obs observer
	db  store
	log *slog.Logger
}

// Notifications get Background: the context only carries values there.
func (r *reader) recv(ctx context.Context, frame []byte) {
	r.obs.Observe(context.Background(), frame)
	r.log.InfoContext(context.Background(), "frame", "len", len(frame))
	record(context.Background(), frame)
}

func record(ctx context.Context, frame []byte) {}

// A call that can fail with the context's error is dropped, interface or
// not.
func (r *reader) save(ctx context.Context, key string) error {
	return r.db.Put(context.Background(), key) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
