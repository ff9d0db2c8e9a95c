// Package conflict: loops that go round on a lost optimistic-concurrency
// race read the state anew and write again; they do not retry a failed
// call, so an immediate next pass is no retry storm.
package conflict

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/redis/go-redis/v9"
)

type record struct{ holder string }

func get(ctx context.Context) (record, error)    { return record{}, nil }
func update(ctx context.Context, r record) error { return errors.New("conflict") }
func watch(ctx context.Context) error            { return redis.TxFailedErr }

// Read, modify, write; on a conflict read again: silent.
func release(ctx context.Context) error {
	for {
		r, err := get(ctx)
		if err != nil {
			return err
		}
		r.holder = ""
		err = update(ctx, r)
		if err == nil || !apierrors.IsConflict(err) {
			return err
		}
	}
}

// The same as a function calling itself on a conflict: silent.
func tryRelease(ctx context.Context) bool {
	r, err := get(ctx)
	if err != nil {
		return false
	}
	r.holder = ""
	if err := update(ctx, r); err != nil {
		if apierrors.IsConflict(err) {
			return tryRelease(ctx)
		}
		return false
	}
	return true
}

// A WATCH transaction run again when a watched key changed: silent.
func increment(ctx context.Context) error {
	for i := 0; i < 100; i++ {
		err := watch(ctx)
		if err != redis.TxFailedErr {
			return err
		}
	}
	return errors.New("increment: too many conflicts")
}

// The near miss: going round on any failure is a retry, at once.
func releaseAny(ctx context.Context) error {
	for i := 0; i < 5; i++ { // want `retry loop tries again at once after a failure`
		r, err := get(ctx)
		if err != nil {
			continue
		}
		r.holder = ""
		if err = update(ctx, r); err == nil {
			return nil
		}
	}
	return errors.New("release: gave up")
}
