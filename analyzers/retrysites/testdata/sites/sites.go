// Package sites holds retry sites for the retrysites adapter's test.
package sites

import (
	"errors"
	"math/rand/v2"
	"time"
)

var errFlaky = errors.New("flaky")

func call() error { return errFlaky }

// linear waits 200ms, 400ms: a linear delay without jitter.
func linear() error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond)
	}
	return err
}

// expo waits 100ms << i, capped at 1s.
func expo() error {
	var err error
	for i := 0; i < 6; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(min(100*time.Millisecond<<i, time.Second))
	}
	return err
}

// jittered waits a random delay the adapter cannot evaluate.
func jittered() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = call(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(100 * time.Millisecond << i))))
	}
	return err
}

// outer retries expo three times: 3 × 6 calls.
func outer() error {
	var err error
	for range 3 {
		if err = expo(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
