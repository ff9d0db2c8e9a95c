package caps

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// schedule caps its delay by the attempt rather than by the delay: past
// the attempt whose doubling reaches the limit it gives the limit, and
// below it base<<attempt stays under the limit.
type schedule struct {
	base, limit time.Duration
	ceiling     int
}

func newSchedule(base, limit time.Duration) *schedule {
	return &schedule{base: base, limit: limit, ceiling: int(math.Log2(float64(limit) / float64(base)))}
}

func (s *schedule) delay(attempt int) time.Duration {
	if attempt > s.ceiling {
		return s.limit
	}
	return time.Duration(rand.Int64N(int64(s.base << attempt)))
}

// powDelay is the same with math.Pow, the bound as an enclosing test.
func powDelay(attempt int, base time.Duration) time.Duration {
	if attempt <= 8 {
		return time.Duration(rand.Float64() * math.Pow(2, float64(attempt)) * float64(base))
	}
	return time.Minute
}

// Capped by the attempt: not reported.
func registerScheduled(ctx context.Context, tries int) error {
	s := newSchedule(100*time.Millisecond, 30*time.Second)
	for attempt := 0; attempt < tries; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(s.delay(attempt)):
		}
	}
	return errors.New("gave up")
}

func registerPow(ctx context.Context, tries int) error {
	for attempt := 0; attempt < tries; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(powDelay(attempt, 100*time.Millisecond)):
		}
	}
	return errors.New("gave up")
}

// Near misses: the test on the attempt does not keep the doubling under
// a limit.

// floorDelay only refuses negative attempts.
func floorDelay(attempt int, base time.Duration) time.Duration {
	if attempt < 0 {
		return base
	}
	return time.Duration(rand.Int64N(int64(base << attempt)))
}

func registerFloor(ctx context.Context, tries int) error {
	for attempt := 0; attempt < tries; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(floorDelay(attempt, 100*time.Millisecond)): // want `retry delay grows exponentially with no cap`
		}
	}
	return errors.New("gave up")
}

// registerLeaving gives up past 20 attempts: the retry ends there, but
// its delay has doubled twenty times by then.
func registerLeaving(ctx context.Context) error {
	base := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if err := register(ctx); err == nil {
			return nil
		}
		if attempt > 20 {
			return errors.New("gave up")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(base << attempt)))): // want `retry delay grows exponentially with no cap`
		}
	}
}
