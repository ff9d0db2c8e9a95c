// Package blindwaits: a wait helper whose every wait is a time.Sleep
// watches no context; called between the attempts of a retry that has
// one, it ignores cancellation as time.Sleep does. Helpers that select
// on a context or a stop are their own business.
package blindwaits

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

type bus interface {
	Publish(ctx context.Context, subject string, b []byte) error
}

func pause(d time.Duration) { time.Sleep(d) }

// nap waits through pause: blind too.
func nap(n int) { pause(time.Duration(n) * rand.N(100*time.Millisecond)) }

func Publish(ctx context.Context, b bus, subject string, msg []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = b.Publish(ctx, subject, msg); err == nil {
			return nil
		}
		pause(rand.N(time.Second)) // want `the retry loop waits without watching ctx`
	}
	return err
}

func PublishNap(ctx context.Context, b bus, subject string, msg []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = b.Publish(ctx, subject, msg); err == nil {
			return nil
		}
		nap(i + 1) // want `the retry loop waits without watching ctx`
	}
	return err
}

// A closure that sleeps is blind as well.
func PublishClosure(ctx context.Context, b bus, subject string, msg []byte) error {
	wait := func(d time.Duration) { time.Sleep(d) }
	var err error
	for i := 0; i < 5; i++ {
		if err = b.Publish(ctx, subject, msg); err == nil {
			return nil
		}
		wait(rand.N(time.Second)) // want `the retry loop waits without watching ctx`
	}
	return err
}

// sleepCtx watches the context it is given.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type worker struct{ closing chan struct{} }

// pauseOrClose watches the worker's closing channel.
func (w *worker) pauseOrClose(d time.Duration) {
	select {
	case <-w.closing:
	case <-time.After(d):
	}
}

// The near misses: the helpers watch the context or a stop of their own.
func PublishCtx(ctx context.Context, b bus, subject string, msg []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = b.Publish(ctx, subject, msg); err == nil {
			return nil
		}
		if werr := sleepCtx(ctx, rand.N(time.Second)); werr != nil {
			return werr
		}
	}
	return err
}

func (w *worker) Publish(ctx context.Context, b bus, subject string, msg []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = b.Publish(ctx, subject, msg); err == nil {
			return nil
		}
		w.pauseOrClose(rand.N(time.Second))
	}
	return errors.Join(err, ctx.Err())
}
