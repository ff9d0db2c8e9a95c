// Package hooks: a request that runs lists of handlers between its
// attempts, as SDKs do. A handler may wait (the retry delay often lives in
// one), and the model cannot see which handlers are installed, so it
// cannot tell that the next attempt follows at once.
package hooks

import (
	"errors"
	"log"
	"time"
)

type handler struct {
	name string
	fn   func(*request)
}

type handlerList struct{ list []handler }

// run calls every handler installed in the list.
func (l *handlerList) run(r *request) {
	for _, h := range l.list {
		h.fn(r)
	}
}

type handlers struct {
	retry, afterRetry handlerList
}

type transport interface{ RoundTrip(r *request) error }

type request struct {
	t          transport
	handlers   handlers
	err        error
	retryable  bool
	retryDelay time.Duration
	onFailure  func(error)
}

func (r *request) sendOnce() error {
	r.err = r.t.RoundTrip(r)
	return r.err
}

// Send runs the retry handlers, which decide and wait, after a failure:
// not reported.
func (r *request) Send() error {
	for {
		if err := r.sendOnce(); err == nil {
			return nil
		}
		r.handlers.retry.run(r)
		r.handlers.afterRetry.run(r)
		if !r.retryable {
			return r.err
		}
	}
}

// SendNotify calls back whoever set onFailure, then goes round: the
// callback may wait; not reported.
func (r *request) SendNotify() error {
	for i := 0; i < 3; i++ {
		err := r.sendOnce()
		if err == nil {
			return nil
		}
		r.onFailure(err)
	}
	return errors.New("gave up")
}

// logFailure only logs.
func logFailure(err error) { log.Printf("send failed: %v", err) }

// SendLogged only logs between attempts: reported.
func (r *request) SendLogged() error {
	for i := 0; i < 3; i++ { // want `retry loop tries again at once after a failure`
		err := r.sendOnce()
		if err == nil {
			return nil
		}
		logFailure(err)
	}
	return errors.New("gave up")
}
