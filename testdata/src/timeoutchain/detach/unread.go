package detach

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
)

// memStore keeps objects in memory; its iteration ignores the context it
// is given (the parameter is blank), and its size helper never reads its
// own.
type memStore struct {
	mu      sync.RWMutex
	objects map[string][]byte
}

func (s *memStore) iter(_ context.Context, prefix string, f func(string) error, skip ...string) error {
	s.mu.RLock()
	var names []string
	for name := range s.objects {
		if strings.HasPrefix(name, prefix) && !slices.Contains(skip, name) {
			names = append(names, name)
		}
	}
	s.mu.RUnlock()
	sort.Strings(names)
	for _, n := range names {
		if err := f(n); err != nil {
			return err
		}
	}
	return nil
}

func (s *memStore) size(ctx context.Context, name string) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.objects[name]), nil
}

// Background given to a parameter the callee never reads drops nothing
// (the call spreads a slice into the variadic tail).
func (s *memStore) IterSizes(ctx context.Context, prefix string, f func(string, int) error, skip ...string) error {
	return s.iter(context.Background(), prefix, func(n string) error {
		size, err := s.size(context.Background(), n)
		if err != nil {
			return err
		}
		return f(n, size)
	}, skip...)
}

// The near miss: this helper reads its context (it stops when it is
// done), so Background drops the caller's cancellation.
func (s *memStore) walk(ctx context.Context, prefix string, f func(string) error) error {
	return s.iter(ctx, prefix, func(n string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return f(n)
	})
}

func (s *memStore) Walk(ctx context.Context, prefix string, f func(string) error) error {
	return s.walk(context.Background(), prefix, f) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

// tokenConfig's source takes a context it never reads; newSource only
// hands its own on to it, as it is, so Background given to newSource
// drops nothing either.
type tokenConfig struct{ url string }

func (c *tokenConfig) source(ctx context.Context) (string, error) { return c.url, nil }

func newSource(ctx context.Context, url string) (string, error) {
	c := &tokenConfig{url: url}
	return c.source(ctx)
}

func (s *memStore) Source(ctx context.Context, url string) (string, error) {
	return newSource(context.Background(), url)
}

// The near miss: the function it is handed on to reads it.
func (c *tokenConfig) fetch(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return c.url, nil
}

func newFetched(ctx context.Context, url string) (string, error) {
	c := &tokenConfig{url: url}
	return c.fetch(ctx)
}

func (s *memStore) Fetched(ctx context.Context, url string) (string, error) {
	return newFetched(context.Background(), url) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}
