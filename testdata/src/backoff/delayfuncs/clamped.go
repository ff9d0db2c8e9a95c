package delayfuncs

import "time"

// pauseClamped takes the configured function's answer through a local
// and clamps it, when the function is set; otherwise the configured
// pause, or a constant when none is configured: the default is fixed.
func pauseClamped(c *hookConf, attempt int) time.Duration {
	if c.PauseFn != nil {
		d := c.PauseFn(attempt, c.Tries)
		if d < 0 {
			return 0
		}
		return d
	}
	base := c.Pause
	if base <= 0 {
		base = 100 * time.Millisecond
	}
	return base
}

// redial waits the default of a caller who sets no function: reported.
func (r *refresher) redial() error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = r.load(); err == nil {
			return nil
		}
		time.Sleep(pauseClamped(r.conf, attempt)) // want `retry delay has no jitter`
	}
	return err
}

// pauseCounted calls the function, through a local, on a condition
// other than its being set: a caller's function gives some of the
// delays, not known.
func pauseCounted(c *hookConf, attempt int) time.Duration {
	if attempt > 1 {
		d := c.PauseFn(attempt, c.Tries)
		if d < 0 {
			return 0
		}
		return d
	}
	return c.Pause
}

// redialCounted is not reported.
func (r *refresher) redialCounted() error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = r.load(); err == nil {
			return nil
		}
		time.Sleep(pauseCounted(r.conf, attempt))
	}
	return err
}
