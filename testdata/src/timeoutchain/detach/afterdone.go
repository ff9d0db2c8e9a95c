package detach

import (
	"context"
	"errors"
	"time"
)

// A query whose caller's context may end it early; the server is then
// told to cancel it, on a context of the cancel's own: the caller's has
// ended by then, and a cancel sent under it would fail at once.
type server struct {
	run    func(ctx context.Context, q string) error
	cancel func(ctx context.Context, q string) error
}

func (s *server) abort(q string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.cancel(ctx, q)
}

// query cancels on the server only once the run failed because a
// context ended: not reported.
func (s *server) query(ctx context.Context, q string) error {
	err := s.run(ctx, q)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		_ = s.cancel(context.Background(), q)
	}
	return err
}

// queryErr asks the context itself: not reported.
func (s *server) queryErr(ctx context.Context, q string) error {
	err := s.run(ctx, q)
	if err != nil && ctx.Err() != nil {
		_ = s.cancel(context.Background(), q)
	}
	return err
}

// queryTimedOut compares the error itself: not reported.
func (s *server) queryTimedOut(ctx context.Context, q string) error {
	err := s.run(ctx, q)
	if err == context.DeadlineExceeded {
		_ = s.cancel(context.Background(), q)
	}
	return err
}

// wait sends the cancel when the caller stops waiting: not reported.
func (s *server) wait(ctx context.Context, q string, done <-chan error) error {
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = s.cancel(context.Background(), q)
		return ctx.Err()
	}
}

// queryAny also cancels after a failure of any other kind, while the
// caller's context may still be live: reported.
func (s *server) queryAny(ctx context.Context, q string) error {
	err := s.run(ctx, q)
	if ctx.Err() != nil || err != nil {
		_ = s.cancel(context.Background(), q) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	}
	return err
}

// sendCancel is only ever called once its caller's context is done: the
// Background it sends the cancel under drops nothing live. Not
// reported.
func (s *server) sendCancel(ctx context.Context, q string) error {
	if err := s.cancel(context.Background(), q); err != nil {
		return err
	}
	return ctx.Err()
}

func (s *server) await(ctx context.Context, q string, done <-chan error) error {
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return s.sendCancel(ctx, q)
	}
}

func (s *server) awaitErr(ctx context.Context, q string) error {
	err := s.run(ctx, q)
	if ctx.Err() != nil {
		return s.sendCancel(ctx, q)
	}
	return err
}

// release is also called while the caller's context is live (in
// finish): reported.
func (s *server) release(ctx context.Context, q string) error {
	_ = s.cancel(context.Background(), q) // want `context.Background\(\) drops the deadline and cancellation of ctx`
	return ctx.Err()
}

func (s *server) awaitRelease(ctx context.Context, q string, done <-chan error) error {
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return s.release(ctx, q)
	}
}

func (s *server) finish(ctx context.Context, q string) error {
	return s.release(ctx, q)
}
