// Package errcodes has retries that go round on one string error code,
// read from an API error, and near misses.
package errcodes

import (
	"context"
	"errors"
	"time"
)

// APIError is the interface an SDK's errors implement.
type APIError interface {
	error
	ErrorCode() string
}

// ServiceError is an SDK's error type, its code a field.
type ServiceError struct {
	Code    string
	Message string
}

func (e *ServiceError) Error() string { return e.Code + ": " + e.Message }

func lookup(ctx context.Context, name string) (string, error) { return "", nil }
func create(ctx context.Context, name string) error           { return nil }

// ensureGroup creates the group unless another client did first: the
// create goes round only when the name was taken meanwhile (a race
// between the lookup and the create). No jitter asked: clients do not
// meet this failure together when the service goes down.
func ensureGroup(ctx context.Context, name string) (string, error) {
	for attempt := 0; ; attempt++ {
		if id, err := lookup(ctx, name); err != nil {
			return "", err
		} else if id != "" {
			return id, nil
		}
		if err := create(ctx, name); err != nil {
			var ae APIError
			if errors.As(err, &ae) && ae.ErrorCode() == "InvalidGroup.Duplicate" && attempt < 30 {
				time.Sleep(time.Second)
				continue
			}
			return "", err
		}
	}
}

// The code in a field of an error type, picked out by a type switch.
func ensureBucket(ctx context.Context, name string) error {
	for attempt := 0; attempt < 10; attempt++ {
		err := create(ctx, name)
		switch e := err.(type) {
		case nil:
			return nil
		case *ServiceError:
			if e.Code == "OperationAborted" {
				time.Sleep(500 * time.Millisecond)
				continue
			}
		}
		return err
	}
	return errors.New("bucket busy")
}

// The near misses: a throttling code, and a 503 written as a string, are
// what every client gets while the service is overloaded; the error's
// text read through Error() is no code. Reported.
func createThrottled(ctx context.Context, name string) error {
	for attempt := 0; attempt < 10; attempt++ {
		err := create(ctx, name)
		if err == nil {
			return nil
		}
		var ae APIError
		if errors.As(err, &ae) && ae.ErrorCode() == "ThrottlingException" {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
	return errors.New("throttled")
}

func createUnavailable(ctx context.Context, name string) error {
	for attempt := 0; attempt < 10; attempt++ {
		err := create(ctx, name)
		if err == nil {
			return nil
		}
		var se *ServiceError
		if errors.As(err, &se) && se.Code == "503" {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
	return errors.New("unavailable")
}

func createByText(ctx context.Context, name string) error {
	for attempt := 0; attempt < 10; attempt++ {
		err := create(ctx, name)
		if err == nil {
			return nil
		}
		var ae APIError
		if errors.As(err, &ae) && ae.Error() == "InvalidGroup.Duplicate" {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		return err
	}
	return errors.New("gave up")
}
