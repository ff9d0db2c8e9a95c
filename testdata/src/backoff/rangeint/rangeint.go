// Package rangeint: retry loops written as a range over an integer (Go
// 1.22), whose key counts the attempts as `i := 0; i < n; i++` does.
package rangeint

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

const retries = 3

func fetch(ctx context.Context) ([]string, error) { return nil, errors.New("unavailable") }

// The delay doubles with the key and has no random part: reported.
func list(ctx context.Context) ([]string, error) {
	var out []string
	var err error
	for i := range retries {
		if out, err = fetch(ctx); err != nil {
			time.Sleep(250 * time.Millisecond * (1 << uint(i))) // want `retry delay has no jitter`
			continue
		}
		return out, nil
	}
	return out, err
}

func listN(ctx context.Context, n int) ([]string, error) {
	var err error
	for attempt := range n {
		var out []string
		if out, err = fetch(ctx); err == nil {
			return out, nil
		}
		time.Sleep(time.Duration(attempt+1) * 100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return nil, err
}

// The near miss draws the delay at random.
func listJittered(ctx context.Context) ([]string, error) {
	var err error
	for i := range retries {
		var out []string
		if out, err = fetch(ctx); err == nil {
			return out, nil
		}
		time.Sleep(rand.N(250 * time.Millisecond * (1 << uint(i))))
	}
	return nil, err
}
