package crosspkg

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"backoff/waithelpers"
)

func call(ctx context.Context) error { return errors.New("down") }

// The helper of another package waits (its WaitFact): not an immediate retry.
func pausesThroughHelper(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if perr := waithelpers.Pause(ctx, waithelpers.Spread(time.Second)); perr != nil {
			return perr
		}
	}
	return err
}

// A helper named like a sleep that does not wait is no wait.
func hintIsNoWait(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
		_ = waithelpers.SleepHint(i)
	}
	return err
}

// The jitter helper of another package draws at random (its RandomFact).
func spreadIsJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(waithelpers.Spread(time.Second)) //resilint:ignore timeoutchain the fixture is about jitter
	}
	return err
}

// A helper named for jitter that draws nothing is no jitter: its
// DelayFact says it doubles what it is given, with no random part.
// Reported.
func namedJitterIsNone(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(waithelpers.JitterFree(time.Second)) // want `retry delay has no jitter`
	}
	return err
}

// A helper that retries by itself and waits between its own attempts
// (RetryHelperFact.Spaced, across packages): a caller that calls it again
// starts each round with at most one attempt at once, the others wait.
// No retry storm (the nest is retrynesting's to judge); not reported.
func retriesARetry(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = waithelpers.Fetch(ctx, call); err == nil {
			return nil
		}
	}
	return err
}

// A wait through another package's helper, of a delay with no random
// draw: no jitter.
func pauseFixed(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if perr := waithelpers.Pause(ctx, time.Duration(i+1)*time.Second); perr != nil { // want `retry delay has no jitter`
			return perr
		}
	}
	return err
}

// The other package's wait adds its own random part (WaitFact.Jitters):
// the fixed second it is given is not what it waits.
func dozesThroughHelper(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if perr := waithelpers.Doze(ctx, time.Second); perr != nil {
			return perr
		}
	}
	return err
}

// nap waits d and a random part of it.
func nap(d time.Duration) {
	time.Sleep(d + time.Duration(rand.Int64N(int64(d))))
}

// nod waits d exactly.
func nod(d time.Duration) {
	time.Sleep(d)
}

// This package's jittering wait.
func napsThroughHelper(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		nap(time.Second)
	}
	return err
}

// The near miss: the helper waits what it is given.
func nodsThroughHelper(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		nod(time.Second) // want `retry delay has no jitter`
	}
	return err
}

// A closure that waits, held in a local variable, given a fixed second.
func pausesThroughClosure(ctx context.Context) error {
	pause := func(d time.Duration) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
			return nil
		}
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		if perr := pause(time.Second); perr != nil { // want `retry delay has no jitter`
			return perr
		}
	}
	return err
}

// The near miss: the closure adds its own random part.
func dozesThroughClosure(ctx context.Context) error {
	doze := func(d time.Duration) {
		time.Sleep(d + time.Duration(rand.Int64N(int64(d))))
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		doze(time.Second)
	}
	return err
}
