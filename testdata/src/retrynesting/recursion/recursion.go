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
	for i := 0; i < 3; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching charge, which retries: recursive retry \(3 attempts\) at recursion.go:\d+: up to 9 downstream calls per request`
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

// An inner retry bounded by a configured field: the model cannot tell how
// many attempts it makes (the client may be built never to retry), so a
// retry around it is no finding.
type inner struct{ retries int }

func (c *inner) Do(ctx context.Context) error {
	var err error
	for i := 0; i <= c.retries; i++ {
		if err = call(ctx); err == nil {
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

func aroundConfigured(ctx context.Context, c *inner) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Do(ctx); err == nil {
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

// fetch checks its attempts left with an exit guard before each self-call,
// in every failure branch: a recursive retry of retries+1 attempts.
func fetch(ctx context.Context, retries int) (int, error) {
	if err := call(ctx); err != nil {
		if retries <= 0 {
			return 0, err
		}
		return fetch(ctx, retries-1)
	}
	n, err := count(ctx)
	if err != nil {
		if retries <= 0 {
			return 0, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
		return fetch(ctx, retries-1)
	}
	return n, nil
}

func count(ctx context.Context) (int, error) { return 0, nil }

// The guard makes the bound the caller's: 3 × (2+1) calls.
func fetchAll(ctx context.Context) (int, error) {
	for i := 0; ; i++ { // want `nested retry: retry loop makes 3 attempts, each reaching fetch, which retries: recursive retry \(3 attempts\) at recursion.go:\d+: up to 9 downstream calls per request`
		n, err := fetch(ctx, 2)
		if err == nil || i == 2 {
			return n, err
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(jittered(time.Second)):
		}
	}
}

type config struct{ Max int }

// A bound from configuration: how many attempts the recursion makes is
// not known here, so neither the recursion nor a loop around it is
// reported as unbounded.
func fetchConfigured(ctx context.Context, c config) (int, error) {
	return fetch(ctx, c.Max)
}
