package redirects

import (
	"math/rand/v2"
	"net/http"
	"time"
)

// A feed followed by long polls: each poll asks from the position the
// last one answered, after a failure as after a success.
type position interface {
	after(prev position) position
}

type offset uint64

func (o offset) after(prev position) position {
	if p, ok := prev.(offset); ok && p > o {
		return offset(0) // the feed was reset: start again
	}
	return o
}

type follower struct {
	poll  func(f *follower) (position, []string, error)
	at    position
	quit  chan struct{}
	apply func([]string)
}

// follow is a watch: the position a failed poll answered is kept for
// the next one, and the wait after the failure grows with the failures
// in a row with no random part. Reported: every follower that lost the
// feed together polls again together.
func (f *follower) follow() {
	misses := 0
	for {
		next, items, err := f.poll(f)
		if err != nil {
			misses++
			if next != nil {
				f.at = next.after(f.at)
			}
			wait := 2 * time.Second * time.Duration(misses*misses)
			if wait > time.Minute {
				wait = time.Minute
			}
			select {
			case <-time.After(wait): // want `retry delay has no jitter`
				continue
			case <-f.quit:
				return
			}
		}
		misses = 0
		f.at = next.after(f.at)
		f.apply(items)
	}
}

// Near miss: the same watch, its wait after a failure drawn at random.
func (f *follower) followJittered() {
	misses := 0
	for {
		next, items, err := f.poll(f)
		if err != nil {
			misses++
			if next != nil {
				f.at = next.after(f.at)
			}
			wait := 2 * time.Second * time.Duration(misses*misses)
			if wait > time.Minute {
				wait = time.Minute
			}
			select {
			case <-time.After(rand.N(wait)):
				continue
			case <-f.quit:
				return
			}
		}
		misses = 0
		f.at = next.after(f.at)
		f.apply(items)
	}
}

// Near miss: a redirect followed after a pause. The request is aimed at
// what the response answered only on the redirect's path, and a success
// leaves: each pass sends somewhere new, no retry.
func sendPaced(c *http.Client, req *http.Request) (*http.Response, error) {
	for hops := 0; hops < 3; hops++ {
		resp, err := c.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTemporaryRedirect {
			return resp, nil
		}
		resp.Body.Close()
		to, err := resp.Location()
		if err != nil {
			return nil, err
		}
		req.URL = to
		time.Sleep(100 * time.Millisecond)
	}
	return nil, errTooMany
}

// Near miss: a feed read once a second from where the last read ended,
// that stops at its first failure. Nothing failed goes round: the pause
// is the feed's pace, no backoff.
func (f *follower) tail() error {
	for {
		next, items, err := f.poll(f)
		if err != nil {
			return err
		}
		f.at = next.after(f.at)
		f.apply(items)
		time.Sleep(time.Second)
	}
}
