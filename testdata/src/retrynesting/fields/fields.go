// Package fields: retries reached through an interface held in an
// unexported field, whose every value the package knows.
package fields

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

var errBusy = errors.New("busy")

type fetcher interface {
	Fetch(ctx context.Context, id string) ([]byte, error)
}

type wire struct {
	send func(context.Context, string) ([]byte, error)
}

func (w wire) Fetch(ctx context.Context, id string) ([]byte, error) { return w.send(ctx, id) }

// insist retries what it is given 4 times with a jittered wait.
func insist(ctx context.Context, f func(context.Context) ([]byte, error)) ([]byte, error) {
	var err error
	for try := range 4 {
		var b []byte
		if b, err = f(ctx); err == nil {
			return b, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(100*time.Millisecond) << try))):
		}
	}
	return nil, err
}

// patient is a fetcher that retries its inner one.
type patient struct{ next fetcher }

func (p *patient) Fetch(ctx context.Context, id string) ([]byte, error) {
	return insist(ctx, func(ctx context.Context) ([]byte, error) { return p.next.Fetch(ctx, id) })
}

// cursor reads through a fetcher that is always a *patient.
type cursor struct {
	src fetcher
	id  string
}

func newCursor(send func(context.Context, string) ([]byte, error), id string) *cursor {
	return &cursor{src: &patient{next: wire{send}}, id: id}
}

func (c *cursor) Next(ctx context.Context) ([]byte, error) {
	return insist(ctx, func(ctx context.Context) ([]byte, error) { // want `nested retry: insist makes 4 attempts, each reaching \(\*patient\).Fetch, which retries: insist \(4 attempts\) at fields.go:\d+: up to 16 downstream calls per request`
		return c.src.Fetch(ctx, c.id)
	})
}

// Near misses.

// A field the caller may fill with any fetcher: unknown.
type given struct{ src fetcher }

func newGiven(f fetcher) *given { return &given{src: f} }

func (g *given) Next(ctx context.Context, id string) ([]byte, error) {
	return insist(ctx, func(ctx context.Context) ([]byte, error) { return g.src.Fetch(ctx, id) })
}

// A field that holds either a plain or a retrying fetcher: unknown.
type either struct{ src fetcher }

func newEither(send func(context.Context, string) ([]byte, error), retrying bool) *either {
	if !retrying {
		return &either{wire{send}}
	}
	return &either{&patient{next: wire{send}}}
}

func (e *either) Next(ctx context.Context, id string) ([]byte, error) {
	return insist(ctx, func(ctx context.Context) ([]byte, error) { return e.src.Fetch(ctx, id) })
}

// An exported field other packages may set.
type Open struct{ Src fetcher }

func newOpen(send func(context.Context, string) ([]byte, error)) *Open {
	return &Open{Src: &patient{next: wire{send}}}
}

func (o *Open) Next(ctx context.Context, id string) ([]byte, error) {
	return insist(ctx, func(ctx context.Context) ([]byte, error) { return o.Src.Fetch(ctx, id) })
}
