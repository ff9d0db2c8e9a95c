package bounds

import (
	"context"
	"errors"
	"time"
)

func dialOnce() error { return errors.New("down") }

type conn struct {
	closing chan struct{}
	ctx     context.Context
}

// pause waits d or until Close closes c.closing, and says which.
func (c *conn) pause(d time.Duration) bool {
	select {
	case <-c.closing:
		return false
	case <-time.After(d):
		return true
	}
}

// rest waits d or until the connection's context is cancelled.
func (c *conn) rest(d time.Duration) error {
	select {
	case <-c.ctx.Done():
		return c.ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// The wait helper selects on a stop channel of the receiver and the
// loop leaves on its answer: bounded by Close.
func (c *conn) reconnect() {
	for {
		if err := dialOnce(); err == nil {
			return
		}
		if !c.pause(jittered(time.Second)) {
			return
		}
	}
}

// The wait helper selects on a context held in a field.
func (c *conn) redial() error {
	for {
		if err := dialOnce(); err == nil {
			return nil
		}
		if err := c.rest(jittered(time.Second)); err != nil {
			return err
		}
	}
}

// A closure held in a local variable that selects on the stop channel.
func (c *conn) resubscribe() {
	wait := func(d time.Duration) bool {
		select {
		case <-c.closing:
			return false
		case <-time.After(d):
			return true
		}
	}
	for {
		if err := dialOnce(); err == nil {
			return
		}
		if !wait(jittered(time.Second)) {
			return
		}
	}
}

// The near miss: the helper's answer is dropped, Close does not end the
// loop.
func (c *conn) reconnectDeaf() {
	for { // want `retry loop has no bound`
		if err := dialOnce(); err == nil {
			return
		}
		c.pause(jittered(time.Second))
	}
}

// pauseLocal selects on a channel it makes itself: nothing outside it
// can end the wait early.
func (c *conn) pauseLocal(d time.Duration) bool {
	never := make(chan struct{})
	select {
	case <-never:
		return false
	case <-time.After(d):
		return true
	}
}

// The near miss: the helper's stop is its own.
func (c *conn) reconnectLocal() {
	for { // want `retry loop has no bound`
		if err := dialOnce(); err == nil {
			return
		}
		if !c.pauseLocal(jittered(time.Second)) {
			return
		}
	}
}

// isClosed says whether the channel it is given was closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// The stop channel is the caller's, asked through a helper of the
// package: another goroutine ends the loop by closing it.
func redialUntilClosed(stop <-chan struct{}) {
	for {
		if isClosed(stop) {
			return
		}
		if err := dialOnce(); err == nil {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}

// The near miss: the channel is made here and nothing else can close it.
func redialLocal() {
	stop := make(chan struct{})
	for { // want `retry loop has no bound`
		if isClosed(stop) {
			return
		}
		if err := dialOnce(); err == nil {
			return
		}
		time.Sleep(jittered(time.Second))
	}
}
