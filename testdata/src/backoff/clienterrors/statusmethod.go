package clienterrors

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// A store whose errors say the status of the response they came from
// through a method (an SDK's `interface{ HTTPStatusCode() int }`).
type bucketStore interface {
	Head(ctx context.Context, bucket string) error
}

type statusCoder interface{ HTTPStatusCode() int }

// WaitBucket polls until a bucket the caller just made is there: it goes
// round only while the store answers 404, a refusal of this request that
// no outage causes. Not reported.
func WaitBucket(ctx context.Context, s bucketStore, bucket string) error {
	for i := 0; i < 20; i++ {
		err := s.Head(ctx, bucket)
		if err == nil {
			return nil
		}
		var sc statusCoder
		if !errors.As(err, &sc) || sc.HTTPStatusCode() != http.StatusNotFound {
			return err
		}
		time.Sleep(5 * time.Second)
	}
	return errors.New("bucket never appeared")
}

// WaitBucketUnavailable is the near miss: it goes round while the store
// answers 503, which every client meets in an outage.
func WaitBucketUnavailable(ctx context.Context, s bucketStore, bucket string) error {
	for i := 0; i < 20; i++ {
		err := s.Head(ctx, bucket)
		if err == nil {
			return nil
		}
		var sc statusCoder
		if !errors.As(err, &sc) || sc.HTTPStatusCode() != http.StatusServiceUnavailable {
			return err
		}
		time.Sleep(5 * time.Second) // want `retry delay has no jitter`
	}
	return errors.New("bucket never appeared")
}

// WaitBucketCode is the other near miss: the number is compared with a
// constant of its own, not one of net/http's statuses, so it is not
// known to be a response's status.
func WaitBucketCode(ctx context.Context, s bucketStore, bucket string) error {
	const missing = 404
	for i := 0; i < 20; i++ {
		err := s.Head(ctx, bucket)
		if err == nil {
			return nil
		}
		var sc statusCoder
		if !errors.As(err, &sc) || sc.HTTPStatusCode() != missing {
			return err
		}
		time.Sleep(5 * time.Second) // want `retry delay has no jitter`
	}
	return errors.New("bucket never appeared")
}
