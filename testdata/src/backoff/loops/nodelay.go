package loops

import "context"

// Counting from 1: the wait before attempt i is Backoff's attempt i-2.
func fromOne(ctx context.Context) (int, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return attempt, nil
		}
	}
	return 0, err
}

// Counting down: reported, no fix.
func countDown(ctx context.Context) error {
	var err error
	for left := 3; left > 0; left-- { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

// No context in scope: reported, no fix.
func noContext() error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = call(context.Background()); err == nil {
			return nil
		}
	}
	return err
}

// A bound the caller gives: whatever it is, every pass after the first
// follows a failure at once.
func givenBound(ctx context.Context, attempts int) error {
	var err error
	for i := 0; i < attempts; i++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}
