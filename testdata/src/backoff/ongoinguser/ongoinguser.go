package ongoinguser

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"backoff/ongoing"
)

func call(ctx context.Context) error { return errors.New("down") }

// The loop runs while the backoff of another package says to go on: its
// Ongoing method reads the context and the count it keeps (a state
// getter, by its fact). Not reported as unbounded.
func resolve(ctx context.Context) error {
	b := ongoing.New(ctx, 10)
	var err error
	for b.Ongoing() {
		if err = call(ctx); err == nil {
			return nil
		}
		b.Wait()
	}
	return err
}

// The near miss: a question with a parameter says nothing of a bound.
func untilOpen(ctx context.Context, g *ongoing.Gate) error {
	for !g.Open("primary") { // want `retry loop has no bound`
		if err := call(ctx); err == nil {
			return nil
		}
		time.Sleep(rand.N(time.Second))
	}
	return nil
}
