package detach

import (
	"context"
	"errors"
)

type requestIDKey struct{}

// requestID reads a value the context carries: its deadline and
// cancellation reach nothing.
func requestID(ctx context.Context) string {
	if id, ok := ctx.Value(requestIDKey{}).(string); ok {
		return id
	}
	return "-"
}

type opError struct{ id, msg string }

func (e *opError) Error() string { return e.id + ": " + e.msg }

func newOpError(ctx context.Context, msg string) error {
	return &opError{id: requestID(ctx), msg: msg}
}

// Background given to an error constructor that only reads the
// context's values drops no deadline: not reported.
func (s *memStore) BeginTx(ctx context.Context, readOnly bool) error {
	if !readOnly {
		return newOpError(context.TODO(), "read-write transactions are not supported")
	}
	return nil
}

// The near miss: this constructor also asks whether the context is
// done, so Background drops the caller's cancellation.
func newCheckedError(ctx context.Context, msg string) error {
	if err := ctx.Err(); err != nil {
		return errors.Join(err, &opError{id: requestID(ctx), msg: msg})
	}
	return &opError{id: requestID(ctx), msg: msg}
}

func (s *memStore) BeginChecked(ctx context.Context, readOnly bool) error {
	if !readOnly {
		return newCheckedError(context.TODO(), "read-write transactions are not supported") // want `context.TODO\(\) drops the deadline and cancellation of ctx`
	}
	return nil
}
