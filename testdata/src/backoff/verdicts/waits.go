package verdicts

import (
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

// The operation's own verdict with its wait.
func (t *txn) runWait(attempt func() (bool, time.Duration, error)) error {
	var err error
	for left := t.cfg.Retries; left >= 0; left-- {
		var again bool
		var wait time.Duration
		again, wait, err = attempt()
		if !again {
			return err
		}
		time.Sleep(min(wait, t.cfg.Pause)) // want `retry delay has no jitter`
	}
	return err
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
