// Package eachpass: retry loops that check their context on every pass.
package eachpass

import (
	"context"
	"errors"
	"time"
)

var errNotYet = errors.New("not ready yet")

func ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errNotYet
}

type poller struct{ every time.Duration }

// The loop leaves at its next check of ctx: after a cancellation the
// pause under way (a constant, a configured interval) ends and no attempt
// follows. Not reported.
func (p *poller) pollTop(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(p.every)
	}
}

func pollBeforeSleep(ctx context.Context) error {
	for i := 0; i < 30; i++ {
		if err := ready(ctx); err == nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	return errNotYet
}

func pollInSelect(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
			if err := ready(ctx); err != nil {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			return nil
		}
	}
}

// The near misses. A check some passes skip: a continue before it.
func skipsCheck(ctx context.Context) error {
	for i := 0; i < 30; i++ {
		if err := ready(ctx); err != nil {
			time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return nil
	}
	return errNotYet
}

// A check inside a branch, not on every pass.
func checkInBranch(ctx context.Context, verbose bool) error {
	for i := 0; i < 30; i++ {
		if err := ready(ctx); err == nil {
			return nil
		}
		if verbose {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return errNotYet
}

// A break in the select leaves only the select.
func breaksSelect(ctx context.Context) error {
	for i := 0; i < 30; i++ {
		select {
		case <-ctx.Done():
			break
		default:
		}
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return errNotYet
}

// A delay that grows: the wait under way may be long.
func growing(ctx context.Context) error {
	d := 100 * time.Millisecond
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(d) // want `the retry loop waits without watching ctx`
		d *= 2
	}
	return errNotYet
}

// A delay computed from what the server said (the time until a reset):
// the wait under way may last long after the caller gave up.
func untilReset(ctx context.Context, resetAt func() time.Time) error {
	for i := 0; i < 5; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Until(resetAt())) // want `the retry loop waits without watching ctx`
	}
	return errNotYet
}

// The loop's condition requires ctx to be live: every pass, a continue's
// too, goes through it. Not reported.
func (p *poller) flushWhileLive(ctx context.Context, pending func() bool) error {
	for ctx.Err() == nil && pending() {
		if err := ready(ctx); err != nil {
			time.Sleep(p.every)
			continue
		}
		return nil
	}
	return ctx.Err()
}

func whileLive(ctx context.Context) error {
	for i := 0; nil == ctx.Err(); i++ {
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

// An || lets the loop go on once ctx is done.
func whileLiveOrForced(ctx context.Context, force bool) error {
	for ctx.Err() == nil || force {
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return ctx.Err()
}

// The condition watches another context than the one the work is for.
func whileOtherLive(ctx, life context.Context) error {
	for life.Err() == nil {
		if err := ready(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `the retry loop waits without watching ctx`
	}
	return ctx.Err()
}
