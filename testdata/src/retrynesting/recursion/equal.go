package recursion

import (
	"context"
	"time"
)

// reserve counts its attempts down to an exit guard that tests for zero.
func reserve(ctx context.Context, left int) error {
	if err := call(ctx); err != nil {
		if left == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
		return reserve(ctx, left-1)
	}
	return nil
}

// A retry around it: 3 × 4 calls.
func book(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching reserve, which retries: recursive retry \(4 attempts\)`
		if err = reserve(ctx, 3); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
	return err
}

// hold tests for zero but counts up: it never meets the guard's value
// from a positive start, no count is known.
func hold(ctx context.Context, n int) error {
	if err := call(ctx); err != nil {
		if n == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
		return hold(ctx, n+1)
	}
	return nil
}

// The near miss: around hold the inner count is unknown (not the one
// attempt `n < 0` would give): no nesting is claimed.
func keep(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = hold(ctx, 3); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
	return err
}

// The near miss: reserve given no attempts left makes one: no retry
// nested in this one.
func bookOnce(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = reserve(ctx, 0); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
	return err
}
