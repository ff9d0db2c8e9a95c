// Package skipitem: a loop whose first call hands out the next item (a
// stream's Recv, a listener's Accept) and whose later step fails on that
// item goes round to the next one: it reads on, it resends nothing.
package skipitem

import (
	"context"
	"errors"
	"log"
	"time"
)

type update struct{ raw []byte }

type updates interface {
	Recv() (*update, error)
}

type roots struct{ n int }

func decode(raw []byte) (*roots, error) {
	if len(raw) == 0 {
		return nil, errors.New("empty update")
	}
	return &roots{n: len(raw)}, nil
}

// A bad update is logged and the next one read.
func nextRoots(s updates) (*roots, error) {
	for {
		u, err := s.Recv()
		if err != nil {
			return nil, err
		}
		r, err := decode(u.raw)
		if err != nil {
			log.Printf("skipping a bad update: %v", err)
			continue
		}
		return r, nil
	}
}

type peer struct{ id string }

type conn interface {
	Close() error
}

type listener interface {
	Accept(ctx context.Context) (conn, error)
}

type tracker interface {
	Identify(c conn) (peer, error)
	Watch(p peer) (func(), error)
}

// A connection whose peer cannot be identified is closed and the next
// one accepted; so is one whose peer cannot be watched.
func acceptKnown(ctx context.Context, l listener, t tracker) (conn, func(), error) {
	for {
		c, err := l.Accept(ctx)
		if err != nil {
			return nil, nil, err
		}
		p, err := t.Identify(c)
		if err != nil {
			c.Close()
			continue
		}
		stop, err := t.Watch(p)
		if err != nil {
			c.Close()
			continue
		}
		return c, stop, nil
	}
}

type store interface {
	Get(ctx context.Context, key string) ([]byte, error)
}

// Near miss: the first call is given the key, so calling it again
// fetches the same record: a record that does not decode is fetched
// again at once, for ever.
func load(ctx context.Context, s store, key string) (*roots, error) {
	for { // want `retry loop tries again at once after a failure`
		raw, err := s.Get(ctx, key)
		if err != nil {
			return nil, err
		}
		r, err := decode(raw)
		if err != nil {
			continue
		}
		return r, nil
	}
}

type request struct{ path string }

type sender interface {
	Send(ctx context.Context, req request, token string) error
}

type tokens interface {
	Next(ctx context.Context) (string, error)
}

// Near miss: the later step is given the caller's request as well as
// the item, so going round sends that request again, at once.
func sendWithFreshToken(ctx context.Context, ts tokens, s sender, req request) error {
	for { // want `retry loop tries again at once after a failure`
		tok, err := ts.Next(ctx)
		if err != nil {
			return err
		}
		if err := s.Send(ctx, req, tok); err != nil {
			continue
		}
		return nil
	}
}

type session interface {
	Handshake(ctx context.Context) error
	Close() error
}

type sessions interface {
	Accept(ctx context.Context) (session, error)
}

// A session whose handshake fails is closed and the next one accepted:
// the failed step is a method of the item itself.
func nextSession(ctx context.Context, l sessions) (session, error) {
	for {
		s, err := l.Accept(ctx)
		if err != nil {
			return nil, err
		}
		if err := s.Handshake(ctx); err != nil {
			s.Close()
			continue
		}
		return s, nil
	}
}

type link interface {
	Send(ctx context.Context, req request) error
}

type links interface {
	Next(ctx context.Context) (link, error)
}

// Near miss: the item is a link the caller's request is sent over; going
// round sends the same request again over the next link, at once.
func sendOverNext(ctx context.Context, ls links, req request) error {
	for { // want `retry loop tries again at once after a failure`
		l, err := ls.Next(ctx)
		if err != nil {
			return err
		}
		if err := l.Send(ctx, req); err != nil {
			continue
		}
		return nil
	}
}

type stream interface {
	Recv() (*update, error)
}

type opener interface {
	Open() (stream, error)
}

// Near miss: a stream opened, read until it breaks, and reopened after a
// fixed pause: the pause backs off the reconnect (a failure of the
// stream the code waits after is no item it skips), and it has no
// jitter.
func follow(ctx context.Context, o opener, apply func(*update)) error {
	for {
		s, err := o.Open()
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
		} else {
			for {
				u, err := s.Recv()
				if err != nil {
					if errors.Is(err, context.Canceled) {
						return err
					}
					break
				}
				apply(u)
			}
		}
		select {
		case <-time.After(500 * time.Millisecond): // want `retry delay has no jitter`
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type node interface {
	URL() string
}

type pool interface {
	Next() (node, error)
}

type poster interface {
	Post(ctx context.Context, url string) error
}

// Near miss: the request sent over the next node is built from the
// caller's path as well as the node: going round sends it again, at once.
func postAnywhere(ctx context.Context, p pool, c poster, path string) error {
	for { // want `retry loop tries again at once after a failure`
		n, err := p.Next()
		if err != nil {
			return err
		}
		url := n.URL() + path
		if err := c.Post(ctx, url); err != nil {
			continue
		}
		return nil
	}
}
