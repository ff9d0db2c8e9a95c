package statuses

import (
	"errors"
	"net/http"
	"time"
)

// Exchange accepts 200 only, gives up on the 4xx range, and resends
// everything else: the other 2xx and the 3xx go round on a path of their
// own, but they are what is left once the code took 200, not a status it
// polls for. A retry. Reported.
func Exchange(c *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	for attempt := 1; attempt <= 3; attempt++ {
		r, err := c.Do(req)
		if (err == nil && r.StatusCode == http.StatusOK) ||
			(r != nil && r.StatusCode >= 400 && r.StatusCode <= 499) ||
			attempt == 3 {
			resp = r
			break
		}
		time.Sleep(2 * time.Second) // want `retry delay has no jitter`
	}
	if resp == nil {
		return nil, errors.New("no response")
	}
	return resp, nil
}

// The near miss: the loop goes round on 202 alone, still processing,
// and gives up on anything but 200: a poll, its pause no retry delay.
func AwaitJob(c *http.Client, req *http.Request) (*http.Response, error) {
	for {
		r, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if r.StatusCode == http.StatusAccepted {
			r.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		if r.StatusCode != http.StatusOK {
			r.Body.Close()
			return nil, errors.New(r.Status)
		}
		return r, nil
	}
}

// The near miss: the loop follows the 3xx class alone (a redirect it
// was told to follow by hand): a success going round, no retry.
func FollowByHand(c *http.Client, req *http.Request) (*http.Response, error) {
	for hops := 0; hops < 5; hops++ {
		r, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if r.StatusCode >= 300 && r.StatusCode < 400 {
			r.Body.Close()
			time.Sleep(2 * time.Second)
			continue
		}
		return r, nil
	}
	return nil, errors.New("too many redirects")
}
