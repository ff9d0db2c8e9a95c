package bounds

import (
	"context"
	"time"
)

// schedule hands out the wait before each next try, counting the tries
// in a field of its own.
type schedule struct {
	tries, max int
	next       time.Duration
}

// wait is the wait before the next try, or nil once the tries are used
// up: nil is its "stop".
func (s *schedule) wait() *time.Duration {
	if s.tries >= s.max {
		return nil
	}
	s.tries++
	d := jittered(s.next)
	s.next *= 2
	return &d
}

// A loop that leaves when the schedule answers nil is bounded by the
// schedule's count.
func withSchedule(ctx context.Context, s *schedule) error {
	for {
		err := call(ctx)
		if err == nil {
			return nil
		}
		d := s.wait()
		if d == nil {
			return err
		}
		time.Sleep(*d) //resilint:ignore timeoutchain the fixture is about the bound
	}
}

// cycle hands out waits from a fixed list round and round, counting
// through it; it never answers nil.
type cycle struct {
	i     int
	waits []time.Duration
}

func (c *cycle) wait() *time.Duration {
	d := jittered(c.waits[c.i%len(c.waits)])
	c.i++
	if c.i >= len(c.waits) {
		c.i = 0
	}
	return &d
}

// The near miss: a method that counts and compares a field but never
// says stop leaves the loop unbounded.
func withCycle(ctx context.Context, c *cycle) error {
	for { // want `retry loop has no bound`
		err := call(ctx)
		if err == nil {
			return nil
		}
		d := c.wait()
		if d == nil {
			return err
		}
		time.Sleep(*d) //resilint:ignore timeoutchain the fixture is about the bound
	}
}
