package eachpass

import (
	"context"
	"errors"
	"time"
)

// serverErr is a database's account of why it refused a statement: a
// code, wrapping no other error.
type serverErr struct{ Code string }

func (e *serverErr) Error() string { return e.Code }

// callErr wraps the failure of a call, a context's error included.
type callErr struct {
	Op  string
	Err error
}

func (e *callErr) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *callErr) Unwrap() error { return e.Err }

func apply(ctx context.Context, stmt string) error { return ctx.Err() }

// It goes round only on the server's deadlock refusal, and the attempt
// is given ctx: after a cancellation the pause under way ends, the next
// attempt fails with the context's error, which is no *serverErr, and
// the loop leaves. Not reported.
func applyOnDeadlock(ctx context.Context, stmt string) error {
	for attempt := 0; attempt < 3; attempt++ {
		err := apply(ctx, stmt)
		if err == nil {
			return nil
		}
		var se *serverErr
		if errors.As(err, &se) && se.Code == "40P01" {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		return err
	}
	return nil
}

// The near miss: a *callErr may carry the context's error, so the loop
// may go round after a cancellation. Reported.
func applyOnCallErr(ctx context.Context, stmt string) error {
	for attempt := 0; attempt < 3; attempt++ {
		err := apply(ctx, stmt)
		if err == nil {
			return nil
		}
		var ce *callErr
		if errors.As(err, &ce) && ce.Op == "exec" {
			time.Sleep(200 * time.Millisecond) // want `the retry loop waits without watching ctx`
			continue
		}
		return err
	}
	return nil
}
