// Package recursion: retries written as a function calling itself.
package recursion

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

func call(ctx context.Context) error { return errors.New("down") }

func jittered(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// charge retries by calling itself while attempts are left.
func charge(ctx context.Context, attempts int) error {
	err := call(ctx)
	if err != nil && attempts > 1 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
		return charge(ctx, attempts-1)
	}
	return err
}

// A retry around the recursive retry: nested.
func checkout(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching charge, which retries: recursive retry`
		if err = charge(ctx, 3); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
	return err
}

type node struct{ children []*node }

func visit(ctx context.Context, n *node) error {
	if err := call(ctx); err != nil {
		return err
	}
	for _, c := range n.children {
		if err := visit(ctx, c); err != nil {
			return err
		}
	}
	return nil
}

// Recursion over a tree that stops at the first failure is no retry: a
// loop around it is not nested.
func walkAll(ctx context.Context, root *node) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = visit(ctx, root); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
	return err
}
