package identified

import (
	"context"
	"errors"
	"fmt"

	pkgerrors "github.com/pkg/errors"
)

// staleLockError says the lock was taken at a timestamp another writer
// has passed: taking a new timestamp and locking again is the answer.
type staleLockError struct{ ts uint64 }

func (e *staleLockError) Error() string { return fmt.Sprintf("stale lock at %d", e.ts) }

type locker interface {
	Lock(ctx context.Context, ts uint64) error
	Now(ctx context.Context) (uint64, error)
}

// LockFresh goes round at once only after a stale lock, which it picks
// out by the type of the error's cause (pkg/errors' Cause takes the
// wrapping off, as errors.As would look through it). Not reported.
func LockFresh(ctx context.Context, l locker, ts uint64) error {
	for tries := 0; tries < 5; tries++ {
		err := l.Lock(ctx, ts)
		if err == nil {
			return nil
		}
		if _, ok := pkgerrors.Cause(err).(*staleLockError); !ok {
			return err
		}
		if ts, err = l.Now(ctx); err != nil {
			return err
		}
	}
	return errors.New("lock stayed stale")
}

// LockFreshSwitch picks it out with a type switch on errors.Unwrap's
// result: not reported.
func LockFreshSwitch(ctx context.Context, l locker, ts uint64) error {
	for tries := 0; tries < 5; tries++ {
		err := l.Lock(ctx, ts)
		if err == nil {
			return nil
		}
		switch errors.Unwrap(err).(type) {
		case *staleLockError:
			if ts, err = l.Now(ctx); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return errors.New("lock stayed stale")
}

func describe(err error) error { return fmt.Errorf("lock: %v", err) }

// LockDescribed is the near miss: the type is asserted on a new error
// made from the failure's text, which holds no type of the failure's;
// the assertion picks nothing out, and the loop tries again at once.
func LockDescribed(ctx context.Context, l locker, ts uint64) error {
	for tries := 0; tries < 5; tries++ { // want `tries again at once`
		err := l.Lock(ctx, ts)
		if err == nil {
			return nil
		}
		if _, ok := describe(err).(*staleLockError); ok {
			return err
		}
		if ts, err = l.Now(ctx); err != nil {
			return err
		}
	}
	return errors.New("lock stayed stale")
}
