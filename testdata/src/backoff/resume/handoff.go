package resume

import (
	"context"
	"time"
)

type message struct{ Topic string }

type receiver interface {
	Receive(ctx context.Context) (*message, error)
}

// listener takes what the reader hands it, until its context ends.
type listener struct {
	ctx context.Context
	in  chan *message
}

// deliver blocks until the listener takes m or goes away: a hand-off,
// no pause.
func (s *listener) deliver(m *message) {
	select {
	case s.in <- m:
	case <-s.ctx.Done():
	}
}

// offer gives the listener a second to take m: its timer paces the
// caller.
func (s *listener) offer(m *message) {
	select {
	case s.in <- m:
	case <-time.After(time.Second):
	}
}

type reader struct {
	ctx  context.Context
	rc   receiver
	subs map[string]*listener
}

// fanOut hands every message to its listener and, after a failed
// receive, waits a doubling pause with no random part: reported. The
// hand-off on the success path is no poll's interval.
func (r *reader) fanOut() {
	var delay time.Duration
	for {
		m, err := r.rc.Receive(r.ctx)
		if err != nil {
			time.Sleep(delay) // want `retry delay has no jitter`
			if delay *= 2; delay == 0 {
				delay = 100 * time.Millisecond
			} else if delay > time.Second {
				delay = time.Second
			}
			continue
		}
		delay = 0
		if s, ok := r.subs[m.Topic]; ok {
			s.deliver(m)
		}
		r.subs["all"].deliver(m)
	}
}

// paced offers each message for up to a second, on every success: its
// successes wait on a timer, a poll's interval, and the failure's wait
// is that poll's too: not reported.
func (r *reader) paced() {
	for {
		m, err := r.rc.Receive(r.ctx)
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		r.subs["all"].offer(m)
	}
}
