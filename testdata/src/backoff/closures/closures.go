// Package closures: a recursive retry written through a local closure
// (`again := func(err error) (T, error) { ...; return c.get(k, n-1) }`,
// called on the failure path) is the function's own recursion.
package closures

import (
	"strings"
	"time"
)

type options struct {
	Wait time.Duration
}

type store struct{ opts options }

func (s *store) read(key string) (string, error) { return "", nil }

// The closure counts down in its argument.
func (s *store) get(key string, left int) (string, error) {
	again := func(err error) (string, error) {
		if left > 0 {
			time.Sleep(s.opts.Wait) // want `retry delay has no jitter`
			return s.get(key, left-1)
		}
		return "", err
	}
	v, err := s.read(key)
	if err != nil {
		return again(err)
	}
	return v, nil
}

// The closure steps the parameter, then passes it: bounded all the same
// (no "no bound" finding).
func (s *store) lookup(key string, remaining int) (string, error) {
	again := func(err error) (string, error) {
		if remaining > 0 {
			remaining--
			time.Sleep(s.opts.Wait) // want `retry delay has no jitter`
			return s.lookup(key, remaining)
		}
		return "", err
	}
	v, err := s.read(key)
	if err != nil {
		return again(err)
	}
	return v, nil
}

// Near miss: the closure walks up to the parent key after a success; it
// is called on no failure path.
func (s *store) nearest(key string, left int) (string, error) {
	up := func() (string, error) {
		time.Sleep(s.opts.Wait)
		return s.nearest(key, left-1)
	}
	v, err := s.read(key)
	if err != nil {
		return "", err
	}
	if v == "" && left > 0 {
		return up()
	}
	return v, nil
}

// Near miss: the closure asks for another key after a failure: a search,
// not a retry of the same request.
func (s *store) fallback(key string, left int) (string, error) {
	parent := func(err error) (string, error) {
		if left > 0 {
			time.Sleep(s.opts.Wait)
			return s.fallback(key[:strings.LastIndexByte(key, '/')+1], left-1)
		}
		return "", err
	}
	v, err := s.read(key)
	if err != nil {
		return parent(err)
	}
	return v, nil
}
