package identified

import (
	"context"
	"errors"
	"time"
)

type apiError struct {
	Code   string
	Number int
}

func (e *apiError) Error() string { return e.Code }

// codeOf returns what the error says of itself.
func codeOf(err error) apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return *ae
	}
	return apiError{}
}

type bucketStore interface {
	Put(ctx context.Context, bucket string) error
	CreateBucket(ctx context.Context, bucket string) error
}

// PutMarker creates the bucket the store says is missing and writes once
// more, at once: a resend chosen for one failure the code picked out by
// its code. Not reported.
func PutMarker(ctx context.Context, s bucketStore, bucket string) error {
	retried := false
	for {
		err := s.Put(ctx, bucket)
		if err == nil || retried {
			return err
		}
		switch codeOf(err).Code {
		case "NoSuchBucket":
			if err := s.CreateBucket(ctx, bucket); err != nil {
				return err
			}
			retried = true
			continue
		}
		return err
	}
}

// PutDeadlocked waits a fixed second on a code that picks out a deadlock:
// identified, but a code is no one error value, so the delay is still
// judged. Reported.
func PutDeadlocked(ctx context.Context, s bucketStore, bucket string) error {
	for i := 0; ; i++ {
		err := s.Put(ctx, bucket)
		if err == nil || i == 3 {
			return err
		}
		if codeOf(err).Number != 1213 {
			return err
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// PutAnyCode goes round, at once, on any error with a code: a zero value
// picks out nothing. Reported.
func PutAnyCode(ctx context.Context, s bucketStore, bucket string) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once`
		err = s.Put(ctx, bucket)
		if err == nil {
			return nil
		}
		if codeOf(err).Code == "" {
			return err
		}
	}
	return err
}
