package donevar

import (
	"context"
	"errors"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

// ctx.Done() kept in a variable before the select still ends the wait.
func doneInVariable(ctx context.Context) error {
	done := ctx.Done()
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-done:
			return ctx.Err()
		case <-time.After(time.Second): //resilint:ignore backoff the fixture is about cancellation
		}
	}
	return err
}

// A sleep reached only when the context can never be cancelled ignores
// nothing.
func sleepsOnlyWhenUncancellable(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if ctx.Done() == nil {
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// A channel that is not the context's does not end the wait when the
// caller gives up.
func otherChannel(ctx context.Context, stop chan struct{}) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if stop == nil {
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}

// A sleep after a guard that leaves whenever the context can be cancelled
// (`if done := ctx.Done(); done != nil { select ... }`) is reached only
// when it never can: it ignores nothing.
func sleepsAfterDoneGuard(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if done := ctx.Done(); done != nil {
			t := time.NewTimer(time.Second)
			select {
			case <-done:
				t.Stop()
				return ctx.Err()
			case <-t.C:
				continue
			}
		}
		time.Sleep(time.Second)
	}
	return err
}

// A guard whose body can fall through (the timer case goes on to the
// sleep) does not say the context can never be cancelled.
func sleepsAfterLeakyGuard(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if done := ctx.Done(); done != nil {
			t := time.NewTimer(time.Second)
			select {
			case <-done:
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return err
}

// canEnd says whether ctx can ever be cancelled, and does nothing else.
func canEnd(ctx context.Context) bool { return ctx.Done() != nil }

// The same test kept in a flag (and below, through a helper of the
// package).
func sleepsOnlyWhenUncancellableFlag(ctx context.Context) error {
	cancellable := ctx.Done() != nil
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if !cancellable {
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func sleepsOnlyWhenUncancellableHelper(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if !canEnd(ctx) {
			time.Sleep(time.Second)
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// The near miss: the flag says the context can be cancelled.
func sleepsWhenCancellableFlag(ctx context.Context) error {
	cancellable := ctx.Done() != nil
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if cancellable {
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
		}
	}
	return err
}
