package closures

import (
	"context"
	"errors"
	"time"
)

func ping() error { return errors.New("down") }

// The delay grows with the attempt parameter the recursion steps: a
// counter, not a value the caller chooses, so it has no random part.
func pingCounted(attempt int) error {
	err := ping()
	if err != nil && attempt < 4 {
		time.Sleep(time.Duration(attempt+1) * time.Second) // want `retry delay has no jitter`
		return pingCounted(attempt + 1)
	}
	return err
}

// Doubling with the attempt counted up to 5: at most five attempts, so
// the growth is capped; only the jitter is missing.
func pingDoubling(attempt int) error {
	err := ping()
	if err != nil && attempt < 5 {
		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond) // want `retry delay has no jitter`
		return pingDoubling(attempt + 1)
	}
	return err
}

// The near miss: the delay is a duration the caller gives (it may be
// jittered there), doubled on each call: not known here.
func pingGiven(attempt int, d time.Duration) error {
	err := ping()
	if err != nil && attempt < 4 {
		time.Sleep(d)
		return pingGiven(attempt+1, d)
	}
	return err
}

// One exit guard for success and the bound (`err == nil || attempt >=
// 4`): past it the call failed with attempts left.
func pingGuarded(attempt int) error {
	err := ping()
	if err == nil || attempt >= 4 {
		return err
	}
	time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond) // want `retry delay has no jitter`
	return pingGuarded(attempt + 1)
}

// The near miss: a conjunction leaves only when both hold, so past it the
// call may have succeeded: no recursive retry of a failure is known.
func pingBoth(attempt int) error {
	err := ping()
	if err == nil && attempt >= 4 {
		return err
	}
	time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond)
	return pingBoth(attempt + 1)
}

// reconnect waits at its start, by the tries its caller counts up, with
// no bound on them but the context: the tries are still a counter, so the
// capped linear delay has no random part.
func reconnect(ctx context.Context, try int) error {
	delay := time.Duration(try) * 2 * time.Second
	if delay > 30*time.Second {
		delay = 30 * time.Second
	}
	t := time.NewTimer(delay) // want `retry delay has no jitter`
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	if err := ping(); err != nil {
		return reconnect(ctx, try+1)
	}
	return nil
}

// reconnectSpread passes on a value its caller chose, not a step of its
// own: not a counter, the delay is not known.
func reconnectSpread(ctx context.Context, try int, spread time.Duration) error {
	t := time.NewTimer(spread)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	if err := ping(); err != nil {
		return reconnectSpread(ctx, try+1, spread)
	}
	return nil
}
