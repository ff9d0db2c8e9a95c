// Package delayfuncs: delays computed by functions of another package,
// and function values a caller may configure, whose default is such a
// function.
package delayfuncs

import (
	"context"
	"errors"
	"time"

	"backoff/delayfuncs/steps"
)

func send(ctx context.Context) error { return errors.New("down") }

// The other package's function doubles with no random part (its
// DelayFact): reported.
func doubling(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(steps.Bounded(i, 100*time.Millisecond, 2*time.Second)): // want `retry delay has no jitter`
		}
	}
	return err
}

// Its random draw is jitter (its RandomFact): not reported.
func spread(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(steps.Spread(i)):
		}
	}
	return err
}

// A variable its users may change: not judged.
func listed(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(steps.Scaled(i)):
		}
	}
	return err
}

// A method that steps a schedule: not judged.
func stepped(ctx context.Context, s *steps.Schedule) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.Next()):
		}
	}
	return err
}

// Options configure the client; Pause may be left out.
type Options struct {
	Attempts int
	Pause    steps.Func
}

// orDoubling is the pause the caller set, or the package's default.
func orDoubling(f steps.Func) steps.Func {
	if f != nil {
		return f
	}
	return steps.Doubling
}

// A caller who sets no Pause gets the doubling default, with no random
// part: reported.
func withDefault(ctx context.Context, o Options) error {
	pause := orDoubling(o.Pause)
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause(i)): // want `retry delay has no jitter`
		}
	}
	return err
}

// The same default set in place: reported.
func withLocalDefault(ctx context.Context, o Options) error {
	pause := o.Pause
	if pause == nil {
		pause = steps.Doubling
	}
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause(i)): // want `retry delay has no jitter`
		}
	}
	return err
}

// Whatever the caller set, with no default: the caller's choice, not
// judged.
func callersOnly(ctx context.Context, o Options) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(o.Pause(i)):
		}
	}
	return err
}

// A default that draws at random: not reported.
func withSpreadDefault(ctx context.Context, o Options) error {
	pause := o.Pause
	if pause == nil {
		pause = steps.Spread
	}
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause(i)):
		}
	}
	return err
}

// The caller's value taken whether set or not, the default only beside
// it: not judged.
func eitherOne(ctx context.Context, o Options, fast bool) error {
	pause := o.Pause
	if fast {
		pause = steps.Doubling
	}
	var err error
	for i := 0; i < 4; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause(i)):
		}
	}
	return err
}
