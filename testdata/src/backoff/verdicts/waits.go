package verdicts

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// The decision comes with the wait it asks for (`retry, wait, err :=
// c.shouldRetry(resp, err)`): fixed waits, no random part.
func (a *api) shouldRetry(resp *http.Response, err error) (bool, time.Duration, error) {
	if err != nil {
		return true, time.Second, err
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		return true, 2 * time.Second, nil
	}
	return false, 0, nil
}

func (a *api) send(req *http.Request) (*http.Response, error) {
	for try := 0; try < 4; try++ {
		resp, err := a.hc.Do(req)
		retry, wait, err := a.shouldRetry(resp, err)
		if !retry {
			return resp, err
		}
		if resp != nil {
			resp.Body.Close()
		}
		time.Sleep(wait) // want `retry delay has no jitter`
	}
	return nil, nil
}

// The operation's own verdict with its wait. What the operation asks
// for is its own (a function the caller gives: not known here, not
// judged); the pause the loop adds to it is configured, with no random
// part.
func (t *txn) runWait(attempt func() (bool, time.Duration, error)) error {
	var err error
	for left := t.cfg.Retries; left >= 0; left-- {
		var again bool
		var wait time.Duration
		again, wait, err = attempt()
		if !again {
			return err
		}
		time.Sleep(wait)
		time.Sleep(t.cfg.Pause) // want `retry delay has no jitter`
	}
	return err
}

// A policy the caller gives decides whether to go on and how long to
// wait first. A policy is asked after every failure and may count them
// (a closure over a budget): the bound is its own, unknown here, not
// absent; and its wait is its own. Neither is reported.
type policy func(err error) (again bool, wait time.Duration)

type sender struct {
	hc     *http.Client
	policy policy
}

func newSender(hc *http.Client, p policy) *sender { return &sender{hc: hc, policy: p} }

func (s *sender) send(req *http.Request) (*http.Response, error) {
	for {
		resp, err := s.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		again, wait := s.policy(err)
		if !again {
			return nil, err
		}
		time.Sleep(wait)
	}
}

// Near miss: a classifier the caller gives, asked only whether the
// error is worth another try, counts nothing: no bound.
type sorter struct {
	hc        *http.Client
	retryable func(error) bool
}

func newSorter(hc *http.Client, f func(error) bool) *sorter { return &sorter{hc: hc, retryable: f} }

func (s *sorter) send(req *http.Request) (*http.Response, error) {
	for { // want `has no bound`
		resp, err := s.hc.Do(req)
		if err == nil || !s.retryable(err) {
			return resp, err
		}
		time.Sleep(time.Second) // want `retry delay has no jitter`
	}
}

// Near miss: a poll until done that is told how long to wait; it goes
// round when the bool is false ("not yet").
func checkJobAfter() (bool, time.Duration, error) { return false, time.Second, nil }

func awaitJobAfter() error {
	for {
		done, after, err := checkJobAfter()
		if done {
			return err
		}
		time.Sleep(after)
	}
}

type opener interface{ Open() (io.Closer, error) }

type stream struct{ remote opener }

// pause grows the backoff to a cap and waits it when there was a
// failure: the error handed beside the duration decides whether to
// wait, not how long.
func (s *stream) pause(d time.Duration, err error) time.Duration {
	if err != nil {
		if d < time.Second {
			d = d + d/4
		}
		time.Sleep(d)
	}
	return d
}

// The error comes from an interface method, with the stream: unknown,
// but no part of the delay, which has no random part.
func (s *stream) open() (io.Closer, error) {
	d := time.Millisecond
	for i := 0; i < 10; i++ {
		c, err := s.remote.Open()
		if err == nil {
			return c, nil
		}
		d = s.pause(d, err) // want `retry delay has no jitter`
	}
	return nil, errors.New("gave up")
}
