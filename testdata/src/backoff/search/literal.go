package search

import (
	"context"
	"errors"
)

// withPortLiteral builds each pass's request in a local from the port it
// moves through, and goes round on any failure: a search, whose next
// pass asks for another port. Not reported.
func withPortLiteral(ctx context.Context, base Config) (int, error) {
	port := base.Port
	for attempt := 0; attempt < 100; attempt++ {
		c := &Config{Port: port}
		if err := create(ctx, *c); err == nil {
			return port, nil
		}
		port++
	}
	return 0, errors.New("no free port")
}

// The near miss: the local request holds the attempt number, which makes
// no new request; the loop retries at once.
func withAttemptLiteral(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ { // want `retry loop tries again at once after a failure`
		r := Req{Attempt: attempt}
		if err := send(ctx, r); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}
