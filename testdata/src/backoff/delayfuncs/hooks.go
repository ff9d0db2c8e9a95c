package delayfuncs

import (
	"errors"
	"math/rand/v2"
	"time"
)

// A configuration whose delay function is optional: a caller who sets
// none waits the configured duration.
type hookConf struct {
	Tries   int
	Pause   time.Duration
	PauseFn func(try, tries int) time.Duration
}

type refresher struct{ conf *hookConf }

func (r *refresher) load() error { return errors.New("down") }

// pauseFor takes the configured function when there is one, otherwise
// the fixed pause: the default is fixed.
func pauseFor(c *hookConf, left int) time.Duration {
	if c.PauseFn != nil {
		return c.PauseFn(c.Tries-left, c.Tries)
	}
	return c.Pause
}

// The whole configuration handed to the helper, which reads its fields:
// a caller who sets no function waits the same fixed pause as every
// other client.
func (r *refresher) refresh(left int) error {
	err := r.load()
	if err == nil || left <= 0 {
		return err
	}
	time.Sleep(pauseFor(r.conf, left)) // want `retry delay has no jitter`
	return r.refresh(left - 1)
}

// Near miss: the function is called whether set or not, so every delay
// is the caller's function: nothing known.
func pauseAlways(c *hookConf, left int) time.Duration {
	return c.PauseFn(c.Tries-left, c.Tries)
}

func (r *refresher) refreshAlways() error {
	var err error
	for left := r.conf.Tries; left > 0; left-- {
		if err = r.load(); err == nil {
			return nil
		}
		time.Sleep(pauseAlways(r.conf, left))
	}
	return err
}

// Near miss: the default draws at random.
func pauseSpread(c *hookConf, left int) time.Duration {
	if c.PauseFn != nil {
		return c.PauseFn(c.Tries-left, c.Tries)
	}
	return rand.N(c.Pause)
}

func (r *refresher) refreshSpread() error {
	var err error
	for left := r.conf.Tries; left > 0; left-- {
		if err = r.load(); err == nil {
			return nil
		}
		time.Sleep(pauseSpread(r.conf, left))
	}
	return err
}

// Near miss: the function is taken on a condition other than being set,
// so a caller's function gives some of the delays: not known.
func pauseLate(c *hookConf, left int) time.Duration {
	if left < 2 {
		return c.PauseFn(c.Tries-left, c.Tries)
	}
	return c.Pause
}

func (r *refresher) refreshLate() error {
	var err error
	for left := r.conf.Tries; left > 0; left-- {
		if err = r.load(); err == nil {
			return nil
		}
		time.Sleep(pauseLate(r.conf, left))
	}
	return err
}
