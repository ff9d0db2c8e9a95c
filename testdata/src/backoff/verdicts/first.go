package verdicts

import (
	"math/rand/v2"
	"net/http"
	"time"
)

// pauser gives the next wait of a backoff.
type pauser interface{ Pause() time.Duration }

// jittered is the package's only pauser: a full-jitter draw.
type jittered struct{ cur time.Duration }

func (j *jittered) Pause() time.Duration {
	d := rand.N(j.cur)
	j.cur *= 2
	return d
}

// retryer answers, for each failed attempt, the delay before the next and
// whether there is one; its first result is the delay.
type retryer struct {
	bo       pauser
	base     time.Duration
	attempts int
}

func (r *retryer) next(code int, err error) (time.Duration, bool) {
	if err == nil && code < 500 || r.attempts == 4 {
		return 0, false
	}
	r.attempts++
	return r.bo.Pause(), true
}

func (r *retryer) fixed(code int, err error) (time.Duration, bool) {
	if err == nil && code < 500 || r.attempts == 4 {
		return 0, false
	}
	r.attempts++
	return r.base, true
}

// The delay is the first result of a helper whose every return gives it
// from an interface's method: not known, not judged.
func getNext(hc *http.Client, req *http.Request) {
	r := &retryer{bo: &jittered{cur: 100 * time.Millisecond}}
	for {
		var code int
		resp, err := hc.Do(req)
		if resp != nil {
			code = resp.StatusCode
			resp.Body.Close()
		}
		if d, again := r.next(code, err); again {
			time.Sleep(d)
			continue
		}
		break
	}
}

// The near miss: the helper's first result is a configured number.
func getFixed(hc *http.Client, req *http.Request) {
	r := &retryer{base: time.Second}
	for {
		var code int
		resp, err := hc.Do(req)
		if resp != nil {
			code = resp.StatusCode
			resp.Body.Close()
		}
		if d, again := r.fixed(code, err); again {
			time.Sleep(d) // want `retry delay has no jitter`
			continue
		}
		break
	}
}
