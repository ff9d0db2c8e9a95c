package loops

import (
	"context"
	"math/rand/v2"
	"time"
)

type ledger struct{}

func (l *ledger) read(ctx context.Context, key string) ([]byte, error) { return nil, nil }

// Two attempts in all: one retry, sent at once (a fast first retry, for
// a connection found stale or a blip). It adds no more load than a
// paused retry would, and nothing follows it. Not reported.
func ReadTwice(ctx context.Context, l *ledger, key string) ([]byte, error) {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var b []byte
		if b, err = l.read(ctx, key); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// Near miss: a third attempt follows the second at once as well.
func ReadThrice(ctx context.Context, l *ledger, key string) ([]byte, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `tries again at once`
		var b []byte
		if b, err = l.read(ctx, key); err == nil {
			return b, nil
		}
	}
	return nil, err
}

// readPatiently retries the read by itself, with jittered pauses.
func (l *ledger) readPatiently(ctx context.Context, key string) ([]byte, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var b []byte
		if b, err = l.read(ctx, key); err == nil {
			return b, nil
		}
		time.Sleep(rand.N(time.Second))
	}
	return nil, err
}

// Near miss: each of the two attempts retries by itself, and the second
// runs the whole inner schedule again at once.
func ReadTwicePatiently(ctx context.Context, l *ledger, key string) ([]byte, error) {
	var err error
	for attempt := 0; attempt < 2; attempt++ { // want `tries again at once`
		var b []byte
		if b, err = l.readPatiently(ctx, key); err == nil {
			return b, nil
		}
	}
	return nil, err
}
