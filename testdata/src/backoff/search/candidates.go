package search

import (
	"context"
	"strings"
)

type kvStore interface {
	Get(ctx context.Context, addr, key string) ([]byte, error)
}

type ring struct {
	st    kvStore
	addrs []string
}

// A range over the count of candidates advances the index it reads them
// by, as i++ does: each pass asks the next address.
func (r *ring) rangeIndex(ctx context.Context, key string) ([]byte, error) {
	var lastErr error
	for i := range len(r.addrs) {
		v, err := r.st.Get(ctx, r.addrs[i], key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// A local queue the loop takes each candidate off.
func (r *ring) queue(ctx context.Context, key string) ([]byte, error) {
	queue := append([]string(nil), r.addrs...)
	var lastErr error
	for len(queue) > 0 {
		addr := queue[0]
		queue = queue[1:]
		v, err := r.st.Get(ctx, addr, key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// Recursion to the next index.
func (r *ring) next(ctx context.Context, key string, i int) ([]byte, error) {
	if i >= len(r.addrs) {
		return nil, context.Canceled
	}
	v, err := r.st.Get(ctx, r.addrs[i], key)
	if err != nil {
		return r.next(ctx, key, i+1)
	}
	return v, nil
}

// The near miss: the range counts attempts at one address.
func (r *ring) rangeSame(ctx context.Context, key string) ([]byte, error) {
	var lastErr error
	for range 3 { // want `retry loop tries again at once after a failure`
		v, err := r.st.Get(ctx, r.addrs[0], key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// The near miss: the queue is read but never shortened.
func (r *ring) queueHead(ctx context.Context, key string) ([]byte, error) {
	queue := append([]string(nil), r.addrs...)
	var lastErr error
	for n := 0; n < 3; n++ { // want `retry loop tries again at once after a failure`
		addr := queue[0]
		v, err := r.st.Get(ctx, addr, key)
		if err != nil {
			lastErr = err
			continue
		}
		return v, nil
	}
	return nil, lastErr
}

// The near miss: the recursion counts down its attempts at one address.
func (r *ring) again(ctx context.Context, key string, left int) ([]byte, error) {
	v, err := r.st.Get(ctx, r.addrs[0], key)
	if err != nil && left > 0 {
		return r.again(ctx, key, left-1) // want `recursive retry tries again at once after a failure`
	}
	return v, err
}

type db struct{}

func (db) insert(ctx context.Context, id string) error { return nil }

// A recursion that picks out one failure by its text is that code's
// answer to it, as the same test in a loop is (backoff/identified).
func (d db) insertUnique(ctx context.Context, id string, left int) error {
	err := d.insert(ctx, id)
	if err != nil && strings.Contains(err.Error(), "duplicate key") && left > 0 {
		return d.insertUnique(ctx, id, left-1)
	}
	return err
}

// The near miss: any error resends at once.
func (d db) insertAny(ctx context.Context, id string, left int) error {
	err := d.insert(ctx, id)
	if err != nil && left > 0 {
		return d.insertAny(ctx, id, left-1) // want `recursive retry tries again at once after a failure`
	}
	return err
}
