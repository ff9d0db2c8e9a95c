// Package resume: loops that go on after a success — a watch, a consumer
// — and after a failure wait and call the same operation again. The
// failure path retries the call: its wait is a retry delay.
package resume

import (
	"bufio"
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"
)

type event struct{ Rev int64 }

type stream interface {
	Recv() ([]event, error)
}

// A watch whose failure branch re-watches after a fixed second.
func follow(s stream, apply func([]event)) {
	for {
		evs, err := s.Recv()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return
			}
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		apply(evs)
	}
}

type queue struct{ pause time.Duration }

func (q *queue) fetch(ctx context.Context) (string, error) { return "", nil }

// A consumer that waits a configured pause after a failed fetch, or
// stops when told.
func (q *queue) consume(ctx context.Context, stop <-chan struct{}, handle func(string)) {
	for {
		msg, err := q.fetch(ctx)
		if err != nil {
			select {
			case <-time.After(q.pause): // want `retry delay has no jitter`
				continue
			case <-stop:
				return
			}
		}
		handle(msg)
	}
}

type watcher interface {
	Watch(ctx context.Context, rev int64) ([]event, error)
}

// Near miss: a watch that resumes from the next revision, with a jittered
// delay after a failure.
func resumeFrom(ctx context.Context, w watcher, rev int64, apply func(event)) {
	for ctx.Err() == nil {
		evs, err := w.Watch(ctx, rev)
		if err != nil {
			time.Sleep(time.Duration(rand.Int64N(int64(time.Second))))
			continue
		}
		for _, ev := range evs {
			apply(ev)
			rev = ev.Rev + 1
		}
	}
}

// Near miss: a poller; its success waits the polling interval too, so
// the failure's wait is the same interval, not a retry delay.
func poll(q *queue, ctx context.Context, handle func(string)) {
	for {
		msg, err := q.fetch(ctx)
		if err != nil {
			time.Sleep(5 * time.Second)
			continue
		}
		handle(msg)
		time.Sleep(30 * time.Second)
	}
}

func temporary(err error) bool { return false }

// Near miss: a consumer that skips a temporary failure at once and waits
// only after others: it does not wait to retry the call.
func (q *queue) drain(ctx context.Context, handle func(string)) {
	for {
		msg, err := q.fetch(ctx)
		if err != nil {
			if temporary(err) {
				continue
			}
			time.Sleep(time.Second)
			continue
		}
		handle(msg)
	}
}

// Near miss: a server's accept loop waits after a failure (out of file
// descriptors) for its own resources; it calls no dependency again.
func serve(l net.Listener, handle func(net.Conn)) {
	for {
		c, err := l.Accept()
		if err != nil {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		go handle(c)
	}
}

// ...but a client that dials again after a failure retries the dial.
func keepConnected(addr string, use func(net.Conn) error) {
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			time.Sleep(time.Second) // want `retry delay has no jitter`
			continue
		}
		use(c)
	}
}

// Near miss: a tail of a local file waits for more lines; no dependency
// is called again.
func tail(r *bufio.Reader, emit func(string) error) {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		emit(line)
	}
}
