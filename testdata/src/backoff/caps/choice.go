package caps

import (
	"context"
	"math"
	"math/rand/v2"
	"time"
)

// nextDelay picks the cap or the grown value, whichever is smaller, and
// takes a random part off: capped, jittered. Not reported.
func nextDelay(attempt int, maxDelay time.Duration) (time.Duration, bool) {
	backoff := 0.5 * float64(time.Second) * math.Pow(2, float64(attempt))
	var delay time.Duration
	if math.IsInf(backoff, 0) || backoff >= float64(maxDelay) {
		delay = maxDelay
	} else {
		delay = time.Duration(backoff)
	}
	if spread := int64(delay / 4); spread > 0 {
		delay -= time.Duration(rand.Int64N(spread))
	}
	return delay, true
}

func choosesCap(ctx context.Context) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		d, _ := nextDelay(i, 30*time.Second)
		time.Sleep(jittered(d))
	}
	return err
}

// The near miss: the test is of another value than the one the else
// branch takes: the grown value is never compared with the cap.
func nextDelayUnchecked(attempt int, maxDelay, floor time.Duration) (time.Duration, bool) {
	backoff := 0.5 * float64(time.Second) * math.Pow(2, float64(attempt))
	var delay time.Duration
	if floor >= maxDelay {
		delay = maxDelay
	} else {
		delay = time.Duration(backoff)
	}
	if spread := int64(delay / 4); spread > 0 {
		delay -= time.Duration(rand.Int64N(spread))
	}
	return delay, true
}

func choosesUnchecked(ctx context.Context) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		d, _ := nextDelayUnchecked(i, 30*time.Second, time.Second)
		time.Sleep(jittered(d)) // want `retry delay grows exponentially with no cap`
	}
	return err
}
