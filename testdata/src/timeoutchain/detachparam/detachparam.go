// Package detachparam: functions that only ever detach their context
// parameter have no lifetime of the caller's to drop.
package detachparam

import (
	"context"
	"errors"

	"timeoutchain/detachparam/xctx"
)

type worker struct{ base context.Context }

func (w *worker) close(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		return nil
	}
}

func (w *worker) fetch(ctx context.Context) error { return w.close(ctx) }

// Writer runs on a context of its own.
type Writer struct{ bg *worker }

func (w *Writer) init() error { return errors.New("no stream") }

func newStopped(labels context.Context) *Writer {
	return &Writer{bg: &worker{base: context.WithoutCancel(labels)}}
}

// New takes a context for its values only: it hands it to newStopped,
// which keeps it detached. The Background that closes a writer whose
// start failed drops nothing New honours.
func New(labels context.Context) (*Writer, error) {
	w := newStopped(labels)
	if err := w.init(); err != nil {
		_ = w.bg.close(context.Background())
		return nil, err
	}
	return w, nil
}

// The same through another package's values-only context (its fact).
func NewLabelled(labels context.Context) (*Writer, error) {
	w := &Writer{bg: &worker{base: xctx.ValuesOnly(labels)}}
	if err := w.init(); err != nil {
		_ = w.bg.close(context.Background())
		return nil, err
	}
	return w, nil
}

type traceKey struct{}

// Values read from it are no lifetime either.
func NewTraced(ctx context.Context) (*Writer, error) {
	_ = ctx.Value(traceKey{})
	w := newStopped(ctx)
	if err := w.init(); err != nil {
		_ = w.bg.close(context.Background())
		return nil, err
	}
	return w, nil
}

// Near miss: the context is detached for the worker, but the first fetch
// runs under it: the Background drops its deadline.
func NewFetched(ctx context.Context) (*Writer, error) {
	w := newStopped(ctx)
	if err := w.bg.fetch(ctx); err != nil {
		_ = w.bg.close(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
		return nil, err
	}
	return w, nil
}

// Near miss: a context only read for its values is not detached on
// purpose; the work under the Background is the caller's request.
func Lookup(ctx context.Context, w *Writer) error {
	_ = ctx.Value(traceKey{})
	return w.bg.fetch(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// Near miss: a context type that keeps its parent's Done ends with the
// caller: it is not detached.
func NewFollowing(ctx context.Context) (*Writer, error) {
	w := &Writer{bg: &worker{base: xctx.Following(ctx)}}
	if err := w.init(); err != nil {
		_ = w.bg.close(context.Background()) // want `context.Background\(\) drops the deadline and cancellation of ctx`
		return nil, err
	}
	return w, nil
}
