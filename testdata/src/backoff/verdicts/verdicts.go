// Package verdicts: a retry decided by a bool — the operation's own
// ("again, err := attempt()") or a classifier's over the results of the
// pass ("again, why := c.classify(err, resp, n)").
package verdicts

import (
	"errors"
	"math/rand"
	"net/http"
	"time"
)

type settings struct {
	Retries int
	Pause   time.Duration
}

type txn struct{ cfg settings }

// The attempt says whether to go again; the loop waits a configured
// fixed pause between attempts.
func (t *txn) run(attempt func() (bool, error)) error {
	var err error
	for left := t.cfg.Retries; left >= 0; left-- {
		var again bool
		again, err = attempt()
		if !again {
			return err
		}
		time.Sleep(t.cfg.Pause) // want `retry delay has no jitter`
	}
	return err
}

type offsets map[string]int64

// The same with a result before the verdict.
func (t *txn) commit(attempt func() (offsets, bool, error)) (offsets, error) {
	var out offsets
	var err error
	for left := t.cfg.Retries; left >= 0; left-- {
		var again bool
		out, again, err = attempt()
		if !again {
			return out, err
		}
		time.Sleep(t.cfg.Pause) // want `retry delay has no jitter`
	}
	return out, err
}

type api struct {
	hc    *http.Client
	limit int
}

func (a *api) classify(err error, resp *http.Response, n int) (bool, string) {
	if n >= a.limit {
		return false, "enough"
	}
	if err != nil {
		return true, ""
	}
	return resp.StatusCode >= 500, "status"
}

func (a *api) pause(n int) time.Duration { return time.Duration(n+1) * time.Second }

// A handler given by the caller turns the response into a result and an
// error; a classifier decides from them whether to send again.
func (a *api) call(req *http.Request, decode func(*http.Response, error) (any, error)) (any, error) {
	var out any
	var err error
	for n := 0; ; n++ {
		var resp *http.Response
		resp, err = a.hc.Do(req)
		out, err = decode(resp, err)
		again, _ := a.classify(err, resp, n)
		if !again {
			break
		}
		time.Sleep(a.pause(n)) // want `retry delay has no jitter`
	}
	return out, err
}

// Near miss: an iterator's "more" goes on at once with the next item; it
// retries nothing. (Would it wait between items, it would be taken for a
// retry: the model does not tell "more" from "again".)
type cursor struct{}

func (cursor) Next() (bool, error) { return false, nil }
func (cursor) Value() int          { return 0 }

func drain(c cursor, sink func(int)) error {
	for {
		more, err := c.Next()
		if !more {
			return err
		}
		sink(c.Value())
	}
}

// Near miss: a lock taken by polling; the error is tested first, so "not
// yet" is a success that goes round, not a failure.
func tryLock() (bool, error) { return false, errors.New("down") }

func lock() error {
	for {
		ok, err := tryLock()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Near miss: the bool is not the one just before the error; it is data.
func fetch() (bool, int, error) { return false, 0, nil }

func count() (int, error) {
	total := 0
	for {
		more, n, err := fetch()
		if !more {
			return total, err
		}
		total += n
		time.Sleep(time.Second)
	}
}

// Near miss: the same loop whose delay helper takes a random part off its
// delay (x -= random, in the helper): jittered.
func (a *api) spread(n int) time.Duration {
	d := time.Duration(n*n+1) * 500 * time.Millisecond
	if d > 5*time.Second {
		d = 5 * time.Second
	}
	d -= time.Duration(rand.Int63n(int64(d / 4)))
	return d
}

func (a *api) callSpread(req *http.Request, decode func(*http.Response, error) (any, error)) (any, error) {
	var out any
	var err error
	for n := 0; ; n++ {
		var resp *http.Response
		resp, err = a.hc.Do(req)
		out, err = decode(resp, err)
		again, _ := a.classify(err, resp, n)
		if !again {
			break
		}
		time.Sleep(a.spread(n))
	}
	return out, err
}

// Near miss: a poll until done; the loop goes round when the bool is
// false ("not yet"), not when it asks to go again.
func checkJob() (bool, error) { return false, nil }

func awaitJob() error {
	for {
		done, err := checkJob()
		if done {
			return err
		}
		time.Sleep(2 * time.Second)
	}
}
