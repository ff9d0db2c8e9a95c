// Package bgcallers: a helper whose context parameter is, at every call in
// the package, a context that is never cancelled. A sleep there that does
// not watch the context ignores nothing; the same helper given a caller's
// context, or exported, is reported.
package bgcallers

import (
	"context"
	"errors"
	"time"
)

type key struct{}

type completer struct{ stop chan struct{} }

func (c *completer) send(ctx context.Context, page int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.New("buffer lost")
}

// resend is called only with contexts that are never cancelled: nothing
// reported.
func (c *completer) resend(ctx context.Context, pages int) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.send(ctx, pages)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("gave up")
}

func (c *completer) Complete(pages int) error {
	ctx := context.Background()
	return c.respond(ctx, pages)
}

// respond hands on the context it was given, itself never cancelled.
func (c *completer) respond(ctx context.Context, pages int) error {
	if pages == 0 {
		return c.send(ctx, 0)
	}
	return c.resend(ctx, pages)
}

func (c *completer) CompleteTagged(pages int) error {
	return c.resend(context.WithValue(context.TODO(), key{}, "tag"), pages)
}

// resendReq is also given a request's context by one caller: reported.
func (c *completer) resendReq(ctx context.Context, pages int) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.send(ctx, pages)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry loop waits without watching ctx`
	}
	return errors.New("gave up")
}

func (c *completer) CompleteBackground(pages int) error {
	return c.resendReq(context.Background(), pages)
}

func (c *completer) CompleteFor(ctx context.Context, pages int) error {
	return c.resendReq(ctx, pages)
}

// Resend is exported: its callers are not all here. Reported.
func (c *completer) Resend(ctx context.Context, pages int) error {
	for attempt := 0; attempt < 5; attempt++ {
		err := c.send(ctx, pages)
		if err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry loop waits without watching ctx`
	}
	return errors.New("gave up")
}

func (c *completer) CompleteExported(pages int) error {
	return c.Resend(context.Background(), pages)
}

// probe drops its context, but every caller gives it one that is never
// cancelled: nothing reported.
func (c *completer) probe(ctx context.Context) error {
	return c.send(context.Background(), 0)
}

func (c *completer) Probe() error { return c.probe(context.TODO()) }

// probeFor is also given a caller's context: reported.
func (c *completer) probeFor(ctx context.Context) error {
	return c.send(context.Background(), 0) // want `context.Background\(\) drops the deadline and cancellation of ctx`
}

func (c *completer) ProbeFor(ctx context.Context) error { return c.probeFor(ctx) }

// A recursive retry passes its context on to itself; its only other
// caller gives Background: never cancelled, whatever it waits.
func (c *completer) resendRec(ctx context.Context, page, left int) error {
	err := c.send(ctx, page)
	if err != nil && left > 0 {
		time.Sleep(100 * time.Millisecond)
		return c.resendRec(ctx, page, left-1)
	}
	return err
}

func (c *completer) CompleteRec(page int) error {
	return c.resendRec(context.Background(), page, 3)
}

// The near miss: the other caller gives its own caller's context.
func (c *completer) resendRecFor(ctx context.Context, page, left int) error {
	err := c.send(ctx, page)
	if err != nil && left > 0 {
		time.Sleep(100 * time.Millisecond) // want `waits without watching ctx`
		return c.resendRecFor(ctx, page, left-1)
	}
	return err
}

func (c *completer) CompleteRecFor(ctx context.Context, page int) error {
	return c.resendRecFor(ctx, page, 3)
}

// logger puts a logger on the context: values only (ValueContextFact).
type logger struct{ name string }

func (l logger) withContext(ctx context.Context) context.Context {
	return context.WithValue(ctx, key{}, l)
}

// resendLogged is given only Background with a logger put on it: the
// same context that is never cancelled. Not reported.
func (c *completer) resendLogged(ctx context.Context, pages int) error {
	for attempt := 0; attempt < 5; attempt++ {
		if err := c.send(ctx, pages); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("gave up")
}

func (c *completer) CompleteLogged(pages int) error {
	return c.resendLogged(logger{"completer"}.withContext(context.Background()), pages)
}

// resendLoggedFor is also given a caller's context with a logger put on
// it: reported.
func (c *completer) resendLoggedFor(ctx context.Context, pages int) error {
	for attempt := 0; attempt < 5; attempt++ {
		if err := c.send(ctx, pages); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond) // want `retry loop waits without watching ctx`
	}
	return errors.New("gave up")
}

func (c *completer) CompleteLoggedFor(ctx context.Context, pages int) error {
	return c.resendLoggedFor(logger{"completer"}.withContext(ctx), pages)
}
