package loops

import (
	"context"
	"math/rand/v2"
	"time"
)

// nanos sleeps an untyped constant: ten nanoseconds.
func nanos() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(context.Background()); err == nil {
			return nil
		}
		time.Sleep(10) // want `time.Sleep\(10\) sleeps 10ns \(a constant duration is nanoseconds\): the retry tries again at once`
	}
	return err
}

// millis gives the unit: a fixed delay, no jitter.
func millis() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(context.Background()); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}

// drawn sleeps a random duration: no finding.
func drawn() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = call(context.Background()); err == nil {
			return nil
		}
		time.Sleep(rand.N(10 * time.Millisecond))
	}
	return err
}
