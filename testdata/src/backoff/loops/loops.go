// Package loops: delays of hand-written retries.
package loops

import (
	"context"
	"math/rand"
	"time"
)

func call(ctx context.Context) error { return nil }

func fixedSleep(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry delay has no jitter: clients that failed together retry together`
	}
	return err
}

func shifted(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<attempt) * 100 * time.Millisecond) // want `retry delay grows exponentially with no cap and no jitter`
	}
	return err
}

func doubled(ctx context.Context) error {
	delay := 100 * time.Millisecond
	var err error
	for i := 0; i < 10; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `retry delay grows exponentially with no cap and no jitter`
		}
		delay *= 2
	}
	return err
}

func timer(ctx context.Context) error {
	t := time.NewTimer(0)
	defer t.Stop()
	var err error
	for i := 0; i < 3; i++ {
		<-t.C
		if err = call(ctx); err == nil {
			return nil
		}
		t.Reset(2 * time.Second) // want `retry delay has no jitter`
	}
	return err
}

func jitteredUncapped(ctx context.Context) error {
	var err error
	for i := 0; i < 10; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		backoff := time.Duration(1<<i) * time.Second
		time.Sleep(time.Duration(rand.Int63n(int64(backoff)))) // want `retry delay grows exponentially with no cap: after a few failures`
	}
	return err
}

func equalJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		half := min(time.Duration(1<<i)*time.Second, 10*time.Second) / 2
		time.Sleep(half + time.Duration(rand.Int63n(int64(half)))) // want `retry delay uses equal jitter`
	}
	return err
}

func equalJitterFloat(ctx context.Context) error {
	var err error
	d := 2 * time.Second
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(d/2 + time.Duration(rand.Float64()*float64(d/2))) // want `retry delay uses equal jitter`
	}
	return err
}

// scaledJitter draws a factor in [lo, hi): a spread of its own size.
func scaledJitter(ctx context.Context, lo, hi float64) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(float64(time.Second) * (lo + rand.Float64()*(hi-lo))))
	}
	return err
}

// proportionalJitter draws a factor in [0.8, 1.3): a random spread of
// its own size beside a fixed part, not equal jitter.
func proportionalJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		d := time.Duration(1<<i) * time.Second
		time.Sleep(time.Duration(float64(d) * (0.8 + rand.Float64()*0.5)))
	}
	return err
}

// spreadJitter adds a random spread of 5s to a linear part.
func spreadJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Intn(5000))*time.Millisecond + time.Duration(i)*time.Second)
	}
	return err
}

var seeded = rand.New(rand.NewSource(42))

func seededJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(seeded.Int63n(int64(time.Second)))) // want `retry jitter comes from a generator with a constant seed`
	}
	return err
}

func immediate(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

func forever(ctx context.Context) {
	for { // want `retry loop has no bound: no attempt limit, no elapsed-time cap and no context check` `retry loop tries again at once`
		if err := call(ctx); err == nil {
			return
		}
	}
}

func linearDelay(attempt int) time.Duration {
	return time.Duration(100*(attempt+1)) * time.Millisecond
}

// The delay comes from a helper of the package.
func viaHelper(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(linearDelay(attempt)) // want `retry delay has no jitter`
	}
	return err
}

// ---- near misses ---------------------------------------------------------

// Full jitter, capped.
func good(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		backoff := min(time.Duration(1<<i)*100*time.Millisecond, 5*time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(backoff)))):
		}
	}
	return err
}

// Capped with an if.
func cappedIf(ctx context.Context) error {
	delay := 100 * time.Millisecond
	var err error
	for i := 0; i < 5; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(delay))))
		delay *= 2
		if delay > 10*time.Second {
			delay = 10 * time.Second
		}
	}
	return err
}

// Delay first, then the attempt: not immediate.
func delayFirst(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
		}
		if err = call(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Unbounded in attempts, but bounded by the context.
func untilCancelled(ctx context.Context) error {
	for {
		if err := call(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
		}
	}
}

// A sleep in a polling loop is not a retry delay.
func poll(ctx context.Context, ready func() bool) {
	for !ready() {
		time.Sleep(time.Second)
	}
}

// Seeded from the clock: not constant.
var clockSeeded = rand.New(rand.NewSource(time.Now().UnixNano()))

func clockJitter(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(clockSeeded.Int63n(int64(time.Second))))
	}
	return err
}

// The delay is a parameter of the retrying function: the caller may jitter it.
func givenDelay(ctx context.Context, d time.Duration) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(d)
	}
	return err
}

type config struct{ MaxAttempts int }

// A configured bound is a bound.
func configured(ctx context.Context, c config) error {
	var err error
	for attempt := 0; attempt < c.MaxAttempts; attempt++ {
		if err = call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
	return err
}

func shouldRetry(err error) (bool, error) { return true, nil }

// The loop gives up when another call says so.
func givesUp(ctx context.Context) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		if _, serr := shouldRetry(err); serr != nil {
			return serr
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
}

// No wait after the last attempt, with a bound that is not a constant: not
// an immediate retry.
func noWaitAfterLast(ctx context.Context, maxRetries int) error {
	var lastErr error
	for attempt := 0; attempt < maxRetries; attempt++ {
		err := call(ctx)
		if err == nil {
			return nil
		}
		lastErr = err
		if attempt+1 < maxRetries {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
			}
		}
	}
	return lastErr
}

// The go-round test joins an undecided failure with a guard on attempts
// left that the known count decides: no fork of the bound, and every
// resend follows the failure at once.
func resendWhileLeft(ctx context.Context) error {
	const count = 3
	var err error
	for n := 0; n < count; n++ { // want `retry loop tries again at once after a failure \(no delay between attempts\)`
		err = call(ctx)
		again := err != nil
		if again && n+1 < count {
			continue
		}
		break
	}
	return err
}

// Near miss: the same guard on a bound the caller gives: undecided, so a
// path may be the last attempt either way, and none is an immediate
// retry by that test alone.
func resendWhileLeftN(ctx context.Context, count int) error {
	var err error
	for n := 0; n < count; n++ {
		err = call(ctx)
		again := err != nil
		if again && n+1 < count {
			continue
		}
		break
	}
	return err
}

// The code's own test of the bound returns on the last attempt: every
// other failure has attempts left and goes round at once.
func resendUntilLast(ctx context.Context, maxRetries int) error {
	for attempt := 0; attempt <= maxRetries; attempt++ { // want `retry loop tries again at once after a failure`
		err := call(ctx)
		if err == nil {
			return nil
		}
		if attempt >= maxRetries {
			return err
		}
	}
	return nil
}
