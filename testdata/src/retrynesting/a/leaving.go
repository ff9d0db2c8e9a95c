package a

import (
	"context"
	"errors"
	"time"

	rt "github.com/resilint/resilint/runtime/retry"
)

func authenticate(ctx context.Context) (string, error) { return "", errors.New("down") }

// The loop retries the login; the retrying fetchPrice runs once, as the
// loop is left with its result: after the retry, not in it.
func loginThenFetch(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = authenticate(ctx); err == nil {
			return fetchPrice(ctx)
		}
		time.Sleep(rt.FullJitter(time.Second))
	}
	return err
}

// The near miss: fetchPrice is part of each attempt.
func loginAndFetch(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching fetchPrice`
		if _, err = authenticate(ctx); err == nil {
			if err = fetchPrice(ctx); err == nil {
				return nil
			}
		}
		time.Sleep(rt.FullJitter(time.Second))
	}
	return err
}

var errMoved = errors.New("moved")

func deliverOnce(ctx context.Context) error { return errMoved }

// The loop retries the delivery; on one failure it calls the retrying
// fetchPrice and leaves at once, in the same block: fetchPrice runs once,
// after the retry, not in each attempt.
func deliverThenRefresh(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = deliverOnce(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, errMoved) {
			if ferr := fetchPrice(ctx); ferr != nil {
				err = errors.Join(err, ferr)
			}
			return err
		}
		time.Sleep(rt.FullJitter(time.Second))
	}
	return err
}

// The near miss: the block that calls it goes round instead of leaving.
func deliverRefreshAgain(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching fetchPrice`
		err = deliverOnce(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, errMoved) {
			if ferr := fetchPrice(ctx); ferr != nil {
				err = errors.Join(err, ferr)
			}
			if i == 2 {
				return err
			}
			continue
		}
		time.Sleep(rt.FullJitter(time.Second))
	}
	return err
}
