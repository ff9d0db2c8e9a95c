// Package pauses: a fixed pause under 100ms is a settle delay, not a
// backoff. Jitter would spread the clients that failed together over a
// few tens of milliseconds, which latency alone does; such a pause is not
// judged for jitter. A pause of 100ms or more, a delay that grows from a
// short base, and a short pause in a loop with no bound still are.
package pauses

import (
	"io"
	"net/http"
	"time"

	"backoff/delayparams/retrier"
)

const settle = 20 * time.Millisecond

func get(c *http.Client, url string) error {
	resp, err := c.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

// Settle resends a few times after a broken connection, 50ms apart.
func Settle(c *http.Client, url string) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = get(c, url); err == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}

// Named waits a named constant pause.
func Named(c *http.Client, url string) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = get(c, url); err == nil {
			return nil
		}
		<-time.After(settle)
	}
	return err
}

// The near miss: 100ms is a backoff's delay, reported.
func Tenth(c *http.Client, url string) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = get(c, url); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry delay has no jitter`
	}
	return err
}

// Grows from a short base: doubled at every attempt, reported.
func Grows(c *http.Client, url string) error {
	var err error
	d := 10 * time.Millisecond
	for i := 0; i < 8; i++ {
		if err = get(c, url); err == nil {
			return nil
		}
		time.Sleep(d) // want `retry delay grows exponentially with no cap and no jitter`
		d *= 2
	}
	return err
}

// Forever: the short pause is not judged for jitter, but the loop has no
// bound.
func Forever(c *http.Client, url string) {
	for { // want `has no bound`
		if get(c, url) == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Given: a short pause given to a retry helper is not judged either; a
// longer one is, at its call.
func Given(c *http.Client, url string) error {
	if err := retrier.Do(3, 20*time.Millisecond, func() error { return get(c, url) }); err != nil {
		return err
	}
	return retrier.Do(3, 250*time.Millisecond, func() error { return get(c, url) }) // want `retry delay has no jitter: retrier.Do waits this delay`
}

// A short base grown by the helper is reported.
func GivenGrows(c *http.Client, url string) error {
	return retrier.Grow(6, 10*time.Millisecond, func() error { return get(c, url) }) // want `retry delay has no jitter: retrier.Grow waits this delay, grown`
}
