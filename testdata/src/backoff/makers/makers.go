// Package makers waits between attempts through a wait made to order by
// another package (waits/makers: a function returning a closure that
// sleeps). The loop has a delay, of a length the model does not follow:
// no "no delay" finding. The near miss calls what a maker of no wait
// made, and goes round at once.
package makers

import (
	"errors"
	"net/http"

	"waits/makers"
)

func fetch(hc *http.Client, url string) error {
	resp, err := hc.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errors.New(resp.Status)
	}
	return nil
}

// Get waits through a made wait: not reported.
func Get(hc *http.Client, url string) error {
	wait := makers.Linear(100)
	var err error
	for n := uint(0); n < 10; n++ {
		if err = fetch(hc, url); err == nil {
			return nil
		}
		wait(n)
	}
	return err
}

// GetCounted calls what a maker of no wait made, in the same place: the
// loop goes round at once, reported.
func GetCounted(hc *http.Client, url string) error {
	more := makers.Limit(10)
	var err error
	for n := uint(0); n < 10; n++ { // want `retry loop tries again at once`
		if err = fetch(hc, url); err == nil {
			return nil
		}
		more(n)
	}
	return err
}
