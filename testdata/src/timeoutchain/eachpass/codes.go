package eachpass

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func register(ctx context.Context, name string) error { return ctx.Err() }

// It goes round only while the server answers Unavailable, and the
// attempt is given ctx: a call cancelled through its context fails with
// Canceled or DeadlineExceeded, never Unavailable, so after a
// cancellation the pause under way ends and the loop leaves. Not
// reported.
func registerWhileUnavailable(ctx context.Context, name string) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := register(ctx, name)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unavailable {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		return err
	}
	return nil
}

// Near misses: DeadlineExceeded is what an attempt whose context ran out
// fails with, and Unknown the code of an error with no status, such as
// the context's own. Reported.
func registerOnDeadline(ctx context.Context, name string) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := register(ctx, name)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.DeadlineExceeded {
			time.Sleep(50 * time.Millisecond) // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
	return nil
}

func registerOnUnknown(ctx context.Context, name string) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := register(ctx, name)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unknown {
			time.Sleep(50 * time.Millisecond) // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
	return nil
}

// The attempt is given a context made from ctx with a deadline of its
// own: cancelled with ctx, so the same holds. Not reported.
func registerWithin(ctx context.Context, name string) error {
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		err := register(tctx, name)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unavailable {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		return err
	}
}

// Near miss: a context made from ctx without its cancellation; after
// ctx is cancelled every attempt may still answer Unavailable. Reported.
func registerDetached(ctx context.Context, name string) error {
	dctx := context.WithoutCancel(ctx)
	for {
		err := register(dctx, name)
		if err == nil {
			return nil
		}
		if status.Code(err) == codes.Unavailable {
			time.Sleep(50 * time.Millisecond) // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
}
