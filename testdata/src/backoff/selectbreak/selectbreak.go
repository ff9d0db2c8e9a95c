// Package selectbreak: a select case on ctx.Done() that ends with a
// break without a label leaves the select, not the loop around it.
package selectbreak

import (
	"context"
	"errors"
	"log"
	"time"
)

var errBusy = errors.New("busy")

func acquire(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if key == "" {
		return errBusy
	}
	return nil
}

// The break was meant to end the loop: reported, fixed with a label.
func lock(ctx context.Context, key string) error {
	for { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err := acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// A loop with a label of its own: the fix breaks to it.
func lockLabeled(ctx context.Context, key string) error {
	var err error
poll:
	for { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err = acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			log.Printf("lock %s: %v", key, ctx.Err())
			break
		case <-time.After(50 * time.Millisecond):
			continue poll
		}
	}
}

// Near miss: the case keeps the context's error, and the loop returns it
// after the select.
func lockKept(ctx context.Context, key string) error {
	var err error
	for {
		if err = acquire(ctx, key); err == nil {
			return nil
		}
		err = nil
		select {
		case <-ctx.Done():
			err = ctx.Err()
			break
		case <-time.After(50 * time.Millisecond):
		}
		if err != nil {
			return err
		}
	}
}

// The function already has a label named retry: the fix takes another.
func lockTwice(ctx context.Context, a, b string) error {
retry:
	for i := 0; i < 3; i++ {
		if err := acquire(ctx, a); err != nil {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Millisecond):
			}
			continue retry
		}
		break
	}
	for { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err := acquire(ctx, b); err == nil {
			return nil
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			break
		}
	}
}

// A function of no results: the loop is left for the code after it.
func watch(ctx context.Context, key string, done func()) {
	for { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err := acquire(ctx, key); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
	}
	done()
}

// A loop with a label of its own and code after it: the fix breaks to
// that label.
func watchLabeled(ctx context.Context, key string, done func()) {
wait:
	for { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err := acquire(ctx, key); err == nil {
			break wait
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
	}
	done()
}

// Results of other types with the error: their zero values.
func lockToken(ctx context.Context, key string) (string, int, error) {
	for n := 1; ; n++ { // want `retry loop has no bound: the break in its case on ctx.Done\(\) leaves only the select`
		if err := acquire(ctx, key); err == nil {
			return key, n, nil
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Near miss: the break names the loop.
func lockBreakLoop(ctx context.Context, key string) error {
	var err error
loop:
	for {
		if err = acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			break loop
		case <-time.After(50 * time.Millisecond):
		}
	}
	return err
}

// Near miss: the loop checks the context after the select.
func lockChecked(ctx context.Context, key string) error {
	for {
		if err := acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// Near miss: three attempts bound the loop, whatever the break does.
func lockThrice(ctx context.Context, key string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			break
		case <-time.After(50 * time.Millisecond):
		}
	}
	return err
}

// Near miss: the case returns.
func lockReturns(ctx context.Context, key string) error {
	for {
		if err := acquire(ctx, key); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
