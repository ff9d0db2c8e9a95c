package ctxless

import (
	"context"
	"net/http"
)

// Breaker runs work through a wrapper whose context-less form schedules it
// under Background.
type Breaker struct{}

func (b *Breaker) Call(work func() error) error {
	return b.CallContext(context.Background(), work)
}

func (b *Breaker) CallContext(ctx context.Context, work func() error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return work()
}

// fetchGuarded's work runs under the request's context, which the closure hands
// on: the wrapper's Background only schedules it. Not reported.
func fetchGuarded(b *Breaker, c *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := b.Call(func() error {
		var err error
		resp, err = c.Do(req)
		return err
	})
	return resp, err
}

// flushGuarded's closure runs under nothing of the caller's: reported.
func flushGuarded(ctx context.Context, b *Breaker, pending []string) error {
	return b.Call(func() error { pending = pending[:0]; return nil }) // want `b.Call takes no context, so the deadline and cancellation of ctx never reach it`
}
